"""The catalogues: complete in every language, placeholders intact, compiled .mo files up to date."""

from __future__ import annotations

import gettext
import io
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

from pasch.i18n import (
    LANGUAGES,
    LOCALE_DIR,
    _,
    box_name,
    detect_language,
    get_language,
    ngettext,
    normalize_language,
    rules_description,
    set_language,
)
from pasch.i18n._extract import extract, merge_po
from pasch.i18n._msgfmt import compile_po, parse_po
from pasch.rules import BASES, get


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def _po(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "pasch.po"


def _fields(text: str) -> set[str]:
    return {f for _lit, f, _spec, _conv in string.Formatter().parse(text) if f is not None}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_mo_is_compiled_from_po(lang: str) -> None:
    po = _po(lang)
    assert po.with_suffix(".mo").read_bytes() == compile_po(po.read_text(encoding="utf-8")), (
        "run 'python -m pasch.i18n' to recompile the catalogues"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_in_the_catalogue(lang: str) -> None:
    entries = {(e.msgctxt, e.msgid): e for e in parse_po(_po(lang).read_text(encoding="utf-8"))}
    for m in extract():
        assert m.key in entries, f"{lang}: {m.key} missing; run 'python -m pasch.i18n update'"
        e = entries[m.key]
        if lang != "en" or m.msgctxt is not None:
            assert all(e.msgstr.get(i) for i in range(2 if m.plural else 1)), f"{lang}: {m.key} untranslated"
        for s in e.msgstr.values():
            if s:
                assert _fields(s) == _fields(m.msgid), f"{lang}: placeholders differ in {m.msgid!r}"


def test_catalogue_has_nothing_stale() -> None:
    wanted = {m.key for m in extract()}
    for lang in LANGUAGES:
        have = {(e.msgctxt, e.msgid) for e in parse_po(_po(lang).read_text(encoding="utf-8")) if e.msgid}
        assert have == wanted, lang


def test_merge_keeps_translations() -> None:
    text = _po("de").read_text(encoding="utf-8")
    merged = merge_po(text, extract())
    old = {(e.msgctxt, e.msgid): e.msgstr for e in parse_po(text)}
    new = {(e.msgctxt, e.msgid): e.msgstr for e in parse_po(merged)}
    assert old == new


KNIFFEL_DE = [
    "Einser",
    "Zweier",
    "Dreier",
    "Vierer",
    "Fünfer",
    "Sechser",
    "Dreierpasch",
    "Viererpasch",
    "Full House",
    "Kleine Straße",
    "Große Straße",
    "Kniffel",
    "Chance",
]


def test_german_kniffel_names() -> None:
    set_language("de")
    rules = get("kniffel")
    assert [box_name(rules, i) for i in range(len(rules.categories))] == KNIFFEL_DE
    assert _("Upper sum") == "Summe oben"
    assert ngettext("{n} throw left", "{n} throws left", 1) == "noch {n} Wurf"
    assert ngettext("{n} throw left", "{n} throws left", 2) == "noch {n} Würfe"
    assert "Schmidt" in rules_description(rules)
    assert rules_description(rules) != rules.description


def test_spanish_names_from_seed_000() -> None:
    set_language("es")
    rules = get("yahtzee")
    names = [box_name(rules, i) for i in range(len(rules.categories))]
    assert names[6:] == ["Trío", "Cuarteto", "Full", "Escalera pequeña", "Escalera grande", "Yahtzee", "Oportunidad"]


def test_italian_names_from_seed_002() -> None:
    set_language("it")
    rules = get("yahtzee")
    names = [box_name(rules, i) for i in range(len(rules.categories))]
    assert names[0] == "Dadi con 1"
    assert names[6:] == [
        "Tre dadi uguali",
        "Quattro dadi uguali",
        "Full",
        "Scala con 4",
        "Scala con 5",
        "Yahtzee",
        "Chance",
    ]


def test_five_alike_box_is_named_after_the_game() -> None:
    assert box_name(get("yatzy"), "yahtzee") == "Yatzy"
    assert box_name(get("yacht"), "yahtzee") == "Yacht"
    assert box_name(get("yahtzee"), "yahtzee") == "Yahtzee"
    assert box_name(get("kniffel-classic+sharp"), "yahtzee") == "Kniffel"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_box_and_rule_set_has_a_name(lang: str) -> None:
    set_language(lang)
    for base in BASES.values():
        assert rules_description(base.rules)
        for cat in base.rules.categories:
            name = box_name(base.rules, cat.id)
            assert name and "_" not in name


def test_language_selection(monkeypatch: pytest.MonkeyPatch) -> None:
    assert normalize_language("de_DE.UTF-8") == "de"
    assert normalize_language("pt_BR") is None
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    assert detect_language() == "it"
    monkeypatch.setenv("LANGUAGE", "es:de")
    assert detect_language() == "es"
    assert set_language(None) == "es" and get_language() == "es"
    with pytest.raises(ValueError, match="not available"):
        set_language("klingon")
    assert get_language() == "es"


def test_msgfmt_handles_context_plural_and_fuzzy() -> None:
    po = """msgid ""
msgstr "Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgctxt "box"
msgid "ones"
msgstr "Einser"

msgid "{n} die"
msgid_plural "{n} dice"
msgstr[0] "{n} Würfel"
msgstr[1] "{n} Würfel!"

#, fuzzy
msgid "old"
msgstr "alt"

msgid "multi"
"line"
msgstr "mehr"
"zeilig"
"""
    t = gettext.GNUTranslations(io.BytesIO(compile_po(po)))
    assert t.pgettext("box", "ones") == "Einser"
    assert t.ngettext("{n} die", "{n} dice", 2) == "{n} Würfel!"
    assert t.gettext("old") == "old"
    assert t.gettext("multiline") == "mehrzeilig"
    with pytest.raises(ValueError):
        parse_po('msgid "x"\nbogus "y"\n')


def test_package_data_includes_catalogues() -> None:
    """The wheel ships ``src/pasch`` whole (hatch), .mo files included; nothing ignores them."""
    ignore = (Path(__file__).resolve().parents[2] / ".gitignore").read_text(encoding="utf-8")
    assert not re.search(r"^\*?\.mo$|^\*\.mo$", ignore, flags=re.MULTILINE)
    assert all((LOCALE_DIR / lang / "LC_MESSAGES" / "pasch.mo").is_file() for lang in LANGUAGES)
