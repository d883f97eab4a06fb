"""Playwright: the home page in two taps (issue 27, item 5) and the score keeper at a real table (item 6).

"Play a bot", "Play with friends" and "Keep score at the table" come first, the full form is folded under
"More options"; an error shows under the button just pressed and names its cause.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ._support import NO_LIMITS, Server
from .test_browser import browser, seq, wait_seq, wait_until  # noqa: F401 (browser: the fixture)
from .test_browser_table import my_turn, new_page, shot

pytestmark = pytest.mark.slow


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def test_play_a_bot_is_two_taps_and_the_form_is_folded(browser: Any, server: Server) -> None:  # noqa: F811
    page, errors = new_page(browser, "phone")
    page.goto(server.http + "/")
    page.wait_for_selector("#rules option[value='kniffel']", state="attached")
    assert page.locator("#seats").is_hidden()  # the full form waits under "More options"
    assert in_view(page, "#quick-bot") and in_view(page, "#quick-friends") and in_view(page, "#quick-keeper")
    shot(page, "home-phone")
    page.click("#quick-bot")  # tap 1
    page.wait_for_url("**/r/*")
    assert my_turn(page)
    before = seq(page)
    page.click("#throw")  # tap 2
    wait_seq(page, before)
    assert (
        page.locator("#dice .die.face-1, #dice .die.face-2, #dice .die.face-3").count()
        + page.locator("#dice .die.face-4, #dice .die.face-5, #dice .die.face-6").count()
        == 5
    )
    assert not page.locator("#hint-panel").is_hidden()  # against a bot, hints are on
    assert not errors, errors


def test_friends_and_keeper_choices(browser: Any, server: Server) -> None:  # noqa: F811
    page, errors = new_page(browser, "desktop")
    page.goto(server.http + "/")
    page.wait_for_selector("#rules option[value='kniffel']", state="attached")
    page.click("#quick-friends")
    page.wait_for_url("**/r/*")
    assert my_turn(page)
    assert page.locator("#share").is_visible()  # a free seat for the friend, and the link to send
    page.goto(server.http + "/")
    page.wait_for_selector("#rules option[value='kniffel']", state="attached")
    page.click("#quick-keeper")
    page.wait_for_url("**/r/*")
    assert my_turn(page)
    assert page.get_attribute("body", "data-seats") == "0,1"
    # The keeper taps the faces that fell; the field gets the focus back for the next player's entry.
    for v in (1, 3, 3, 5, 6):
        page.click(f"#enter-pad .face-{v}")
    assert page.input_value("#enter-dice") == "1 3 3 5 6"
    page.click("#enter-pad .pad-back")
    page.click("#enter-pad .face-5")
    assert page.input_value("#enter-dice") == "1 3 3 5 5"
    before = seq(page)
    page.click("#enter")
    wait_seq(page, before)
    before = seq(page)
    page.locator("#sheet-wrap .opt").last.click()
    wait_seq(page, before)
    page.wait_for_selector("#enter-dice:focus")
    page.keyboard.type("22244")
    page.keyboard.press("Enter")
    wait_seq(page, before + 1)
    assert "2 2 2 4 4" in page.inner_text("#moves")
    assert not errors, errors


def test_the_room_limit_is_said_where_the_user_looks(browser: Any, tmp_path: Path, servers: list[Server]) -> None:  # noqa: F811
    flags = list(NO_LIMITS)
    flags[flags.index("--open-rooms") + 1] = "1"  # one unfinished room per address
    extra = tuple(flags)
    server = Server(f"sqlite:///{tmp_path / 'limit.sqlite3'}", tmp_path, extra=extra).start()
    servers.append(server)
    page, errors = new_page(browser, "phone")
    page.goto(server.http + "/")
    page.wait_for_selector("#rules option[value='kniffel']", state="attached")
    page.click("#quick-bot")
    page.wait_for_url("**/r/*")
    page.goto(server.http + "/")
    page.wait_for_selector("#rules option[value='kniffel']", state="attached")
    page.click("#quick-bot")
    wait_until(lambda: "unfinished rooms" in page.inner_text("#home-error"))
    assert in_view(page, "#home-error")
    assert "clicks" not in page.inner_text("#home-error")
    shot(page, "home-room-limit-phone")
    assert not errors, errors
