"""Playwright (issue 25, *Must show*): a seat claimed with a name already at the table is refused as
``name_taken`` in the page's language and changes nothing — the friend with the creator's name on another
page, and the creator's own "Add a player here" with their name; the seat stays free and the room plays on."""

from __future__ import annotations

from typing import Any

import pytest

from ._support import Server
from .test_browser import browser, seq, wait_seq, wait_until  # noqa: F401 (browser: the fixture)
from .test_browser_table import api, create, my_turn, new_page

pytestmark = pytest.mark.slow


def _free(server: Server, code: str) -> bool:
    seats = api(server, f"/api/rooms/{code}")["room"]["seats"]
    return [s["claimed"] for s in seats] == [True, False] and seats[0]["name"] == "Ada"


def test_a_taken_name_is_refused_in_the_users_language_and_changes_nothing(
    browser: Any,  # noqa: F811
    server: Server,
) -> None:
    host, errors = new_page(browser, "phone")
    code = create(host, server, "kniffel", [("Ada", "human", True), ("", "human", False)])
    named = api(server, f"/api/rooms/{code}")["room"]["seats"][1]["name"]
    # A friend who is also called Ada opens the invite, in German.
    friend, ferr = new_page(browser, "phone", locale="de-DE")
    friend.goto(server.http + "/r/" + code)
    friend.wait_for_selector("#take-seat")
    friend.select_option("#lang", "de")
    wait_until(lambda: friend.get_attribute("html", "lang") == "de")
    friend.fill("#join-name", "Ada")
    friend.click("#take-seat")
    wait_until(lambda: "Dieser Name sitzt schon am Tisch" in friend.inner_text("#error"))
    assert "already" not in friend.inner_text("#error")
    assert not friend.get_attribute("body", "data-seats") and _free(server, code)
    # The creator's "Add a player here", with their own name in the field.
    host.fill("#join-name", "Ada")
    assert host.inner_text("#take-seat") == "Add a player here"
    host.click("#take-seat")
    wait_until(lambda: "That name is already at the table" in host.inner_text("#error"))
    assert host.get_attribute("body", "data-seats") == "0" and _free(server, code)
    assert api(server, f"/api/rooms/{code}")["room"]["seats"][1]["name"] == named
    # Nothing is broken: the friend sits down under another name and the game goes on.
    friend.fill("#join-name", "Adele")
    friend.click("#take-seat")
    wait_until(lambda: friend.get_attribute("body", "data-seats") == "1")
    assert my_turn(host)
    before = seq(host)
    host.click("#throw")
    wait_seq(host, before)
    wait_until(lambda: seq(friend) >= seq(host))
    assert [s["name"] for s in api(server, f"/api/rooms/{code}")["room"]["seats"]] == ["Ada", "Adele"]
    assert not errors and not ferr, (errors, ferr)
