"""Playwright at the table: one action per position, held dice in place, the roll animation, local seats,
private rooms and names, hints on the board, the end of the game, the move log, errors, rematch; with
screenshots at 390 px and 1280 px of every game kind, the end of a game and a rematch in ``out/web/``.

Every page runs under the server's real Content-Security-Policy, so conditions are polled through locators.
"""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

from ._support import Server
from .test_browser import OUT, browser, open_more_options, seq, wait_seq, wait_until  # noqa: F401 (browser: the fixture)

pytestmark = pytest.mark.slow

SHOTS = OUT / "web"
WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


def new_page(browser: Any, size: str = "desktop", **opts: Any) -> tuple[Any, list[str]]:  # noqa: F811
    """A page in a fresh context (its own localStorage) that records script errors and CSP violations."""
    page = browser.new_context(viewport=WIDTHS[size], **opts).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    return page, errors


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True, animations="disabled")


def create(
    page: Any,
    server: Server,
    rules: str,
    seats: list[tuple[str, str, bool]],
    *,
    hints: bool = False,
    keeper: bool = False,
    private: bool = False,
) -> str:
    """Create a room through the form: seats are (name, kind, here); returns the room code."""
    page.goto(server.http + "/")
    page.wait_for_selector(f"#rules option[value='{rules}']", state="attached")
    open_more_options(page)
    page.select_option("#rules", rules)
    while page.locator("#seats .seat").count() < len(seats):
        page.click("#add-seat")
    while page.locator("#seats .seat").count() > len(seats):
        page.locator("#seats .seat-remove").last.click()
    for i, (name, kind, here) in enumerate(seats):
        page.locator("#seats .seat-name").nth(i).fill(name)
        page.locator("#seats .seat-kind").nth(i).select_option(kind)
        page.locator("#seats .seat-here").nth(i).set_checked(here)
    page.set_checked("#hints", hints)
    page.set_checked("#keeper", keeper)
    page.set_checked("#private", private)
    page.click("#create")
    page.wait_for_url("**/r/*")
    page.wait_for_selector("body[data-seq]", state="attached")
    return str(page.url.rsplit("/", 1)[1])


def api(server: Server, path: str, timeout: float = 300) -> Any:
    with urllib.request.urlopen(server.http + path, timeout=timeout) as r:
        return json.loads(r.read())


def my_turn(page: Any, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.get_attribute("body", "data-terminal") == "1":
            return False
        if page.get_attribute("body", "data-myturn") == "1":
            return True
        time.sleep(0.03)
    raise AssertionError("it never became the page's turn")


def quick_move(page: Any) -> None:
    """Throw, or score the first box offered (a fast game, not a good one)."""
    before = seq(page)
    if page.locator("#throw").is_enabled() and page.locator("#dice .die.blank").count():
        page.click("#throw")
    else:
        page.locator("#sheet-wrap .opt").first.click()
    wait_seq(page, before)


def play_out(pages: list[Any], timeout: float = 240.0) -> None:
    """Play quick moves on whichever page is to move until the game is over."""
    deadline = time.monotonic() + timeout
    while pages[0].get_attribute("body", "data-terminal") != "1":
        assert time.monotonic() < deadline, "the game did not end"
        page = next((p for p in pages if p.get_attribute("body", "data-myturn") == "1"), None)
        if page is None:
            time.sleep(0.05)
            continue
        quick_move(page)


def dice(page: Any) -> list[tuple[str, bool]]:
    """The dice as drawn: (value, held) by place."""
    out = []
    d = page.locator("#dice .die")
    for i in range(d.count()):
        out.append((d.nth(i).get_attribute("data-value") or "", d.nth(i).get_attribute("aria-pressed") == "true"))
    return out


def test_double_click_and_key_repeat_spend_one_throw_and_held_dice_stay_in_place(browser: Any, server: Server) -> None:  # noqa: F811
    page, errors = new_page(browser, "phone")
    code = create(page, server, "kniffel", [("Ada", "human", True)])
    assert my_turn(page)
    page.dblclick("#throw")  # two clicks on one position
    wait_seq(page, 0)
    # That a second click sent nothing is checked at the end, once the page's next message has been answered.
    state = api(server, f"/api/rooms/{code}")["state"]
    assert state["throws"] == 1 and state["seq"] == 2, state
    # Hold dice 1 and 3, then hold "r" down (the second keydown is an auto-repeat): one throw, and the held
    # dice stay put.
    page.locator("#dice .die").nth(0).click()
    page.locator("#dice .die").nth(2).click()
    held = dice(page)
    before = seq(page)
    page.keyboard.down("r")
    page.keyboard.down("r")
    page.keyboard.up("r")
    wait_seq(page, before)  # the keep and its throw come in one update
    state = api(server, f"/api/rooms/{code}")["state"]
    assert state["throws"] == 2, state
    after = dice(page)
    assert after[0] == (held[0][0], True) and after[2] == (held[2][0], True), (held, after)
    assert not after[1][1] and not after[3][1] and not after[4][1]
    assert sorted(int(v) for v, _ in after) == state["dice"]
    # Only the re-thrown dice rolled.
    assert page.locator("#dice").get_attribute("data-rolled") == "1,3,4"
    # That nothing else was sent is waited for, not slept on: the page's next message (a box scored) travels on
    # the same connection behind anything a second click or the repeated key would have sent, and the server
    # answers in order. Once its update is here, the log holds every move: one throw per click, one per key.
    before = seq(page)
    page.locator("#sheet-wrap .opt").first.click()
    wait_seq(page, before)
    moves = [m["action"].split()[0] for m in api(server, f"/api/rooms/{code}/moves")]
    assert moves == ["roll", "throw", "keep", "throw", "score"], moves
    assert not errors, errors


def test_no_roll_animation_under_reduced_motion(browser: Any, server: Server) -> None:  # noqa: F811
    moving, _ = new_page(browser)
    still, errors = new_page(browser, reduced_motion="reduce")
    for page, name in ((moving, "moving"), (still, "still")):
        create(page, server, "kniffel", [(name, "human", True)])
        assert my_turn(page)
        page.click("#throw")
        wait_seq(page, 0)
    # The animated page marks the thrown dice for a moment; the other never does.
    assert moving.get_attribute("body", "data-motion") == "1"
    assert still.get_attribute("body", "data-motion") == "0"
    assert still.locator("#dice .die.rolling").count() == 0
    assert still.locator("#dice").get_attribute("data-rolled") == "0,1,2,3,4"
    assert not errors, errors


def test_local_seats_hot_seat_and_score_keeper_on_one_device(browser: Any, server: Server) -> None:  # noqa: F811
    for size in ("phone", "desktop"):
        page, errors = new_page(browser, size)
        create(page, server, "kniffel", [("Ada", "human", True), ("Bob", "human", True)], hints=True)
        assert page.get_attribute("body", "data-seats") == "0,1"
        for _ in range(2):  # Ada's turn, then Bob's, on the same page
            assert my_turn(page)
            who = page.inner_text("#status")
            page.click("#throw")
            wait_seq(page, seq(page) - 1)
            page.click("#hint")
            page.wait_for_selector("#hint-out table.hints")
            before = seq(page)
            page.click("#apply-hint")
            wait_seq(page, before)
            assert "Your turn" in who
        # Play on until it is Bob's turn: the same page now acts for him.
        deadline = time.monotonic() + 60
        while "Bob" not in page.inner_text("#status"):
            assert time.monotonic() < deadline and my_turn(page)
            quick_move(page)
        assert my_turn(page) and page.inner_text("#status").startswith("Your turn, Bob")
        quick_move(page)
        assert "Bob: throws" in page.inner_text("#moves")
        shot(page, f"hot-seat-{size}")
        # The score keeper: three players at the table, their real dice entered here.
        keeper, kerr = new_page(browser, size)
        create(
            keeper,
            server,
            "kniffel",
            [("Ann", "human", True), ("Ben", "human", True), ("Cid", "human", True)],
            keeper=True,
        )
        assert keeper.get_attribute("body", "data-seats") == "0,1,2"
        for dice_text in ("1 3 3 5 6", "2 2 2 4 4", "6 6 6 6 6"):
            assert my_turn(keeper)
            before = seq(keeper)
            keeper.fill("#enter-dice", dice_text)
            keeper.click("#enter")
            wait_seq(keeper, before)
            before = seq(keeper)
            keeper.locator("#sheet-wrap .opt").last.click()
            wait_seq(keeper, before)
        assert "Round 2" in keeper.inner_text("#status")
        # A mistyped die: the server's detail reaches the user, after the translated sentence.
        keeper.fill("#enter-dice", "7 1 2 3 4")
        keeper.click("#enter")
        wait_until(lambda k=keeper: "7 is not a die" in k.inner_text("#error"))
        assert keeper.inner_text("#error").startswith("That move is not understood.")
        shot(keeper, f"keeper-{size}")
        assert not errors and not kerr, (errors, kerr)


def test_private_room_joiner_name_and_lobby(browser: Any, server: Server) -> None:  # noqa: F811
    host, errors = new_page(browser, "phone")
    code = create(host, server, "yatzy", [("Eve", "human", True), ("", "human", False)], private=True)
    public = create(
        host, server, "kniffel", [("Ada", "human", True), ("Robo", "bot:greedy", False), ("", "human", False)]
    )
    guest, gerr = new_page(browser, "phone")
    guest.goto(server.http + "/")
    guest.wait_for_selector("#lobby li")
    lobby = guest.inner_text("#lobby")
    assert public in lobby and code not in lobby
    assert "Ada, Robo" in lobby and "1 free" in lobby and "just now" in lobby
    shot(guest, "lobby-phone")
    guest.goto(server.http + "/r/" + code)  # by the link
    guest.wait_for_selector("#take-seat")
    guest.fill("#join-name", "Bob the Builder")
    guest.click("#take-seat")
    wait_until(lambda: guest.get_attribute("body", "data-seats") == "1")
    wait_until(lambda: "Bob the Builder" in host.inner_text("#sheet-wrap") or host.url.endswith(public))
    host.goto(server.http + "/r/" + code)
    host.wait_for_selector("table.sheet")
    assert "Bob the Builder" in host.inner_text("table.sheet thead")
    assert "private" in host.inner_text("#room-label")
    assert not errors and not gerr, (errors, gerr)


def test_hints_on_the_board(browser: Any, server: Server) -> None:  # noqa: F811
    page, errors = new_page(browser)
    create(page, server, "kniffel", [("Ada", "human", True)], hints=True)
    saw_keep = saw_box = False
    deadline = time.monotonic() + 200
    while not (saw_keep and saw_box) and time.monotonic() < deadline and my_turn(page):
        if page.locator("#dice .die.blank").count():
            before = seq(page)
            page.click("#throw")
            wait_seq(page, before)
            continue
        page.click("#hint")
        page.wait_for_selector("#hint-out p.suggest", timeout=300_000)
        suggest = page.locator("#hint-out tr.best").first.get_attribute("data-action")
        rows = page.locator("#hint-out table.hints tbody tr")
        assert rows.count() <= 5
        if page.locator("#hint-more").count():  # the rest on request
            page.click("#hint-more")
            assert rows.count() > 5
            page.click("#hint-more")
            assert rows.count() == 5
        if suggest.startswith("keep"):
            kept = suggest.split()[1:]
            outlined = page.locator("#dice .die.advised")
            assert sorted(outlined.nth(i).get_attribute("data-value") for i in range(outlined.count())) == sorted(kept)
            if not saw_keep:
                shot(page, "hint-keep-desktop")
            saw_keep = True
        elif suggest.startswith("score"):
            best = page.locator("#sheet-wrap .opt.advised")
            assert best.count() == 1 and best.get_attribute("data-action") == suggest
            assert "★" in best.inner_text()
            if not saw_box:
                shot(page, "hint-box-desktop")
            saw_box = True
        before = seq(page)
        page.click("#apply-hint")
        wait_seq(page, before)
        if suggest.startswith("keep"):  # the hint's dice are held after the throw
            held = sorted(v for v, h in dice(page) if h)
            assert held == sorted(suggest.split()[1:]), (held, suggest)
    assert saw_keep and saw_box
    assert not errors, errors


def test_end_of_game_review_and_a_finished_game_stays_finished(browser: Any, server: Server) -> None:  # noqa: F811
    page, errors = new_page(browser, "phone")
    code = create(page, server, "kniffel", [("Ada", "human", True)])
    play_out([page])
    page.wait_for_selector("table.standings", timeout=300_000)
    status = page.inner_text("#status")
    assert "Winner" not in status and "Final score" in status
    row = page.locator("table.standings tbody tr").first
    cells = [int(x) for x in row.locator("td").all_inner_texts()[2:]]
    upper, bonus, lower, extra, total = cells
    assert upper + bonus + lower + extra == total == api(server, f"/api/rooms/{code}")["state"]["totals"][0]
    page.wait_for_selector(".vs-optimal")
    assert "points lost" in page.inner_text(".vs-optimal") and "luck" in page.inner_text(".vs-optimal")
    page.click("#review-toggle")
    assert page.locator("table.review tbody tr").count() >= 13
    assert page.get_attribute("#log-link", "download") == f"pasch-{code}.json"
    shot(page, "end-solo-phone")
    page.set_viewport_size(WIDTHS["desktop"])
    shot(page, "end-solo-desktop")
    # Finished stays finished: no dice, no throw, keys do nothing. The page marks each action as it sends it
    # (body[data-sent], in the key's own handler, which has run when press returns): nothing sent, nothing to
    # wait for.
    assert page.locator("#dice-area").is_hidden()
    before, sent = seq(page), page.get_attribute("body", "data-sent")
    page.keyboard.press("r")
    assert page.get_attribute("body", "data-sent") == sent
    assert seq(page) == before and page.get_attribute("body", "data-terminal") == "1"
    assert api(server, f"/api/rooms/{code}")["state"]["seq"] == before
    assert not errors, errors


def test_move_log_for_spectators_translated(browser: Any, server: Server) -> None:  # noqa: F811
    ada, errors = new_page(browser)
    code = create(ada, server, "kniffel", [("Ada", "human", True), ("Robo", "bot:greedy", False)])
    for _ in range(3):
        assert my_turn(ada)
        quick_move(ada)
    watcher, werr = new_page(browser, "phone")
    watcher.goto(server.http + "/r/" + code)
    watcher.wait_for_selector("#moves li")
    wait_until(lambda: watcher.locator("#moves li").count() >= 6)
    log = watcher.inner_text("#moves")
    assert "Ada: throws" in log and "Ada: threw " in log and "Ada: scores " in log and "Robo: " in log
    watcher.select_option("#lang", "de")
    assert "Ada: würfelte " in watcher.inner_text("#moves")
    shot(watcher, "spectator-log-phone")
    assert not errors and not werr, (errors, werr)


def test_rematch_keeps_every_seat(browser: Any, server: Server) -> None:  # noqa: F811
    ada, errors = new_page(browser, "desktop")
    code = create(ada, server, "yacht", [("Ada", "human", True), ("", "human", False)])
    bob, berr = new_page(browser, "phone")
    bob.goto(server.http + "/r/" + code)
    bob.wait_for_selector("#take-seat")
    bob.fill("#join-name", "Bob")
    bob.click("#take-seat")
    wait_until(lambda: bob.get_attribute("body", "data-seats") == "1")
    play_out([ada, bob])
    for page, size in ((ada, "desktop"), (bob, "phone")):
        page.wait_for_selector("table.standings", timeout=300_000)
        assert "Winner" in page.inner_text("#status") or "Tie" in page.inner_text("#status")
        shot(page, f"end-two-{size}")
    ada.click("#rematch")
    # Both pages land in the new room, each on its own seat (wait_for_url: page.url alone is not refreshed
    # while the test only sleeps).
    for page in (ada, bob):
        page.wait_for_url(lambda url: not url.endswith("/" + code), timeout=20_000)
        page.wait_for_selector("body[data-seq]", state="attached")
    assert ada.url == bob.url
    wait_until(
        lambda: ada.get_attribute("body", "data-seats") == "0" and bob.get_attribute("body", "data-seats") == "1"
    )
    new = ada.url.rsplit("/", 1)[1]
    room = api(server, f"/api/rooms/{new}")["room"]
    assert room["rematch_of"] == code and all(s["claimed"] for s in room["seats"])
    assert my_turn(ada)
    quick_move(ada)
    shot(ada, "rematch-desktop")
    shot(bob, "rematch-phone")
    assert not errors and not berr, (errors, berr)


@pytest.mark.parametrize(
    ("rules", "seats"),
    [
        ("kniffel", [("Ada", "human", True), ("Robo", "bot:greedy", False)]),
        ("yatzy", [("Ada", "human", True), ("Robo", "bot:greedy", False), ("Rita", "bot:random", False)]),
        ("jetsi", [("Ada", "human", True)]),
        ("kniffel-4", [("Ada", "human", True), ("Robo", "bot:greedy", False)]),
        ("knaster", [("Ada", "human", True), ("Robo", "bot:greedy", False), ("Rita", "bot:greedy", False)]),
    ],
)
def test_screenshots_of_every_game_kind(browser: Any, server: Server, rules: str, seats: list[Any]) -> None:  # noqa: F811
    for size in ("phone", "desktop"):
        page, errors = new_page(browser, size)
        create(page, server, rules, seats, hints=True)
        moves = 0
        while moves < 8 and my_turn(page):
            before = seq(page)
            if rules == "knaster":
                if page.locator("#throw").is_enabled():
                    page.click("#throw")
                elif page.locator(".kcell.write").count():
                    page.locator(".kcell.write").first.click()
                elif page.locator(".kcell.circle").count():
                    page.locator(".kcell.circle").first.click()
                else:
                    page.click("#pass")
            elif rules == "kniffel-4" and page.locator("#announce button").count():
                page.locator("#announce button").first.click()
            else:
                quick_move(page)
                moves += 1
                continue
            wait_seq(page, before)
            moves += 1
        assert my_turn(page)
        if rules != "knaster" and page.locator("#dice .die.blank").count():
            before = seq(page)
            page.click("#throw")
            wait_seq(page, before)
        page.click("#hint")
        page.wait_for_selector("#hint-out p.suggest", timeout=300_000)
        shot(page, f"{rules}-{size}")
        assert page.locator("#moves li").count() >= 4
        assert not errors, errors


@pytest.mark.parametrize("rules", ["yatzy", "knaster"])
def test_as_many_players_as_the_rules_allow_fit_the_screen(browser: Any, server: Server, rules: str) -> None:  # noqa: F811
    most = next(r["max_players"] for r in api(server, "/api/rules") if r["id"] == rules)
    seats = [("Ada", "human", True)] + [(f"Bot number {i}", "bot:greedy", False) for i in range(2, most + 1)]
    for size in ("phone", "desktop"):
        page, errors = new_page(browser, size)
        create(page, server, rules, seats)
        assert my_turn(page, timeout=60)
        width = WIDTHS[size]["width"]
        # Every player is drawn, and the page itself never scrolls sideways: wide sheets scroll in their box.
        if rules == "knaster":
            assert page.locator(".kfig").count() == most
        else:
            assert page.locator("table.sheet thead tr").first.locator("th").count() == 1 + most
        for part in ("#dice-area", "#sheet-wrap", "#moves-box", "#status"):
            box = page.locator(part).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (part, box)
        shot(page, f"{rules}-{most}-players-{size}")
        assert not errors, errors
