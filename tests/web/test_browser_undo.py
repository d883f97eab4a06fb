"""Playwright: the score keeper takes a mistyped entry back ("Undo last entry", docs/protocol.md *Undo*), and a
second page sees the board go back; under the server's real Content-Security-Policy."""

from __future__ import annotations

from typing import Any

import pytest

from ._support import Server
from .test_browser import browser, seq, wait_seq, wait_until  # noqa: F401 (browser: the fixture)
from .test_browser_table import create, my_turn, new_page, shot

pytestmark = pytest.mark.slow


def test_the_keeper_takes_the_last_entry_back(browser: Any, server: Server) -> None:  # noqa: F811
    keeper, errors = new_page(browser, "phone")
    code = create(keeper, server, "kniffel", [("Ann", "human", True), ("Ben", "human", True)], keeper=True)
    watcher, werr = new_page(browser, "phone")
    watcher.goto(server.http + "/r/" + code)
    watcher.wait_for_selector("table.sheet")
    assert my_turn(keeper)
    assert keeper.locator("#undo").is_hidden()  # nothing entered yet
    before = seq(keeper)
    keeper.fill("#enter-dice", "1 1 2 3 4")
    keeper.click("#enter")
    wait_seq(keeper, before)
    before = seq(keeper)
    keeper.click("#sheet-wrap .opt[data-action='score chance']")  # meant: Ones
    wait_seq(keeper, before)
    wait_until(lambda: seq(watcher) == 2)
    assert "Ben" in keeper.inner_text("#status")
    keeper.select_option("#lang", "de")
    wait_until(lambda: keeper.inner_text("#undo") == "Letzten Eintrag zurücknehmen")
    keeper.select_option("#lang", "en")
    wait_until(lambda: keeper.inner_text("#undo") == "Undo last entry")
    keeper.click("#undo")
    wait_until(lambda: seq(keeper) == 0 and seq(watcher) == 0)
    wait_until(lambda: "Ann's entry was taken back." in watcher.inner_text("#error"))
    # The line is kept as a key with its name, not as words: a language switch draws it again (issue 27 item 8).
    for lang, line in (
        ("de", "Der Eintrag von Ann wurde zurückgenommen."),
        ("it", "La registrazione di Ann è stata annullata."),
    ):
        watcher.select_option("#lang", lang)
        wait_until(lambda line=line: watcher.inner_text("#error") == line)
    watcher.select_option("#lang", "en")
    wait_until(lambda: watcher.inner_text("#error") == "Ann's entry was taken back.")
    assert "chance" not in keeper.inner_text("#moves").lower()
    assert "Ann" in keeper.inner_text("#status")
    assert keeper.locator("#undo").is_hidden()  # the entry before stays: one undo per entry
    keeper.reload()  # the room says so too (room.undo_floor)
    keeper.wait_for_selector("table.sheet")
    wait_until(lambda: keeper.locator("#enter-form").is_visible())
    assert keeper.locator("#undo").is_hidden()
    # Entered again, right this time.
    keeper.fill("#enter-dice", "1 1 2 3 4")
    keeper.click("#enter")
    wait_seq(keeper, 0)
    before = seq(keeper)
    keeper.click("#sheet-wrap .opt[data-action='score ones']")
    wait_seq(keeper, before)
    wait_until(lambda: seq(watcher) == 2)
    assert "Ones" in watcher.inner_text("#moves")
    shot(keeper, "keeper-undo-phone")
    assert not errors and not werr, (errors, werr)
