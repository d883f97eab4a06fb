"""Write the playthrough goldens: one seeded game per catalogue rule set, recorded step by step as text.

Run ``python tests/engine/make_playthroughs.py`` (from the repository root, with pasch installed) to
(re)write ``tests/engine/playthroughs/*.txt``; ``test_playthroughs.py`` replays every file and compares.

Policy (fixed, documented): ``random.Random(SEED_TEXT)`` where the seed text is the file's name; at a
decision node a uniformly random legal action (``rng.choice``), at a chance node a throw drawn with the
outcomes' probabilities (``rng.choices``). Every catalogue base is played by two players; one more file
plays Kniffel alone in score-keeper mode.

File format: a header of ``# ...`` comments and ``key: value`` lines (rules, players, keeper), then one
block per step::

    position: <position text>
    legal: <legal actions, grouped>
    action: <action taken>

and at the end ``position:`` of the final state, ``legal: -`` and ``totals: ...``. Legal actions are
written completely but compactly: consecutive actions with the same first word are grouped as
``word rest|rest|...`` and groups are separated by ``; `` (``keep 1|1 3|...; score chance|yahtzee``);
at a chance node, whose actions are every throw of the dice in the air, as ``chance: N dice, K throws``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from pasch.engine import Action, State, new_game
from pasch.rules import names

DIRECTORY = Path(__file__).with_name("playthroughs")
PLAYERS = ("Ada", "Bob")


def games() -> tuple[tuple[str, str, tuple[str, ...], bool], ...]:
    """(file stem, rule set, players, keeper) of every playthrough."""
    out = [(base, base, PLAYERS, False) for base in names()]
    out.append(("kniffel-keeper", "kniffel", PLAYERS[:1], True))
    return tuple(out)


def legal_text(state: State) -> str:
    """The legal actions, complete and compact (see the module docstring)."""
    if state.is_terminal:
        return "-"
    if state.is_chance_node:
        return f"chance: {state.pending} dice, {len(state.chance_outcomes())} throws"
    groups: list[tuple[str, list[str]]] = []
    for action in state.legal_actions():
        word, _, rest = str(action).partition(" ")
        if groups and groups[-1][0] == word:
            groups[-1][1].append(rest)
        else:
            groups.append((word, [rest]))
    return "; ".join(f"{word} {'|'.join(rests)}".rstrip() for word, rests in groups)


def header(stem: str, rules: str, players: Sequence[str], keeper: bool) -> list[str]:
    """The file's header lines."""
    return [
        "# pasch playthrough, written by tests/engine/make_playthroughs.py (policy: see its docstring)",
        f"# seed: random.Random({stem!r})",
        f"rules: {rules}",
        f"players: {','.join(players)}",
        f"keeper: {'yes' if keeper else 'no'}",
    ]


def record(state: State, actions: Iterable[Action | str]) -> list[str]:
    """The step lines of a game from ``state`` through ``actions``, then the final lines."""
    lines: list[str] = []
    for action in actions:
        lines += [f"position: {state.to_text()}", f"legal: {legal_text(state)}", f"action: {action}"]
        state = state.apply(action)
    lines += [f"position: {state.to_text()}", f"legal: {legal_text(state)}"]
    lines.append("totals: " + " ".join(str(t) for t in state.totals()))
    return lines


def play(stem: str, rules: str, players: Sequence[str], keeper: bool) -> list[Action]:
    """The actions of the seeded game (see the policy in the module docstring)."""
    rng = random.Random(stem)
    state: State = new_game(rules, players, keeper=keeper)
    actions: list[Action] = []
    while not state.is_terminal:
        if state.is_chance_node:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        actions.append(action)
        state = state.apply(action)
    return actions


def playthrough(stem: str, rules: str, players: Sequence[str], keeper: bool) -> str:
    """The whole file text of one playthrough."""
    state = new_game(rules, players, keeper=keeper)
    lines = header(stem, rules, players, keeper) + record(state, play(stem, rules, players, keeper))
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] = ()) -> int:
    """Write every playthrough file (or only the stems named in ``argv``)."""
    DIRECTORY.mkdir(exist_ok=True)
    for stem, rules, players, keeper in games():
        if argv and stem not in argv:
            continue
        path = DIRECTORY / f"{stem}.txt"
        path.write_text(playthrough(stem, rules, players, keeper), encoding="utf-8")
        print(f"{path}: {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
