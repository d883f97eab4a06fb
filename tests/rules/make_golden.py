"""Write the golden files ``tests/rules/golden/<rules>.txt`` from the brute-force scorer.

Run ONCE (the files are committed and reviewed by hand; see ``golden/README.md``)::

    .venv/bin/python -m tests.rules.make_golden

Each row reads ``RULES D1 D2 D3 D4 D5 CATEGORY -> SCORE``: the score of those dice in that box of an
empty sheet. Rows are ordered by throw, then by sheet order.
"""

from __future__ import annotations

from pathlib import Path

from ._brute import GOLDEN_RULES, SHEETS, all_throws, brute_score

GOLDEN = Path(__file__).parent / "golden"


def main() -> None:
    throws = all_throws()
    assert len(throws) == 252
    for rules in GOLDEN_RULES:
        lines = [
            f"# {rules}: score of each throw in each box of an empty sheet; written by make_golden.py",
        ]
        for dice in throws:
            shown = " ".join(map(str, dice))
            for cat in SHEETS[rules]:
                lines.append(f"{rules} {shown} {cat} -> {brute_score(rules, dice, cat)}")
        (GOLDEN / f"{rules}.txt").write_text("\n".join(lines) + "\n")
        print(f"{rules}: {len(lines) - 1} rows")


if __name__ == "__main__":
    main()
