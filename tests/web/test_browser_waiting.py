"""Playwright: the table around the game (issue 27, item 4) with the server's frames (docs/protocol.md, "The
table's manners"): the waiting room until the friend is seated, the host's "Start now", the invite's copy
button, the chat drawn as plain text, and the turn clock handing an idle seat to a stand-in bot until
"I'm back".
"""

from __future__ import annotations

from typing import Any

import pytest

from ._support import Server
from .test_browser import browser, seq, wait_seq, wait_until  # noqa: F401 (browser: the fixture)
from .test_browser_table import create, my_turn, new_page, shot
from .test_browser_tour import axe_violations

pytestmark = pytest.mark.slow


def test_waiting_room_share_and_chat(browser: Any, server: Server) -> None:  # noqa: F811
    ada, errors = new_page(browser, "phone", permissions=["clipboard-read", "clipboard-write"])
    ada.goto(server.http + "/")
    ada.wait_for_selector("#rules option[value='kniffel']", state="attached")
    ada.click("#quick-friends")
    ada.wait_for_url("**/r/*")
    ada.wait_for_selector("#table-panel:not([hidden])")
    assert "seat is free" in ada.inner_text("#table-missing")
    assert ada.locator("#throw").is_disabled()  # no throw before the friend's dice are in
    assert ada.locator("#table-start").is_visible()  # the host may start without them
    ada.click("#share-button")
    wait_until(lambda: ada.inner_text("#share-done") != "")
    shot(ada, "waiting-room-phone")
    assert not axe_violations(ada)
    ada.set_viewport_size({"width": 1280, "height": 800})
    shot(ada, "waiting-room-desktop")
    bob, berr = new_page(browser, "desktop")
    bob.goto(ada.url)
    bob.wait_for_selector("#take-seat")
    bob.fill("#join-name", "Bob")
    bob.click("#take-seat")
    # Bob is seated and his page mixed its dice in: the table is complete, the game starts by itself.
    ada.wait_for_selector("#table-panel", state="hidden")
    assert my_turn(ada)
    wait_until(lambda: ada.locator("#throw").is_enabled())
    # The chat is plain text: markup arrives as the characters typed.
    bob.click("#chat-box > summary")
    bob.fill("#chat-text", "hello <b>Ada</b>")
    bob.press("#chat-text", "Enter")
    ada.click("#chat-box > summary")
    wait_until(lambda: "hello <b>Ada</b>" in ada.inner_text("#chat-lines"))
    assert ada.locator("#chat-lines li b").count() == 1  # only the speaker's name is bold
    before = seq(ada)
    ada.click("#throw")
    wait_seq(ada, before)
    assert not errors and not berr, (errors, berr)


def test_the_host_starts_without_the_missing_seat(browser: Any, server: Server) -> None:  # noqa: F811
    page, errors = new_page(browser, "desktop")
    page.goto(server.http + "/")
    page.wait_for_selector("#rules option[value='kniffel']", state="attached")
    page.click("#quick-friends")
    page.wait_for_url("**/r/*")
    page.wait_for_selector("#table-start:not([hidden])")
    page.click("#table-start")
    page.wait_for_selector("#table-panel", state="hidden")
    wait_until(lambda: page.locator("#throw").is_enabled())
    before = seq(page)
    page.click("#throw")
    wait_seq(page, before)
    assert not errors, errors


def test_the_turn_clock_hands_an_idle_seat_to_a_bot_until_back(browser: Any, server: Server) -> None:  # noqa: F811
    page, errors = new_page(browser, "desktop")
    create(page, server, "kniffel", [("Ada", "human", True), ("Robo", "bot:greedy", False)])
    code = page.url.rsplit("/", 1)[1]
    # A second room with the clock on, made through the form's options.
    page.goto(server.http + "/")
    page.wait_for_selector("#rules option[value='kniffel']", state="attached")
    page.click("#more-options > summary")
    page.locator("#seats .seat-kind").nth(1).select_option("bot:greedy")
    page.select_option("#clock-seconds", "30")
    page.click("#create")
    page.wait_for_url("**/r/*")
    assert not page.url.endswith(code)
    assert my_turn(page)
    before = seq(page)
    page.click("#throw")  # turns are timed from the game's first event on
    wait_seq(page, before)
    page.wait_for_selector("#clock:not([hidden])")
    assert "s left" in page.inner_text("#clock")
    # Ada does nothing: after 30 s the stand-in bot plays for her, and says so.
    page.wait_for_selector("#away:not([hidden])", timeout=90_000)
    assert "plays for" in page.inner_text("#away")
    shot(page, "turn-clock-away-desktop")
    page.click("#back")
    page.wait_for_selector("#away", state="hidden", timeout=30_000)
    assert not errors, errors


def seat_friend(browser: Any, link: str, name: str) -> tuple[Any, list[str]]:  # noqa: F811
    page, errors = new_page(browser, "desktop")
    page.goto(link)
    page.wait_for_selector("#take-seat")
    page.fill("#join-name", name)
    page.click("#take-seat")
    wait_until(lambda: page.get_attribute("body", "data-seats") not in (None, ""))
    return page, errors


def test_the_host_hands_an_absent_seat_to_the_bot_after_a_vote(browser: Any, server: Server) -> None:  # noqa: F811
    ada, errors = new_page(browser, "desktop")
    create(ada, server, "kniffel", [("Ada", "human", True), ("", "human", False), ("", "human", False)])
    bob, berr = seat_friend(browser, ada.url, "Bob")
    cid, cerr = seat_friend(browser, ada.url, "Cid")
    bob.context.close()  # Bob walks away
    # Ada, the host, may let the bot play for Bob; Cid, also at the table, is asked.
    ada.wait_for_selector("#hand .hand-seat[data-seat='1']")
    assert "Bob" in ada.inner_text("#hand")
    ada.click("#hand .hand-seat[data-seat='1']")
    cid.wait_for_selector("#vote:not([hidden]) #vote-yes:not([hidden])")
    assert "Bob" in cid.inner_text("#vote-text")
    shot(cid, "vote-desktop")
    assert not axe_violations(cid)
    cid.click("#vote-yes")
    ada.wait_for_selector("#away:not([hidden])")
    assert "plays for Bob" in ada.inner_text("#away")
    wait_until(lambda: "now plays for Bob" in cid.inner_text("#vote-text"))
    assert not errors and not berr and not cerr, (errors, berr, cerr)
