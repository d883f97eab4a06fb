"""A small, dependency-free ``msgfmt``: compile a gettext ``.po`` catalogue into ``.mo`` bytes.

It understands what pasch's catalogues use: ``msgctxt``, ``msgid``, ``msgid_plural``, ``msgstr[n]``,
multi-line strings, comments and the fuzzy flag (fuzzy entries are left out, as GNU msgfmt does).
"""

from __future__ import annotations

import ast
import struct
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["PoEntry", "compile_po", "parse_po"]


@dataclass
class PoEntry:
    """One catalogue entry."""

    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False
    comments: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        """The lookup key gettext uses: context, EOT, id."""
        return self.msgid if self.msgctxt is None else f"{self.msgctxt}\x04{self.msgid}"


def _unquote(text: str, where: str) -> str:
    text = text.strip()
    if not (text.startswith('"') and text.endswith('"')):
        raise ValueError(f"{where}: expected a quoted string, got {text!r}")
    value = ast.literal_eval(text)
    assert isinstance(value, str)
    return value


def parse_po(text: str, name: str = "<po>") -> list[PoEntry]:
    """Parse the text of a ``.po`` file into entries (the header is the entry with an empty msgid).

    Raises:
        ValueError: a line that is not valid ``.po`` syntax.
    """
    entries: list[PoEntry] = []
    cur = PoEntry()
    target: tuple[str, int] | None = None
    started = False

    def flush() -> None:
        nonlocal cur, started, target
        if started:
            entries.append(cur)
        cur, started, target = PoEntry(), False, None

    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        where = f"{name}:{n}"
        if not line:
            flush()
            continue
        if line.startswith("#"):
            if started and target is not None and target[0] == "msgstr":
                flush()
            if line.startswith("#,") and "fuzzy" in line:
                cur.fuzzy = True
            cur.comments.append(raw)
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            if target is None:
                raise ValueError(f"{where}: continuation line without a keyword")
            value = _unquote(line, where)
            kind, idx = target
            if kind == "msgid":
                cur.msgid += value
            elif kind == "msgid_plural":
                cur.msgid_plural = (cur.msgid_plural or "") + value
            elif kind == "msgctxt":
                cur.msgctxt = (cur.msgctxt or "") + value
            else:
                cur.msgstr[idx] = cur.msgstr.get(idx, "") + value
            continue
        if keyword in ("msgctxt", "msgid") and started and target is not None and target[0] == "msgstr":
            flush()
        started = True
        value = _unquote(rest, where)
        if keyword == "msgctxt":
            cur.msgctxt, target = value, ("msgctxt", 0)
        elif keyword == "msgid":
            cur.msgid, target = value, ("msgid", 0)
        elif keyword == "msgid_plural":
            cur.msgid_plural, target = value, ("msgid_plural", 0)
        elif keyword == "msgstr":
            cur.msgstr[0], target = value, ("msgstr", 0)
        elif keyword.startswith("msgstr[") and keyword.endswith("]"):
            idx = int(keyword[7:-1])
            cur.msgstr[idx], target = value, ("msgstr", idx)
        else:
            raise ValueError(f"{where}: unknown keyword {keyword!r}")
    flush()
    return entries


def compile_po(text: str, name: str = "<po>") -> bytes:
    """Compile ``.po`` text into the bytes of a ``.mo`` file (untranslated and fuzzy entries left out).

    Raises:
        ValueError: the ``.po`` text is malformed.
    """
    messages: dict[bytes, bytes] = {}
    for e in parse_po(text, name):
        if e.fuzzy and e.msgid:
            continue
        if e.msgid_plural is not None:
            forms = [e.msgstr.get(i, "") for i in range(max(e.msgstr, default=0) + 1)]
            if not any(forms):
                continue
            key = e.key + "\0" + e.msgid_plural
            messages[key.encode()] = "\0".join(forms).encode()
        else:
            value = e.msgstr.get(0, "")
            if not value:
                continue
            messages[e.key.encode()] = value.encode()
    keys = sorted(messages)
    ids = b"".join(k + b"\0" for k in keys)
    strs = b"".join(messages[k] + b"\0" for k in keys)
    count = len(keys)
    header_size = 7 * 4
    ids_start = header_size + 16 * count
    strs_start = ids_start + len(ids)
    offsets: list[int] = []
    pos = 0
    for k in keys:
        offsets += [len(k), ids_start + pos]
        pos += len(k) + 1
    pos = 0
    for k in keys:
        v = messages[k]
        offsets += [len(v), strs_start + pos]
        pos += len(v) + 1
    header = struct.pack("Iiiiiii", 0x950412DE, 0, count, header_size, header_size + 8 * count, 0, 0)
    return header + struct.pack(f"{len(offsets)}i", *offsets) + ids + strs


def compile_file(po: Path) -> Path:
    """Compile ``po`` into the ``.mo`` file beside it and return its path."""
    mo = po.with_suffix(".mo")
    mo.write_bytes(compile_po(po.read_text(encoding="utf-8"), str(po)))
    return mo
