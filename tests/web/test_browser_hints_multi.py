"""Playwright: hints in multi-column games (issue 28 item 4) — the ranked options with the strongest bot's
estimate of the final total, the best first and the others "−x.x vs best", headed as the bot's estimate and
said to be not exact; screenshots of kniffel-4 and Jetsi at 390x844 and 1280x800 (``out/web/hints-*``), axe
with no violations, no console errors. Under the server's real Content-Security-Policy.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from ._support import Server
from .test_browser import browser, seq, wait_seq  # noqa: F401 (browser: the fixture)
from .test_browser_table import SHOTS, api, create, my_turn
from .test_browser_tour import SIZES, axe_violations, new_page

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("rules", ["kniffel-4", "jetsi"])
def test_multi_column_hints_show_the_bots_ranked_estimates(browser: Any, server: Server, rules: str) -> None:  # noqa: F811
    page, errors = new_page(browser)
    code = create(page, server, rules, [("Ada", "human", True), ("Robo", "bot:greedy", False)], hints=True)
    assert my_turn(page)
    before = seq(page)
    page.click("#throw")
    wait_seq(page, before)
    page.click("#hint")
    page.wait_for_selector("#hint-out table.hints td.num", timeout=120_000)
    assert page.inner_text("#hint-out table.hints thead th >> nth=1") == "Bot's estimate"
    assert page.inner_text("#hint-out p.note").startswith("Not exact: the strongest bot's estimate")
    cells = page.locator("#hint-out table.hints tbody td.num")
    texts = cells.all_inner_texts()
    assert len(texts) == 5 and re.fullmatch(r"[\d,]+\.\d", texts[0]), texts
    assert all(re.fullmatch(r"−\d+\.\d vs best", x) or re.fullmatch(r"[\d,]+\.\d", x) for x in texts[1:]), texts
    assert page.locator("#hint-out tr.best").count() >= 1
    estimates = [float(cells.nth(i).get_attribute("data-estimate") or "nan") for i in range(cells.count())]
    assert estimates == sorted(estimates, reverse=True) and 400 < estimates[0] < 1300, estimates
    # Every legal option is listed on request, not only the score rows.
    page.click("#hint-more")
    rows = page.locator("#hint-out table.hints tbody tr")
    actions = [rows.nth(i).get_attribute("data-action") or "" for i in range(rows.count())]
    assert any(a.startswith("keep") for a in actions) and any(a.startswith("score") for a in actions)
    page.click("#hint-more")
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"hints-{rules}-{size}.png"), full_page=True, animations="disabled")
        assert not axe_violations(page), (size, axe_violations(page))
    # The best option is played by a click on it.
    best = actions[0]
    before = seq(page)
    page.locator("#hint-out table.hints tbody tr.best button").first.click()
    wait_seq(page, before)
    assert api(server, f"/api/rooms/{code}/log")["actions"][before] == best
    assert not errors, errors
