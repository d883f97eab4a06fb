"""Playwright: your turn while the tab is in the background (issue 27, item 4).

Headless Chromium keeps every page visible, so the test hides the page the way a browser does for a tab in
the background: ``document.hidden`` and ``visibilityState`` turn to hidden and a ``visibilitychange`` event
fires. Then the page's title and icon say it is your turn; shown again, they are the room's plain ones; with
"title and icon" switched off (remembered on the device) a hidden page's title says nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from ._support import Server
from .test_browser import browser, wait_until  # noqa: F401 (browser: the fixture)
from .test_browser_table import create, my_turn, new_page, quick_move

pytestmark = pytest.mark.slow

HIDE = """hidden => {
    Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
    Object.defineProperty(document, "visibilityState", {configurable: true, get: () => hidden ? "hidden" : "visible"});
    document.dispatchEvent(new Event("visibilitychange"));
}"""


def _title(page: Any) -> str:
    return str(page.evaluate("() => document.title"))


def _icon(page: Any) -> str:
    return str(page.evaluate("() => document.querySelector('link[rel=icon]').getAttribute('href')"))


def _hand_over(page: Any) -> None:
    """Play this page's turn to its end: one throw, then the first box offered.

    Exactly two moves, not "until it is no longer my turn": the bot answers at once, so the page may apply the
    bot's whole turn and find it is Ada's turn again before a poll ever sees "not my turn"."""
    assert my_turn(page)
    quick_move(page)  # the throw
    quick_move(page)  # the box


def test_a_hidden_tab_says_your_turn_in_its_title_and_icon(browser: Any, server: Server) -> None:  # noqa: F811
    page, errors = new_page(browser, "desktop")
    code = create(page, server, "kniffel", [("Ada", "human", True), ("Robo", "bot:greedy", False)])
    plain = f"pasch · {code}"
    assert my_turn(page)
    assert _title(page) == plain  # a visible page: nothing to signal
    _hand_over(page)
    page.evaluate(HIDE, True)  # Ada looks at another tab while Robo plays
    assert my_turn(page)
    wait_until(lambda: _title(page).startswith("● Your turn"))
    assert _title(page).endswith(plain) and _icon(page).endswith("favicon-turn.svg")
    page.evaluate(HIDE, False)  # back on the tab
    wait_until(lambda: _title(page) == plain)
    assert _icon(page).endswith("/favicon.svg")
    # Switched off: a hidden page's title stays plain, on the next turn too.
    page.click("#signals > summary")
    page.set_checked("#signal-title", False)
    _hand_over(page)
    page.evaluate(HIDE, True)
    assert my_turn(page)
    page.evaluate(HIDE, True)  # another visibilitychange: the page draws its status again
    assert _title(page) == plain and _icon(page).endswith("/favicon.svg")
    assert page.evaluate("() => JSON.parse(localStorage.getItem('pasch:signals')).title") is False
    assert not errors, errors
