"""Find every message the interfaces translate, and keep the ``.po`` catalogues in step with them.

Messages are the string literals passed to ``_``, ``N_``, ``ngettext`` and ``pgettext`` in the modules
listed in :data:`SOURCES`, plus every box id (context ``box``), rule-set base id (context ``rules``: its
description) and base name (context ``rule-name``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from pasch.i18n._msgfmt import PoEntry, parse_po

__all__ = ["Message", "extract", "merge_po"]

_PKG = Path(__file__).resolve().parent.parent
SOURCES: tuple[str, ...] = (
    "app",
    "tui",
    "i18n",
    "cli/_tui_cmds.py",
    "cli/_basic.py",
    "cli/_common.py",
    "cli/_plain.py",
)
"""Paths under ``src/pasch`` whose messages are translated."""


@dataclass(frozen=True, slots=True, order=True)
class Message:
    """A message id, its context and its plural id."""

    msgid: str
    msgctxt: str | None = None
    plural: str | None = None

    @property
    def key(self) -> tuple[str | None, str]:
        """(context, id)."""
        return (self.msgctxt, self.msgid)


def _files() -> list[Path]:
    out: list[Path] = []
    for rel in SOURCES:
        p = _PKG / rel
        out.extend(sorted(p.rglob("*.py")) if p.is_dir() else [p])
    return out


def _const(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def extract() -> list[Message]:
    """Every translated message, sorted, without duplicates."""
    found: dict[tuple[str | None, str], Message] = {}
    for path in _files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            name, args = node.func.id, node.args
            msg: Message | None = None
            if name in ("_", "N_") and args and (s := _const(args[0])) is not None:
                msg = Message(s)
            elif name == "ngettext" and len(args) >= 2:
                s1, s2 = _const(args[0]), _const(args[1])
                if s1 is not None and s2 is not None:
                    msg = Message(s1, None, s2)
            elif name == "pgettext" and len(args) >= 2:
                c, s = _const(args[0]), _const(args[1])
                if c is not None and s is not None:
                    msg = Message(s, c)
            if msg is not None and msg.msgid:
                found.setdefault(msg.key, msg)
    from pasch.rules import BASES

    for bid, base in BASES.items():
        found.setdefault(("rules", bid), Message(bid, "rules"))
        found.setdefault(("rule-name", base.rules.name), Message(base.rules.name, "rule-name"))
        for cat in base.rules.categories:
            found.setdefault(("box", cat.id), Message(cat.id, "box"))
    return sorted(found.values(), key=lambda m: (m.msgctxt or "", m.msgid))


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def merge_po(po_text: str, messages: list[Message]) -> str:
    """The catalogue with exactly ``messages``: existing translations kept, new ones left empty."""
    old = {(e.msgctxt, e.msgid): e for e in parse_po(po_text)}
    header = old.get((None, ""), PoEntry(msgstr={0: ""}))
    out = ['msgid ""', "msgstr " + _q(header.msgstr.get(0, "")), ""]
    for m in messages:
        e = old.get(m.key)
        if m.msgctxt is not None:
            out.append(f"msgctxt {_q(m.msgctxt)}")
        out.append(f"msgid {_q(m.msgid)}")
        if m.plural is not None:
            out.append(f"msgid_plural {_q(m.plural)}")
            for i in range(2):
                out.append(f"msgstr[{i}] {_q(e.msgstr.get(i, '') if e else '')}")
        else:
            out.append(f"msgstr {_q(e.msgstr.get(0, '') if e else '')}")
        out.append("")
    return "\n".join(out)
