"""P(win) in the web's hints (issue #14): only on a server started with ``--win-hints``, only in single-column
games of several players; the win tables come through the table queue (``win: "preparing"`` meanwhile), and
each option's ``p_win`` is the application layer's."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from pasch.app import advise
from pasch.engine import GameState, Roll, Throw, new_game

from ._support import Client, Server
from .test_browser import OUT, browser, seq, wait_seq, wait_until  # noqa: F401 (browser: the fixture)
from .test_browser_table import my_turn, new_page

SHOTS = OUT / "ui14"

RULES = "yahtzee+forced"  # full size, but its tables build in milliseconds


def _after_first_throw(dice: list[int]) -> GameState:
    """The position after the first player's first throw, rebuilt for the application layer."""
    state = new_game(RULES, ["Ada", "Bob"]).apply(Roll()).apply(Throw(tuple(dice)))
    assert isinstance(state, GameState)
    return state


def _ask(client: Client) -> dict[str, Any]:
    """A hint, asked again while the exact table is being prepared (as the page does)."""
    for _ in range(120):
        client.send({"type": "hint"})
        hint = client.recv_type("hint", "error", timeout=120)
        if hint.get("status") != "preparing":
            return hint
        time.sleep(0.5)
    raise AssertionError("the hint's exact table was never ready")


def _roll(client: Client) -> None:
    ack = client.act("roll")
    assert ack["type"] == "ack", ack
    client.wait_seq(ack["seq"])


def win_server(tmp_path: Path, servers: list[Server]) -> Server:
    s = Server(f"sqlite:///{tmp_path / 'win.sqlite3'}", tmp_path, args=("--win-hints",)).start()
    servers.append(s)
    return s


def test_win_hints_prepare_then_give_every_options_p_win(tmp_path: Path, servers: list[Server]) -> None:
    server = win_server(tmp_path, servers)
    created = server.create([{"name": "Ada"}, {"name": "Bob"}], rules=RULES, hints=True)
    ada = Client(server, created["code"], created["token"])
    before = _ask(ada)  # no dice yet: nothing to win or lose by
    assert before["status"] == "ready" and before["win"] is None
    _roll(ada)
    first = _ask(ada)
    assert first["status"] == "ready" and first["exact"] is True
    assert first["win"] == "preparing"  # a fresh server opens no win table before it is asked for one
    assert all(o["p_win"] is None for o in first["options"])
    assert all(o["value"] is not None for o in first["options"])  # the expected totals do not wait
    deadline = time.monotonic() + 120
    hint = first
    while hint["win"] != "ready":
        assert time.monotonic() < deadline, "the win tables were never ready"
        time.sleep(0.5)
        hint = _ask(ada)
    probs = {o["action"]: o["p_win"] for o in hint["options"]}
    assert all(p is not None and 0.0 <= p <= 1.0 for p in probs.values())
    assert len({round(p, 6) for p in probs.values()}) > 1  # the options differ
    advice = advise(_after_first_throw(ada.state["dice"]), win=True)
    assert set(probs) == {str(o.action) for o in advice.options}
    for o in advice.options:
        assert probs[str(o.action)] == pytest.approx(o.p_win, abs=1e-9)


def test_no_p_win_without_the_option_or_alone(tmp_path: Path, servers: list[Server], server: Server) -> None:
    created = server.create([{"name": "Ada"}, {"name": "Bob"}], rules=RULES, hints=True)
    ada = Client(server, created["code"], created["token"])
    _roll(ada)
    hint = _ask(ada)
    assert hint["status"] == "ready" and hint["win"] is None
    assert all(o["p_win"] is None for o in hint["options"])
    win = win_server(tmp_path, servers)
    solo = win.create([{"name": "Ada"}], rules=RULES, hints=True)
    ada = Client(win, solo["code"], solo["token"])
    _roll(ada)
    hint = _ask(ada)
    assert hint["status"] == "ready" and hint["win"] is None
    multi = win.create([{"name": "Ada"}, {"name": "Bob"}], rules="kniffel-3", hints=True)
    ada = Client(win, multi["code"], multi["token"])
    _roll(ada)
    hint = _ask(ada)
    assert hint["exact"] is False and hint["win"] is None


def _play_turn(client: Client) -> None:
    """Play the client's whole turn by its hints."""
    me = client.seat
    _roll(client)
    while client.state.get("current") == me and not client.state.get("terminal"):
        hint = _ask(client)
        ack = client.act(hint["suggest"])
        assert ack["type"] == "ack", (hint, ack)
        client.wait_seq(ack["seq"])


@pytest.mark.slow
def test_browser_shows_the_p_win_column(browser: Any, tmp_path: Path, servers: list[Server]) -> None:  # noqa: F811
    server = win_server(tmp_path, servers)
    created = server.create([{"name": "Ada"}, {"name": "Bob"}], rules=RULES, hints=True)
    page, errors = new_page(browser)
    page.goto(created["link"] if created["link"].startswith("http") else server.http + created["link"])
    page.wait_for_selector("#take-seat")
    page.fill("#join-name", "Bob")
    page.click("#take-seat")
    page.wait_for_selector("#seat-panel", state="hidden")
    ada = Client(server, created["code"], created["token"])
    _play_turn(ada)  # Ada (the creator's seat) moves first
    assert my_turn(page)
    before = seq(page)
    page.click("#throw")
    wait_seq(page, before)
    page.click("#hint")
    page.wait_for_selector("#hint-out table.hints th:nth-child(3)", timeout=60_000)
    heads = page.locator("#hint-out table.hints thead th").all_inner_texts()
    assert heads[-1] == "P(win)"
    cells = page.locator("#hint-out table.hints td.p-win")
    wait_until(lambda: cells.count() > 0 and cells.first.get_attribute("data-p-win") != "", timeout=60)
    assert "P(win): your chance" in page.inner_text("#hint-out")
    values = [float(cells.nth(i).get_attribute("data-p-win") or "nan") for i in range(cells.count())]
    assert all(0.0 <= v <= 1.0 for v in values)
    for i, v in enumerate(values):
        assert cells.nth(i).inner_text() == f"{100 * v:.1f}\u00a0%"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "p-win-1280.png"), full_page=True, animations="disabled")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(SHOTS / "p-win-390.png"), full_page=True, animations="disabled")
    page.set_viewport_size({"width": 390, "height": 844})
    box = page.locator("#hint-out table.hints").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390 + 1  # the column fits a phone
    assert not errors, errors
