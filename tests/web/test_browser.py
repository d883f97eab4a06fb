"""Playwright with Debian's Chromium: two browser contexts create a room, join it and play a game by clicking."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ._support import Server

pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("PASCH_CHROMIUM", "/usr/bin/chromium")
OUT = Path(__file__).resolve().parents[2] / "out"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip("Debian's chromium is not installed; run ci/setup-system.sh")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-background-networking",
                "--disable-dev-shm-usage",
                "--disable-gpu",
                "--disable-extensions",
                "--no-first-run",
                "--disable-sync",
                "--disable-default-apps",
            ],
        )
        try:
            yield b
        finally:
            b.close()


def open_more_options(page: Any) -> None:
    """Unfold the home page's full form (the first choices are one tap each; the seats are under here)."""
    if page.get_attribute("#more-options", "open") is None:
        page.click("#more-options > summary")


def seq(page: Any) -> int:
    return int(page.get_attribute("body", "data-seq") or -1)


def wait_until(check: Any, timeout: float = 10.0) -> None:
    """Poll a condition read through locators. (``page.wait_for_function`` evaluates a string in the page,
    which the server's Content-Security-Policy forbids, as it should: the tests run under the real policy.)"""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.05)


def wait_seq(page: Any, before: int, timeout: float = 10.0) -> None:
    """Wait until the page has applied an event after ``before``."""
    wait_until(lambda: seq(page) > before, timeout)


def test_two_browsers_play_a_full_game_by_clicking(browser: Any, server: Server) -> None:
    ada = browser.new_context(viewport={"width": 390, "height": 844}).new_page()  # phone width
    bob = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
    errors: list[str] = []
    for p in (ada, bob):
        p.on("pageerror", lambda e: errors.append(str(e)))
        # The page must work under the server's strict Content-Security-Policy: any violation is an error.
        p.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    ada.goto(server.http + "/")
    ada.wait_for_selector("#rules option", state="attached")
    open_more_options(ada)
    ada.select_option("#rules", "kniffel")
    names = ada.locator("#seats .seat-name")
    names.nth(0).fill("Ada")
    names.nth(1).fill("Bob")
    ada.check("#hints")
    ada.click("#create")
    ada.wait_for_url("**/r/*")
    ada.wait_for_selector("body[data-seq]", state="attached")
    link = ada.url
    bob.goto(link)
    bob.wait_for_selector("#take-seat")
    bob.click("#take-seat")
    bob.wait_for_selector("#seat-panel", state="hidden")
    # Language switch: German labels, then back to English.
    ada.select_option("#lang", "de")
    assert ada.inner_text("#throw") == "Würfeln"
    ada.select_option("#lang", "en")
    pages = {"ada": ada, "bob": bob}
    held_once = False
    shot_taken = False
    hinted = False
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if ada.get_attribute("body", "data-terminal") == "1":
            break
        page = next((p for p in pages.values() if p.get_attribute("body", "data-myturn") == "1"), None)
        if page is None:
            time.sleep(0.05)
            continue
        before = seq(page)
        throw = page.locator("#throw")
        if throw.is_enabled():
            dice = page.locator("#dice .die:not(.blank)")
            if not held_once and dice.count() and page.locator("#dice .die").first.is_enabled():
                dice.first.click()  # hold the first die, then throw the rest
                assert dice.first.get_attribute("aria-pressed") == "true"
                held_once = True
            page.click("#throw")
        else:
            if not hinted:
                # The hint panel: every option with its exact value (expected final score), best marked.
                page.click("#hint")
                page.wait_for_selector("#hint-out table.hints tbody tr.best", timeout=300_000)
                rows = page.locator("#hint-out table.hints tbody tr")
                assert rows.count() >= 5
                cells = page.locator("#hint-out table.hints td.num")
                values = [float(cells.nth(i).get_attribute("data-value") or "nan") for i in range(cells.count())]
                assert values == sorted(values, reverse=True) and 50 < values[0] < 400
                # The best shows its value, the others how far they fall behind it.
                texts = cells.all_inner_texts()
                assert float(texts[0]) == round(values[0], 1)
                assert all("vs best" in x for x, v in zip(texts, values, strict=True) if v < values[0] - 0.05)
                assert "★" in page.locator("#hint-out tr.best").first.inner_text()
                hinted = True
            if not shot_taken:
                OUT.mkdir(exist_ok=True)
                page.screenshot(path=str(OUT / "web-game-midway.png"), full_page=True)
                shot_taken = True
            page.locator(".opt").first.click()
        wait_seq(page, before)
    assert ada.get_attribute("body", "data-terminal") == "1"
    assert hinted
    bob.wait_for_selector("body[data-terminal='1']", state="attached")
    ada.wait_for_selector("#over:not([hidden])")
    assert "Winner" in ada.inner_text("#status") or "Tie" in ada.inner_text("#status")
    wait_until(lambda: len((ada.text_content("#seed") or "").strip()) == 64)
    # Both pages mixed 32 random bytes of their own into the dice before the first throw, and show them.
    status, log = server.request("GET", "/api/rooms/" + ada.url.rstrip("/").split("/")[-1] + "/log")
    contributions = log["meta"]["contributions"]
    assert status == 200 and len(contributions) == 2 and all(len(c or "") == 64 for c in contributions)
    assert {(p.text_content("#contribution") or "").strip() for p in (ada, bob)} == set(contributions)
    OUT.mkdir(exist_ok=True)
    path = OUT / "web-game.png"
    ada.screenshot(path=str(path), full_page=True)
    bob.screenshot(path=str(OUT / "web-game-bob.png"), full_page=True)
    print(f"screenshot: {path}")
    assert not errors, errors


def _create_vs_bot(page: Any, server: Server, rules: str) -> None:
    page.goto(server.http + "/")
    page.wait_for_selector(f"#rules option[value='{rules}']", state="attached")
    open_more_options(page)
    page.select_option("#rules", rules)
    page.locator("#seats .seat-name").nth(0).fill("Ada")
    page.locator("#seats .seat-name").nth(1).fill("Robo")
    page.locator("#seats .seat-kind").nth(1).select_option("bot:greedy")
    page.check("#hints")
    page.click("#create")
    page.wait_for_url("**/r/*")
    page.wait_for_selector("body[data-seq]", state="attached")


def _my_turn(page: Any, timeout: float = 20.0) -> bool:
    """Wait until it is the page's player's turn; False when the game ended first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.get_attribute("body", "data-terminal") == "1":
            return False
        if page.get_attribute("body", "data-myturn") == "1":
            return True
        time.sleep(0.03)
    raise AssertionError("it never became the player's turn")


def test_knaster_by_clicking_cells(browser: Any, server: Server) -> None:
    page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _create_vs_bot(page, server, "knaster")
    # Both players' grids: 25 cells each, 12 line values (5 rows, 5 columns, 2 diagonals).
    assert page.locator(".kfig").count() == 2
    assert page.locator(".kfig").nth(1).locator("td[data-cell]").count() == 25
    assert page.locator(".kfig").nth(0).locator("td.lv").count() == 12
    assert page.locator(".kfig").nth(0).locator("td.lv").first.inner_text() == "9"
    actions = writes = circles = 0
    shot = False
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline and _my_turn(page):
        before = seq(page)
        if page.locator("#throw").is_enabled():
            page.click("#throw")
        elif page.locator(".kcell.circle").count():
            page.locator(".kcell.circle").first.click()
            circles += 1
        elif page.locator(".kcell.write").count():
            cell = page.locator(".kcell.write").last
            name = cell.get_attribute("data-action").split()[-1]
            cell.click()
            wait_seq(page, before)
            number = page.locator(f".kfig >> nth=0 >> td[data-cell='{name}']").inner_text()
            assert number.strip().isdigit(), number  # the written number shows in Ada's grid
            writes += 1
            actions += 1
            continue
        else:
            page.click("#pass")
        wait_seq(page, before)
        actions += 1
        if not shot and writes >= 8:
            OUT.mkdir(exist_ok=True)
            page.screenshot(path=str(OUT / "web-knaster-midway.png"), full_page=True)
            shot = True
    assert writes >= 10 and actions >= 25, (writes, actions)
    if circles:
        assert page.locator(".kfig >> nth=0 >> td.ring").count() >= 1
    # The bot wrote in its grid too.
    assert any(c.strip() for c in page.locator(".kfig >> nth=1 >> td[data-cell]").all_inner_texts())
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "web-knaster.png"), full_page=True)
    assert not errors, errors


def test_kniffel4_columns_and_announcement_by_clicking(browser: Any, server: Server) -> None:
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _create_vs_bot(page, server, "kniffel-4")
    # Every player's four columns: box header + 2 players x 4 columns in the second header row.
    assert page.locator("table.sheet thead tr").nth(1).locator("th").count() == 1 + 2 * 4
    announced = False
    actions = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and actions < 30 and _my_turn(page):
        before = seq(page)
        ann = page.locator("#announce button")
        if not announced and ann.count():
            ann.first.click()
            wait_seq(page, before)
            page.wait_for_selector("table.sheet td.announced")
            assert "announced" in page.inner_text("#status")
            OUT.mkdir(exist_ok=True)
            page.screenshot(path=str(OUT / "web-kniffel4-announced.png"), full_page=True)
            announced = True
            actions += 1
            continue
        if page.locator("#throw").is_enabled():
            page.click("#throw")
        else:
            page.locator("table.sheet .opt").first.click()
        wait_seq(page, before)
        actions += 1
    assert announced and actions >= 20
    # Scores were entered in several columns' cells of Ada's sheet and the bot's.
    filled = [c for c in page.locator("table.sheet tbody td:not(.sum)").all_inner_texts() if c.strip().isdigit()]
    assert len(filled) >= 6
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "web-kniffel4.png"), full_page=True)
    assert not errors, errors


def test_knaster_score_keeper_enters_the_tables_dice(browser: Any, server: Server) -> None:
    page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.http + "/")
    page.wait_for_selector("#rules option[value='knaster']", state="attached")
    open_more_options(page)
    page.select_option("#rules", "knaster")
    page.locator("#seats .seat-name").nth(0).fill("Ada")
    page.locator("#seats .seat-remove").nth(1).click()  # play alone
    page.check("#keeper")
    page.click("#create")
    page.wait_for_url("**/r/*")
    page.wait_for_selector("body[data-myturn='1']", state="attached")
    page.click("#throw")  # "roll": the dice fall at the table ...
    page.wait_for_selector("#enter-form:not([hidden])")
    assert page.locator("#enter-sharp").is_hidden()
    page.fill("#enter-dice", "3 4")  # ... and the thrower enters them
    page.click("#enter")
    page.wait_for_selector(".kcell.write")
    assert "7" in page.inner_text("#throws-left")
    page.locator(".kcell.write[data-action='write 7 at c3']").click()
    wait_until(lambda: (page.text_content(".kfig td[data-cell='c3']") or "").strip() == "7")
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "web-knaster-keeper.png"), full_page=True)
    assert not errors, errors
