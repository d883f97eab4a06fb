"""Playwright: the end card on a fresh server (issue 27, item 10). The ranking is drawn from the final state as
soon as the last move lands, before the summary with the review comes back, for the player and for a
spectator (who reads "the players' play", not "your play"); then the review replaces the wait. Nothing is
cached: a new database and a new solver-table directory, and a rule set whose table the package does not
ship, so the review has to build it. Under the server's real Content-Security-Policy, with axe-core.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from ._support import Server
from .test_browser import browser, wait_until  # noqa: F401 (browser: the fixture)
from .test_browser_table import api, play_out, shot
from .test_browser_tour import axe_violations, new_page

pytestmark = pytest.mark.slow

RULES = "kniffel+forced"  # no shipped table: the first review builds it


def open_seat(page: Any, server: Server, rules: str, seats: list[dict[str, str]], **opts: Any) -> str:
    """A room made through the API (the form offers no modifiers) with the first seat held by this page, as
    the page keeps it ({seat: token} in localStorage); returns the room code."""
    made = server.create(seats, rules=rules, **opts)
    page.goto(server.http + "/")
    page.evaluate(
        "([c, t]) => localStorage.setItem('pasch:seats:' + c, JSON.stringify({0: t}))", [made["code"], made["token"]]
    )
    page.goto(server.http + "/r/" + made["code"])
    page.wait_for_selector("body[data-seq]", state="attached")
    return str(made["code"])


def test_the_ranking_comes_before_the_review_on_a_fresh_server(
    browser: Any,  # noqa: F811
    tmp_path: Path,
    servers: list[Server],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tables = tmp_path / "fresh-tables"
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tables))  # the server inherits it: nothing cached
    server = Server(f"sqlite:///{tmp_path / 'fresh.sqlite3'}", tmp_path).start()
    servers.append(server)
    player, errors = new_page(browser)
    player.set_viewport_size({"width": 390, "height": 844})
    code = open_seat(player, server, RULES, [{"name": "Ada"}, {"name": "Robo", "kind": "bot:greedy"}])
    spectator, serrors = new_page(browser)
    spectator.goto(server.http + "/r/" + code)
    spectator.wait_for_selector("table.sheet")
    # Every /summary (ranking history and review) is held until the test lets it through, so what the page
    # shows before it arrives is seen for sure; the requests made are recorded in order.
    held: list[tuple[str, Any]] = []

    def hold(who: str) -> Any:
        return lambda route: held.append((who, route))  # (one parameter: Playwright passes the route alone)

    for who, page in (("player", player), ("spectator", spectator)):
        page.route("**/api/rooms/*/summary", hold(who))
    play_out([player])
    last_move = time.monotonic()
    for who, page in (("player", player), ("spectator", spectator)):
        page.wait_for_selector("body[data-terminal='1']", state="attached", timeout=30_000)
        page.wait_for_selector("#over:not([hidden]) table.standings[data-provisional='1']", timeout=30_000)
        if who == "player":
            print(f"ranking drawn {time.monotonic() - last_move:.2f} s after the last move (fresh server)")
        # The ranking is there while the review is not: first by total, each total the server's.
        totals = api(server, f"/api/rooms/{code}")["state"]["totals"]
        rows = page.locator("table.standings tbody tr")
        names = [rows.nth(i).locator("td").nth(1).inner_text() for i in range(rows.count())]
        shown = [int(rows.nth(i).locator("td.col-total").inner_text()) for i in range(rows.count())]
        assert shown == sorted(totals, reverse=True) and sorted(names) == ["Ada", "Robo"], (names, shown)
        assert page.locator(".vs-optimal").count() == 0 and page.locator("#review-toggle").is_hidden()
        waiting = page.inner_text("#review-summary")
        if who == "player":
            assert waiting == "Reviewing your play against the optimal strategy…", waiting
        else:
            assert waiting == "Reviewing the players' play against the optimal strategy…", waiting
            assert "your play" not in page.inner_text("body").lower()
    shot(player, "end-provisional-phone")
    assert not axe_violations(player) and not axe_violations(spectator)
    # Each page has asked for its summary (the route handlers run while Playwright is called: wait in it).
    wait_until(lambda: player.wait_for_timeout(20) or {w for w, _ in held} == {"player", "spectator"})
    for _, route in held:
        route.continue_()
    for page in (player, spectator):
        page.wait_for_selector(".vs-optimal", timeout=300_000)  # the review, after the ranking
        page.wait_for_selector("table.standings[data-provisional='0']")
    assert "Ada vs optimal play" in player.inner_text("#review-summary")
    assert spectator.locator(".vs-optimal").count() == 2  # a spectator sees both players' lines
    assert spectator.inner_text("#review-toggle") == "Review the moves"
    assert player.inner_text("#review-toggle") == "Review my moves"
    assert list(tables.glob("kniffel_forced*.npy")), "the review built its table in the fresh directory"
    shot(spectator, "end-spectator-phone")
    assert not axe_violations(spectator)
    assert not errors and not serrors, (errors, serrors)
