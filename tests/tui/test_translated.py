"""Every visible word of the terminal app is translated: a tour of its screens in German, Spanish and Italian.

How an untranslated string is recognised: a word that appears in the English messages of the catalogue but
in none of the language's own texts (its translations, box and rule names) cannot belong on that language's
screen. ``the``, ``throws`` or ``palette`` on a German screen is English that slipped through, whether it
came from a catalogue gap, a hard-coded string or Textual's own labels (footer keys, a menu's "Dismiss
menu", a notification). The tour shows every screen of the app with its footer: setup (and a menu open),
a sheet game with hints, a bot's turn, players out of view, the help, the rules card, the second chance, the
score keeper (with a refused line and its hints), Knaster, and the end with its review.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any

import pytest

from pasch.app import Match, parse_seats
from pasch.i18n import LOCALE_DIR, set_language
from pasch.i18n._msgfmt import parse_po
from pasch.tui import PaschApp, Session

from .conftest import drive, screen_text

LANGS = ("de", "es", "it")
SIZE = (120, 40)

SHARED = {
    # names that are the same in every language (games, players, bots, boxes named after the game), and units
    "pasch", "kniffel", "yahtzee", "yatzy", "yacht", "jetsi", "knaster", "chance", "full", "house",
    "ada", "bob", "cy", "dee", "greedybot", "optimalbot", "randombot", "knasterbot", "sharp", "esc", "tab",
}  # fmt: skip


def _words(text: str) -> set[str]:
    text = re.sub(r"\{[^}]*\}", " ", text)  # placeholders are not words
    return {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ]{3,}", text)}


@cache
def _suspects(lang: str) -> frozenset[str]:
    """English words that none of the language's texts use."""
    english: set[str] = set()
    own: set[str] = set()
    for e in parse_po((LOCALE_DIR / "en" / "LC_MESSAGES" / "pasch.po").read_text(encoding="utf-8")):
        if e.msgid and e.msgctxt is None:
            english |= _words(e.msgid) | _words(getattr(e, "msgid_plural", "") or "")
    for e in parse_po((LOCALE_DIR / lang / "LC_MESSAGES" / "pasch.po").read_text(encoding="utf-8")):
        for text in e.msgstr.values():
            own |= _words(text)
    return frozenset(english - own - SHARED)


Tour = Callable[[PaschApp, Any, Callable[[str], None]], Awaitable[None]]


async def _settle(app: PaschApp, pilot: Any) -> None:
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause()


async def _setup(app: PaschApp, pilot: Any, look: Callable[[str], None]) -> None:
    look("setup")
    await pilot.click("#rules")  # the menu open: Textual's own footer key
    await pilot.pause()
    look("setup, a menu open")


async def _sheet(app: PaschApp, pilot: Any, look: Callable[[str], None]) -> None:
    await pilot.press("space", "1", "h")
    await _settle(app, pilot)
    look("sheet game with hints")
    await pilot.press("m")
    look("every option")
    await pilot.press("question_mark")
    look("help")
    await pilot.press("escape", "i")
    look("rules card")
    await pilot.press("escape")
    await pilot.press("enter")  # the best box: no question
    await _settle(app, pilot)
    look("after a bot's turn")


async def _columns(app: PaschApp, pilot: Any, look: Callable[[str], None]) -> None:
    await pilot.press("space")
    await pilot.pause()
    look("kniffel-4, players out of view")
    screen: Any = app.screen
    st = screen.state
    pays = {(c, o.index): o.total for c, o in st.score_options()}
    screen.selected = next(ch for ch, v in sorted(pays.items()) if v == 0)
    await pilot.press("enter")
    await pilot.pause()
    look("second chance")


async def _keeper(app: PaschApp, pilot: Any, look: Callable[[str], None]) -> None:
    field: Any = app.screen.query_one("#dice-input")
    field.value = "13356 nowhere"
    await pilot.press("enter")
    await pilot.pause()
    look("score keeper, a refused line")
    field.value = "13356"
    await pilot.press("enter", "f2")
    await _settle(app, pilot)
    look("score keeper with hints")


async def _knaster(app: PaschApp, pilot: Any, look: Callable[[str], None]) -> None:
    await pilot.press("space", "h")
    await _settle(app, pilot)
    look("Knaster")
    await pilot.press("question_mark")
    look("Knaster help")


async def _end(app: PaschApp, pilot: Any, look: Callable[[str], None]) -> None:
    await _settle(app, pilot)
    look("the end with the review")
    await pilot.press("v")
    await pilot.pause()
    look("the review")


def _finished() -> Session:
    played = Match.new("kniffel", parse_seats("bot:greedy, bot:greedy"), seed=3)
    played.play_bots()
    return Session(Match.from_log(played.log, ["human", "human"]))


TOURS: list[tuple[str, Callable[[], PaschApp], Tour]] = [
    ("setup", lambda: PaschApp(players="Ada, bot:optimal", bot_delay=0, save=False), _setup),
    ("sheet", lambda: PaschApp(rules="yatzy", players="Ada, bot:greedy", bot_delay=0, save=False, seed=3), _sheet),
    (
        "columns",
        lambda: PaschApp(rules="kniffel-4", players="Ada, Bob, Cy, Dee", bot_delay=0, save=False, seed=3),
        _columns,
    ),
    ("keeper", lambda: PaschApp(rules="kniffel", players="Ada, Bob", bot_delay=0, save=False, keeper=True), _keeper),
    (
        "knaster",
        lambda: PaschApp(rules="knaster", players="Ada, bot:knaster", bot_delay=0, save=False, seed=2),
        _knaster,
    ),
    ("end", lambda: PaschApp(session=_finished(), bot_delay=0, save=False), _end),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("name", "make", "tour"), TOURS, ids=[t[0] for t in TOURS])
def test_every_visible_word_is_translated(lang: str, name: str, make: Callable[[], PaschApp], tour: Tour) -> None:
    set_language(lang)
    app = make()
    app.switch_language(lang)
    suspects = _suspects(lang)
    found: list[str] = []

    async def body(app: PaschApp, pilot: Any) -> None:
        def look(where: str) -> None:
            english = sorted(_words(screen_text(app)) & suspects)
            if english:
                found.append(f"{where}: {', '.join(english)}")

        look("first screen")
        await tour(app, pilot, look)

    drive(app, body, size=SIZE)
    assert not found, f"English on the {lang} screens:\n" + "\n".join(found)


def test_the_check_catches_english() -> None:
    """The words the check looks for are there: an English line on a German screen is caught."""
    suspects = _suspects("de")
    assert {"throws", "left", "the"} <= suspects
    assert not _words("Ada ist dran · Runde 1 von 13 · noch 3 Würfe") & suspects
