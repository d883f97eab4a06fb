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


def seq(page: Any) -> int:
    return int(page.get_attribute("body", "data-seq") or -1)


def test_two_browsers_play_a_full_game_by_clicking(browser: Any, server: Server) -> None:
    ada = browser.new_context(viewport={"width": 390, "height": 844}).new_page()  # phone width
    bob = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
    errors: list[str] = []
    for p in (ada, bob):
        p.on("pageerror", lambda e: errors.append(str(e)))
    ada.goto(server.http + "/")
    ada.wait_for_selector("#rules option", state="attached")
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
            if not shot_taken:
                OUT.mkdir(exist_ok=True)
                page.screenshot(path=str(OUT / "web-game-midway.png"), full_page=True)
                shot_taken = True
            page.locator(".opt").first.click()
        page.wait_for_function(f"Number(document.body.dataset.seq) > {before}", timeout=10_000)
    assert ada.get_attribute("body", "data-terminal") == "1"
    bob.wait_for_selector("body[data-terminal='1']", state="attached")
    ada.wait_for_selector("#over:not([hidden])")
    assert "Winner" in ada.inner_text("#status") or "Tie" in ada.inner_text("#status")
    ada.wait_for_function("document.getElementById('seed').textContent.length === 64")
    OUT.mkdir(exist_ok=True)
    path = OUT / "web-game.png"
    ada.screenshot(path=str(path), full_page=True)
    bob.screenshot(path=str(OUT / "web-game-bob.png"), full_page=True)
    print(f"screenshot: {path}")
    assert not errors, errors
