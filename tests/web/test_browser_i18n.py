"""Playwright: every language of the page mid-game, with a screenshot each and no English leftovers
(issue 27, item 8): plurals by the language's rule, numbers in its own form, rule-set names, and an error
shown before a language switch drawn again in the new language.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from ._support import Server
from .test_browser import browser, seq, wait_seq, wait_until  # noqa: F401 (browser: the fixture)
from .test_browser_end import open_seat
from .test_browser_table import create, my_turn, new_page, shot

pytestmark = pytest.mark.slow

# Words of the English page that once stayed English in the other languages, or would if a string were missed.
LEFTOVERS = (
    "throws left", "throw left", "Your turn", "Round", "Throw", "Hint", "Moves", "Invite", "Connected",
    "Copy link", "Expected final score", "vs best", "Suggestion", "four columns", "Announce", "Box",
    "Upper sum", "Dice commitment",  # ("Total" is Spanish too)
)  # fmt: skip


def test_each_language_mid_game_has_no_english_leftovers(browser: Any, server: Server) -> None:  # noqa: F811
    page, errors = new_page(browser, "phone")
    create(page, server, "kniffel-4", [("Ada", "human", True), ("Robo", "bot:greedy", False)], hints=True)
    assert my_turn(page)
    before = seq(page)
    page.click("#throw")
    wait_seq(page, before)
    page.click("#hint")
    page.wait_for_selector("#hint-out p.suggest", timeout=300_000)
    assert "2 throws left" in page.inner_text("#throws-left")
    for lang in ("de", "es", "it"):
        page.select_option("#lang", lang)
        wait_until(lambda lang=lang: page.get_attribute("html", "lang") == lang)
        shot(page, f"i18n-{lang}-phone")
        text = page.inner_text("body")
        left = [w for w in LEFTOVERS if re.search(rf"\b{re.escape(w)}\b", text)]
        assert not left, (lang, left)
    # Plurals: one throw left is singular in every language.
    page.select_option("#lang", "en")
    before = seq(page)
    page.click("#throw")
    wait_seq(page, before)
    assert page.inner_text("#throws-left") == "1 throw left"
    page.select_option("#lang", "de")
    assert page.inner_text("#throws-left") == "noch 1 Wurf"
    # Numbers: the exact hint's values (kniffel) with the language's decimal comma.
    create(page, server, "kniffel", [("Ada", "human", True)], hints=True)
    assert my_turn(page)
    before = seq(page)
    page.click("#throw")
    wait_seq(page, before)
    page.click("#hint")
    page.wait_for_selector("#hint-out td.num", timeout=300_000)
    assert re.fullmatch(r"\d+,\d", page.inner_text("#hint-out td.num >> nth=0")), page.inner_text("#hint-out")
    shot(page, "i18n-de-hint-phone")
    assert not errors, errors


def test_an_error_is_drawn_again_after_a_language_switch(browser: Any, server: Server) -> None:  # noqa: F811
    page, errors = new_page(browser, "desktop")
    create(page, server, "kniffel", [("Ann", "human", True), ("Ben", "human", True)], keeper=True)
    assert my_turn(page)
    page.fill("#enter-dice", "7 1 2 3 4")
    page.click("#enter")
    wait_until(lambda: "7 is not a die" in page.inner_text("#error"))
    english = page.inner_text("#error")
    page.select_option("#lang", "de")
    wait_until(lambda: page.inner_text("#error") != english)
    assert "7 is not a die" in page.inner_text("#error")  # the server's detail, after the German sentence
    assert not errors, errors


# A rule set with modifiers, named from its codes (base id + modifier ids) in each language (issue 27 item 8).
MODDED = {
    "en": "Yatzy + top to bottom + ×2 in one throw",
    "de": "Yatzy + von oben nach unten + ×2 in einem Wurf",
    "es": "Yatzy + de arriba abajo + ×2 en una tirada",
    "it": "Yatzy + dall'alto in basso + ×2 in un lancio",
}


def test_rule_set_names_with_modifiers_are_translated(browser: Any, server: Server) -> None:  # noqa: F811
    page, errors = new_page(browser, "desktop")
    code = open_seat(page, server, "yatzy+forced+sharp", [{"name": "Ada"}])
    page.wait_for_selector("table.sheet")
    for lang, name in MODDED.items():
        page.select_option("#lang", lang)
        wait_until(lambda name=name: page.inner_text("#room-label") == f"{code} · {name}")
        assert page.text_content("table.sheet caption") == name
    kniffel4 = open_seat(page, server, "kniffel-4+sharp", [{"name": "Ada"}])
    page.wait_for_selector("table.sheet")
    wait_until(lambda: page.inner_text("#room-label") == f"{kniffel4} · Kniffel, quattro colonne + ×2 in un lancio")
    assert "+sharp" not in page.inner_text("body") and "+forced" not in page.inner_text("body")
    assert not errors, errors
