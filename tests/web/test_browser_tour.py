"""Playwright: a tour of the page's screens at 390x844 and 1280x800 with screenshots (``out/web/tour-*``), and
axe-core on each with no violations (issue 27, item 9): home, a 2-player kniffel mid-game with hints, the
end card, kniffel-4 after the first throw, the score keeper mid-game, Knaster mid-game.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from ._support import Server
from .test_browser import browser, seq, wait_seq, wait_until  # noqa: F401 (browser: the fixture)
from .test_browser_table import SHOTS, create, my_turn, play_out, quick_move

pytestmark = pytest.mark.slow

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


def axe_violations(page: Any) -> list[str]:
    """axe-core's violations on the page as it is drawn (rule id and the first offending element)."""
    sync = pytest.importorskip("axe_playwright_python.sync_playwright")
    results = sync.Axe().run(page)
    out = []
    for v in results.response["violations"]:
        nodes = [n["target"] for n in v["nodes"]][:3]
        out.append(f"{v['id']}: {v['help']} {nodes}")
    return out


def look(page: Any, name: str) -> list[str]:
    """Screenshots at both sizes, then axe at each; the violations found."""
    found = []
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"tour-{name}-{size}.png"), full_page=True, animations="disabled")
        found += [f"{name} {size}: {v}" for v in axe_violations(page)]
    return found


def new_page(browser: Any) -> tuple[Any, list[str]]:  # noqa: F811
    page = browser.new_context(viewport=SIZES["desktop"]).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return page, errors


def throw(page: Any) -> None:
    before = seq(page)
    page.click("#throw")
    wait_seq(page, before)


def luminance(rgb: str) -> float:
    """Relative luminance (WCAG 2) of a computed colour ``rgb(r, g, b)``."""
    channels = [int(x) / 255 for x in re.findall(r"\d+", rgb)[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def assert_information_dice_readable(page: Any) -> None:
    """Dice that only inform (Knaster's, another player's turn, the keeper's) are drawn at full strength: no
    transparency, and pips at 4.5:1 or more against the face (they were 45 % opaque, about 2.8:1)."""
    die = page.locator("#dice .die[data-value]:disabled").first
    assert die.count()
    assert die.evaluate("e => getComputedStyle(e).opacity") == "1"
    face = die.evaluate("e => getComputedStyle(e).backgroundColor")
    pip = die.locator(".pip").nth(4 if die.get_attribute("data-value") in ("1", "3", "5") else 0)
    ink = pip.evaluate("e => getComputedStyle(e).backgroundColor")
    assert contrast(face, ink) >= 4.5, (face, ink)


def test_every_screen_at_both_sizes_has_no_axe_violations(browser: Any, server: Server) -> None:  # noqa: F811
    found: list[str] = []
    page, errors = new_page(browser)
    page.goto(server.http + "/")
    page.wait_for_selector("#rules option[value='kniffel']", state="attached")
    found += look(page, "home")
    # A 2-player kniffel mid-game with hints on the board.
    create(page, server, "kniffel", [("Ada", "human", True), ("Robo", "bot:greedy", False)], hints=True)
    for _ in range(6):
        assert my_turn(page)
        quick_move(page)
    assert my_turn(page)
    if page.locator("#dice .die.blank").count():
        throw(page)
    page.click("#hint")
    page.wait_for_selector("#hint-out p.suggest", timeout=300_000)
    found += look(page, "kniffel-midgame")
    # The end card.
    play_out([page])
    page.wait_for_selector("#over:not([hidden]) table.standings")
    found += look(page, "end-card")
    # The standings' Total column stays on a phone's screen in the longer languages too.
    page.set_viewport_size(SIZES["phone"])
    for lang in ("de", "es", "it"):
        page.select_option("#lang", lang)
        wait_until(lambda lang=lang: page.get_attribute("html", "lang") == lang)
        box = page.locator("table.standings th.col-total").bounding_box()
        assert box is not None and box["x"] + box["width"] <= SIZES["phone"]["width"], (lang, box)
    page.screenshot(path=str(SHOTS / "tour-end-card-it-phone.png"), full_page=True, animations="disabled")
    page.select_option("#lang", "en")
    # kniffel-4 after the first throw.
    create(page, server, "kniffel-4", [("Ada", "human", True), ("Robo", "bot:greedy", False)], hints=True)
    assert my_turn(page)
    throw(page)
    found += look(page, "kniffel4-first-throw")
    # The score keeper mid-game: three players at the table.
    seats = [("Ann", "human", True), ("Ben", "human", True), ("Cid", "human", True)]
    create(page, server, "kniffel", seats, keeper=True)
    for dice_text in ("1 3 3 5 6", "2 2 2 4 4", "6 6 6 6 6", "1 2 3 4 5"):
        assert my_turn(page)
        before = seq(page)
        page.fill("#enter-dice", dice_text)
        page.press("#enter-dice", "Enter")
        wait_seq(page, before)
        before = seq(page)
        page.locator("#sheet-wrap .opt").last.click()
        wait_seq(page, before)
    found += look(page, "keeper-midgame")
    # Knaster mid-game.
    create(page, server, "knaster", [("Ada", "human", True), ("Robo", "bot:greedy", False)])
    for _ in range(10):
        assert my_turn(page)
        before = seq(page)
        if page.locator("#throw").is_enabled():
            page.click("#throw")
        elif page.locator(".kcell.write").count():
            page.locator(".kcell.write").first.click()
        elif page.locator(".kcell.circle").count():
            page.locator(".kcell.circle").first.click()
        else:
            page.click("#pass")
        wait_seq(page, before)
    if page.locator("#throw").is_enabled():
        throw(page)
    assert_information_dice_readable(page)
    found += look(page, "knaster-midgame")
    assert not found, "\n".join(found)
    assert not errors, errors
