"""Shared helpers for the Textual pilot tests: run a coroutine against a fresh app."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from rich.console import Console

from pasch.i18n import set_language
from pasch.tui import PaschApp


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> Iterator[None]:
    """Every test starts in English with its own data directory."""
    monkeypatch.setenv("PASCH_DATA_DIR", str(tmp_path / "data"))
    set_language("en")
    yield
    set_language("en")


Body = Callable[[PaschApp, Any], Awaitable[None]]


def drive(app: PaschApp, body: Body, size: tuple[int, int] = (160, 50)) -> None:
    """Run ``body(app, pilot)`` inside ``app.run_test()``."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(app, pilot)

    asyncio.run(main())


async def settle(app: PaschApp, pilot: Any) -> None:
    """Wait until the bots (and hints) have finished moving."""
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause()


def screen_text(app: PaschApp) -> str:
    """What the terminal shows now, as plain text (the screen and the screens under a modal one)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, force_terminal=True)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text(styles=False)
