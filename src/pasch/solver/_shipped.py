"""Value tables shipped in the package: a catalogue rule set's first answer compiles nothing.

Private. ``tables/`` holds the table of each base rule set of the catalogue: its float32 bytes in four
byte planes (neighbouring values share exponent bytes: a third smaller compressed), xz-compressed.
``tables/MANIFEST.json`` gives each file's rule set, shape, SHA-256 of the table's bytes and expected
score, and the solver version and command that wrote it (``python tools/ship_tables.py``; a slow test
checks that the shipped bytes equal a fresh build). A table is used only for its solver version and
checksum; else the solver builds it (``_table`` warns when a shipped file is damaged).
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
SHIPPED = ("kniffel", "yahtzee", "kniffel-classic", "yatzy", "yacht")
"""The rule sets whose tables are shipped: the catalogue's single-column base rule sets."""
COMMAND = "python tools/ship_tables.py"

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
    entry = book.get("tables", {}).get(rules.cache_key)  # a custom rule set is never a shipped one
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
    """Write built tables (by canonical rule-set text) and their manifest into ``directory``; returns the manifest."""
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
