"""Value tables shipped in the package: a catalogue rule set's first answer compiles nothing.

Private. The package carries the value table of every base rule set of the catalogue (``tables/``):
its float32 bytes split into four byte planes (the exponent bytes of neighbouring values are alike,
so the planes compress a third better than the table) and compressed with xz. ``tables/MANIFEST.json``
names each file's rule set, shape, SHA-256 of the table's bytes, expected score, and the solver
version and command that wrote it. A table is used only when its manifest entry is for this solver
version and its bytes match the checksum; otherwise the solver builds the table as for any other rule
set (``_table`` warns with a :class:`~pasch.solver.CacheWarning` when a shipped file is damaged).

``python tools/ship_tables.py`` (in the repository) builds the tables again with the kernels and writes
the files and the manifest; a test checks, in the slow step, that the shipped bytes equal a fresh build.
"""

from __future__ import annotations

import hashlib
import json
import lzma
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pasch.rules import RuleSet

__all__ = ["DIRECTORY", "SHIPPED", "load", "manifest", "write"]

DIRECTORY = Path(__file__).parent / "tables"
"""Where the shipped tables live in the package."""

SHIPPED = ("kniffel", "yahtzee", "kniffel-classic", "yatzy", "yacht")
"""The rule sets whose tables are shipped: the catalogue's single-column base rule sets."""

COMMAND = "python tools/ship_tables.py"
"""The command that writes the shipped tables (recorded in the manifest)."""

_MANIFEST: list[dict[str, Any]] = []


def manifest() -> dict[str, Any]:
    """The manifest of the shipped tables (empty when the package carries none), read once."""
    if not _MANIFEST:
        try:
            got = json.loads((DIRECTORY / "MANIFEST.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            got = {}
        _MANIFEST.append(got if isinstance(got, dict) else {})
    return _MANIFEST[0]


def _planes(values: npt.NDArray[np.float32]) -> bytes:
    return np.ascontiguousarray(values).reshape(-1).view(np.uint8).reshape(-1, 4).T.tobytes()


def _unplane(data: bytes, shape: tuple[int, ...]) -> npt.NDArray[np.float32]:
    planes = np.frombuffer(data, np.uint8).reshape(4, -1)
    return np.ascontiguousarray(planes.T).view("<f4").reshape(shape).astype(np.float32, copy=False)


def _digest(values: npt.NDArray[Any]) -> str:
    return hashlib.sha256(np.ascontiguousarray(values).astype("<f4", copy=False).tobytes()).hexdigest()


def load(rules: RuleSet, shape: tuple[int, ...], version: int) -> tuple[npt.NDArray[np.float32] | None, str]:
    """The shipped table of a rule set (read-only), or None and why not.

    Returns:
        ``(table, "")``; ``(None, "")`` when none is shipped for this rule set, solver version and shape;
        ``(None, reason)`` when the shipped file is missing, unreadable or does not match its checksum.
    """
    book = manifest()
    entry = book.get("tables", {}).get(rules.id)
    if not isinstance(entry, dict) or book.get("solver_version") != version or entry.get("shape") != list(shape):
        return None, ""
    try:
        values = _unplane(lzma.decompress((DIRECTORY / str(entry["file"])).read_bytes()), shape)
    except (OSError, ValueError, KeyError, lzma.LZMAError) as exc:
        return None, f"it cannot be read ({exc})"
    if _digest(values) != entry.get("sha256"):
        return None, "its data does not match its checksum"
    values.flags.writeable = False
    return values, ""


def write(built: dict[str, npt.NDArray[np.float32]], version: int, directory: Path = DIRECTORY) -> dict[str, Any]:
    """Write built tables (by canonical rule-set text) and their manifest into ``directory``.

    ``tools/ship_tables.py`` builds them with the kernels and calls this.

    Returns:
        The manifest written.
    """
    import numba

    directory.mkdir(parents=True, exist_ok=True)
    tables: dict[str, Any] = {}
    for rules_id, values in built.items():
        file = f"{rules_id}.f32.xz"
        (directory / file).write_bytes(lzma.compress(_planes(values), preset=9 | lzma.PRESET_EXTREME))
        tables[rules_id] = {
            "file": file,
            "shape": list(values.shape),
            "sha256": _digest(values),
            "expected": round(float(values[0, 0, 0]), 6),
        }
    book = {"solver_version": version, "command": COMMAND, "numba": numba.__version__, "tables": tables}
    (directory / "MANIFEST.json").write_text(json.dumps(book, indent=1) + "\n", encoding="utf-8")
    _MANIFEST.clear()
    return book
