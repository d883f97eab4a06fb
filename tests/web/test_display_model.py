"""The page renders the server's display model (issue 29): the sheet's rows and the seat kinds come with the
rule set (``/api/rules``, ``/api/rules/ID``, each room's ``rules``); the page lays out no row and lists no
bot of its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pasch.app import seat_kinds, sheet_rows
from pasch.rules import get

from ._support import Server
from .test_browser import _create_vs_bot
from .test_browser import browser as browser  # the module's Chromium fixture

STATIC = Path(__file__).resolve().parents[2] / "src" / "pasch" / "web" / "static"


def test_rules_carry_rows_and_seat_kinds(server: Server) -> None:
    status, yatzy = server.request("GET", "/api/rules/yatzy")
    assert status == 200
    assert yatzy["rows"] == [{"kind": r.kind.value, "box": r.box} for r in sheet_rows(get("yatzy"))]
    assert "extra" not in {r["kind"] for r in yatzy["rows"]}  # the page showed an empty "extra" row
    status, listed = server.request("GET", "/api/rules")
    assert status == 200
    assert {r["id"]: r["seat_kinds"] for r in listed}["kniffel"] == list(seat_kinds(get("kniffel")))


def test_the_page_writes_no_bot_and_no_row_of_its_own() -> None:
    page = "\n".join(p.read_text(encoding="utf-8") for p in sorted(STATIC.rglob("*.js")))  # the page's modules
    assert "bot:greedy" not in page and "bot:optimal" not in page and "bot:random" not in page
    assert "rules.rows.forEach" in page and "upperCount" not in page


@pytest.mark.slow
def test_the_yatzy_sheet_has_the_servers_rows(browser: Any, server: Server) -> None:
    page = browser.new_page()
    _create_vs_bot(page, server, "yatzy")
    page.wait_for_selector("#sheet-wrap tbody tr")
    rows = page.locator("#sheet-wrap tbody tr").count()
    assert rows == len(sheet_rows(get("yatzy")))
    page.close()
