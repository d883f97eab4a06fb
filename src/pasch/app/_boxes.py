"""Which box a player means: an id, a name in any language pasch speaks, a short form, or a unique start.

The score keeper's line (``12345 große straße``) and the plain mode's prompt take what people type; this is
the one place that reads a box from it. Names are compared case-folded with spaces, hyphens and
underscores alike (``Große Straße``, ``grosse strasse`` and ``große_straße`` are the same box), in every
language at once (a German table with an English screen types German names); the current language wins
where two languages disagree.
"""

from __future__ import annotations

from pasch.i18n import LANGUAGES, box_name, get_language
from pasch.rules import RuleSet

__all__ = ["BOX_ALIASES", "find_box", "norm_box"]

BOX_ALIASES = {
    "fh": "full_house",
    "ss": "small_straight",
    "ls": "large_straight",
    "3k": "three_of_a_kind",
    "4k": "four_of_a_kind",
    "kniffel": "yahtzee",
    "yatzy": "yahtzee",
    "yacht": "yahtzee",
    "1": "ones",
    "2": "twos",
    "3": "threes",
    "4": "fours",
    "5": "fives",
    "6": "sixes",
}
"""Short forms people type for boxes (a digit is the upper box of that face)."""


def norm_box(text: str) -> str:
    """``Große Straße`` -> ``grosse_strasse``: case-folded, spaces and hyphens as underscores."""
    return "_".join(text.strip().casefold().replace("-", " ").replace("_", " ").split())


def find_box(rules: RuleSet, text: str, *, prefix: bool = True) -> str | None:
    """The id of the box of ``rules`` meant by ``text``, or None.

    Args:
        rules: the rule set (its boxes).
        text: an id (``full_house``), a name in any language (``Große Straße``, ``escalera grande``), a short
            form (:data:`BOX_ALIASES`), or with ``prefix`` a unique start of an id or a name (two letters at least).
        prefix: accept a unique start.
    """
    word = norm_box(text)
    ids = rules.category_ids
    if word in ids:
        return word
    names: dict[str, str] = {}
    for lang in (get_language(), *LANGUAGES):
        for cid in ids:
            names.setdefault(norm_box(box_name(rules, cid, lang)), cid)
    if word in names:
        return names[word]
    alias = BOX_ALIASES.get(word)
    if alias in ids:
        return alias
    if not prefix or len(word) < 2:
        return None
    found = {cid for cid in ids if cid.startswith(word)} | {cid for name, cid in names.items() if name.startswith(word)}
    return found.pop() if len(found) == 1 else None
