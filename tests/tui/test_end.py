"""The end of a game: sections, ranking (no winner when solo), earlier games, the review of the play and its
move-by-move screen, and a finished game that stays finished."""

from __future__ import annotations

from typing import Any

from pasch.app import game_summary, review
from pasch.engine import Score
from pasch.storage import Repository
from pasch.tui import PaschApp, Session, parse_seats
from pasch.tui._game import SheetGameScreen
from pasch.tui._summary import ReviewScreen

from .conftest import drive, settle


def _finished_solo(seed: int, name: str = "Ada") -> Session:
    """A solo Kniffel game played to its end (first throw, first box the engine lists)."""
    session = Session.new("kniffel", parse_seats(name), seed=seed)
    while not session.match.finished:
        session.throw()
        session.act(next(a for a in session.match.state.legal_actions() if isinstance(a, Score)))
    return session


def test_solo_end_sums_up_compares_with_history_and_reviews(tmp_path: Any) -> None:
    earlier = _finished_solo(1)
    with Repository(directory=tmp_path) as repo:
        repo.save(earlier.match.log, earlier.match.kinds, None, earlier.match.state)
    before = earlier.match.state.total(0)
    session = Session.new("kniffel", parse_seats("Ada"), seed=7)
    app = PaschApp(session=session, bot_delay=0, data_dir=tmp_path)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SheetGameScreen)
        while not session.match.finished:
            await pilot.press("space", "enter")
        await settle(app, pilot)
        total = session.match.state.total(0)
        assert "Game over. Your total: " + str(total) in screen.message
        assert "Winner" not in screen.message
        text = str(screen.query_one("#summary").render())
        summary = game_summary(session.match.state)
        me = summary.players[0]
        row = next(ln for ln in text.splitlines() if ln.strip().startswith("1. Ada"))
        assert row.split()[2:] == [str(me.upper), str(me.bonus), str(me.lower), str(me.extra), str(total)]
        assert f"best {before}" in text or f"was {before}" in text  # the earlier game, not this one
        assert "average" in text
        # the review, computed in a worker, agrees with pasch.app.review
        expected = review(session.match.log, percentile=False)  # as the end screen reviews
        assert screen.review is not None and screen.review.lost == expected.lost
        row = next(ln for ln in text.splitlines() if ln.strip().startswith("Ada") and "%" in ln)
        assert row.split()[1] == f"{expected.lost[0]:.1f}" and "luck" in text
        # a finished game stays finished
        n = len(session.match.actions)
        await pilot.press("u")
        assert session.match.finished and len(session.match.actions) == n
        assert "over" in screen.message
        assert not screen.query_one("#hints").has_class("shown")
        assert screen.check_action("throw", ()) is False and screen.check_action("review", ()) is True
        # v opens the move-by-move review; Escape closes it
        await pilot.press("v")
        assert isinstance(app.screen, ReviewScreen)
        lines = str(app.screen.query_one("#review-text").render()).splitlines()
        assert sum(1 for ln in lines if ln.startswith("turn ")) == len(expected.decisions)
        await pilot.press("escape")
        assert app.screen is screen

    drive(app, body)


def test_the_review_needs_no_score_distribution_and_its_end_line_comes_back(monkeypatch: Any) -> None:
    """The end shows no percentile, so the review does not compute the exact score distribution (about
    40 s the first time per rule set); ``v`` pressed while it runs says so, and the end's line returns."""
    import threading

    from pasch.tui import _base

    release = threading.Event()
    asked: list[Any] = []

    def slow_review(log: Any, **kwargs: Any) -> Any:
        asked.append(kwargs.get("percentile", True))
        assert release.wait(30)
        return review(log, **kwargs)

    monkeypatch.setattr(_base, "review", slow_review)
    session = Session.new("yacht", parse_seats("Ada"), seed=5)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SheetGameScreen)
        while not session.match.finished:
            await pilot.press("space", "enter")
        await pilot.pause()
        await pilot.press("v")  # before the review is ready
        assert screen.message == "Reviewing your play…"
        assert screen.review is None and app.screen is screen
        release.set()
        await settle(app, pilot)
        assert asked == [False]
        assert screen.review is not None and screen.review.beats is None
        assert screen.message.startswith(f"Game over. Your total: {session.match.state.total(0)}")
        assert "(v: review" in screen.message
        await pilot.press("v")
        assert isinstance(app.screen, ReviewScreen)

    drive(app, body)


def test_several_players_name_the_winner() -> None:
    session = Session.new("yahtzee", parse_seats("Ada, bot:greedy"), seed=3)
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SheetGameScreen)
        while not session.match.finished:
            await pilot.press("space", "enter")
            await settle(app, pilot)
        out = session.match.state.outcome()
        word = "Tie for first place" if out.is_tie else "Winner"
        assert f"Game over. {word}: " + ", ".join(out.winners) in screen.message
        text = str(screen.query_one("#summary").render())
        assert "first game" in text  # no history without saving
        assert [ln.split()[1] for ln in text.splitlines() if ln[:3].strip().rstrip(".").isdigit()] == [
            name for _r, name, _t in out.standings()
        ]

    drive(app, body)


def test_a_tight_end_swaps_the_table_and_the_sheet() -> None:
    """kniffel-4 at 80x24: the end table (one line per player) and one player's four columns do not fit side by
    side; the table shows, and Tab shows the sheet page by page, then the table again."""
    import dataclasses

    from pasch.app import Match

    from .conftest import screen_text

    played = Match.new("kniffel-4", parse_seats("bot:greedy, bot:greedy"), seed=3)
    played.play_bots()
    log = dataclasses.replace(played.log, players=("Ada", "Bob"), meta={})
    app = PaschApp(session=Session(Match.from_log(log, ["human", "human"])), bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, SheetGameScreen) and screen.has_class("tight-end")
        totals = played.state.totals()
        text = screen_text(app)
        rows = [ln for ln in text.splitlines() if "1. " in ln or "2. " in ln]
        assert len(rows) == 2 and all(str(t) in " ".join(rows) for t in totals)  # one line per player
        assert "Tab: the score sheet" in text and not screen.query_one("#sheet").display
        await pilot.press("tab")
        assert screen.query_one("#sheet").display and "Ones" in screen_text(app)
        await pilot.press("tab", "tab")  # Bob's page, then the table again
        assert not screen.query_one("#sheet").display

    drive(app, body, size=(80, 24))


def test_a_multi_column_game_is_reviewed_against_the_bots_estimate() -> None:
    """Jetsi has no exact table: the end still offers the review, against the strongest bot's estimate, and says
    it is not exact (no luck column)."""
    session = Session.new("jetsi", parse_seats("Ada"), seed=11)
    while not session.match.finished:
        session.throw()
        session.act(next(a for a in session.match.state.legal_actions() if isinstance(a, Score)))
    app = PaschApp(session=session, bot_delay=0, save=False)

    async def body(app: PaschApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, SheetGameScreen)
        await settle(app, pilot)
        expected = review(session.match.log, percentile=False)
        assert expected.estimated
        assert screen.review is not None and screen.review.estimated and screen.review.lost == expected.lost
        await pilot.press("v")
        assert isinstance(app.screen, ReviewScreen)
        text = str(app.screen.query_one("#review-text").render())
        assert "Your play vs the strongest bot's estimate (not exact):" in text
        assert "total = expected − lost + luck" not in text
        assert sum(1 for ln in text.splitlines() if ln.startswith("turn ")) == len(expected.decisions)

    drive(app, body)
