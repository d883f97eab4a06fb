"""Message catalogues de, en, es, it (gettext) and the localised names of boxes and rule sets.

The interfaces call :func:`_` (and :func:`ngettext`, :func:`pgettext`) for every visible string. The
language is process-wide: :func:`set_language` picks it (``--lang``), :func:`detect_language` reads the
locale. Catalogues live in ``locale/LANG/LC_MESSAGES/pasch.po``; the compiled ``.mo`` beside each is
committed and checked against its ``.po`` by the tests (``python -m pasch.i18n`` recompiles them). A
missing ``.mo`` is compiled from the ``.po`` in memory, so a checkout without them still speaks German.
"""

from __future__ import annotations

import gettext as _gettext
import io
import locale
import os
from functools import cache
from pathlib import Path
from typing import Any

from pasch.i18n._msgfmt import compile_po

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "N_",
    "_",
    "box_name",
    "detect_language",
    "get_language",
    "language_name",
    "ngettext",
    "normalize_language",
    "pgettext",
    "rules_description",
    "set_language",
]

DOMAIN = "pasch"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES: tuple[str, ...] = ("en", "de", "es", "it")
"""The languages pasch speaks (ISO 639-1)."""
DEFAULT_LANGUAGE = "en"

_LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "es": "Español", "it": "Italiano"}

# The all-alike box is called after the game in some families; other games use the translated name.
_FIVE_ALIKE_BY_BASE = {
    "kniffel": "Kniffel",
    "kniffel-classic": "Kniffel",
    "kniffel-3": "Kniffel",
    "kniffel-4": "Kniffel",
    "yatzy": "Yatzy",
    "yacht": "Yacht",
}


@cache
def _translations(lang: str) -> _gettext.NullTranslations:
    base = LOCALE_DIR / lang / "LC_MESSAGES"
    mo, po = base / f"{DOMAIN}.mo", base / f"{DOMAIN}.po"
    if mo.is_file():
        with mo.open("rb") as fh:
            return _gettext.GNUTranslations(fh)
    if po.is_file():
        data = compile_po(po.read_text(encoding="utf-8"), str(po))
        return _gettext.GNUTranslations(io.BytesIO(data))
    return _gettext.NullTranslations()


_current: list[str] = [DEFAULT_LANGUAGE]


def normalize_language(text: str | None) -> str | None:
    """``de_DE.UTF-8`` -> ``de``; None for a language pasch does not speak."""
    if not text:
        return None
    code = text.strip().replace("-", "_").split(".")[0].split("_")[0].lower()
    return code if code in LANGUAGES else None


def detect_language() -> str:
    """The language of the user's locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in os.environ.get(var, "").split(":"):
            lang = normalize_language(part)
            if lang:
                return lang
    try:
        loc = locale.getlocale()[0]
    except ValueError:  # pragma: no cover - odd platform locales
        loc = None
    return normalize_language(loc) or DEFAULT_LANGUAGE


def set_language(lang: str | None) -> str:
    """Switch every message to ``lang`` (None: the locale's language) and return the language chosen.

    Raises:
        ValueError: a language pasch has no catalogue for.
    """
    if lang is None:
        chosen = detect_language()
    else:
        norm = normalize_language(lang)
        if norm is None:
            raise ValueError(f"language {lang!r} is not available; choose one of {', '.join(LANGUAGES)}")
        chosen = norm
    _current[0] = chosen
    return chosen


def get_language() -> str:
    """The current language code."""
    return _current[0]


def language_name(lang: str) -> str:
    """The language's own name (``Deutsch``)."""
    return _LANGUAGE_NAMES.get(lang, lang)


def _(message: str) -> str:
    """Translate ``message`` into the current language."""
    return _translations(_current[0]).gettext(message)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark ``message`` for translation without translating it now."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message with a count (``1 throw left`` / ``2 throws left``)."""
    return _translations(_current[0]).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` in ``context`` (box ids use the context ``box``)."""
    return _translations(_current[0]).pgettext(context, message)


def box_name(rules: Any, category: int | str, lang: str | None = None) -> str:
    """The localised display name of a box of ``rules`` (by index or id): ``full_house`` -> ``Full House``;
    in ``lang`` when given (else the current language)."""
    cid = rules.categories[category].id if isinstance(category, int) else category
    if cid == "yahtzee" and rules.base in _FIVE_ALIKE_BY_BASE:
        return _FIVE_ALIKE_BY_BASE[rules.base]
    name = pgettext("box", cid) if lang is None else _translations(lang).pgettext("box", cid)
    return cid.replace("_", " ") if name == cid else name


def rules_description(rules: Any) -> str:
    """The localised one-line description of a rule set's base (falls back to the catalogue's English)."""
    text = pgettext("rules", rules.base)
    return str(rules.description) if text == rules.base else text


def rules_name(rules: Any) -> str:
    """The display name of a rule set in the current language (``Kniffel, vier Spalten +sharp``): the base's
    name (context ``rule-name``; a game's own name stays itself), then the modifiers as written."""
    name = str(rules.name)
    mods = "".join(f" +{m}" for m in getattr(rules, "modifiers", ()))
    base = name[: len(name) - len(mods)] if mods and name.endswith(mods) else name
    return pgettext("rule-name", base) + (mods if base != name else "")
