"""What every game screen shares: the session, the turn flow, bots, undo, saving, help and the end of a game.

The screen's state is held in reactive attributes: :attr:`GameScreen.position` (the engine's state),
:attr:`GameScreen.table` (the dice as they lie), the one-line message and the end of the game (summary,
review). Every step of the session goes through :meth:`GameScreen.attempt` and :meth:`GameScreen.after_change`,
which save the step at once (:class:`pasch.app.Recorder`) and set the reactive attributes from the session;
the subclasses' ``watch_*`` methods draw what changed. Nothing is redrawn by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import ClassVar, ParamSpec

from textual import getters, work
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen
from textual.worker import get_current_worker

from pasch.app import (
    BotTurn,
    GameSummary,
    Review,
    TableDice,
    bot_tables_ready,
    game_summary,
    play_bots,
    prepare_bot_tables,
    review,
    reviewable,
)
from pasch.engine import Action, Roll, Score, State
from pasch.errors import PaschError
from pasch.i18n import N_, _
from pasch.tui._common import GameHost, translate_bindings
from pasch.tui._help import HelpScreen
from pasch.tui._rules import RulesScreen
from pasch.tui._session import Session
from pasch.tui._summary import ReviewScreen, summary_lines

__all__ = ["GameScreen"]

P = ParamSpec("P")


class GameScreen(Screen[None]):
    """What every game screen shares: the session, bots, undo, help, saving and the end of the game.

    Attributes:
        position: the engine's state on the board (set after every step; watchers draw it).
        table: the dice as they lie on the table (faces in table order, holds).
        message: the one-line message under the dice; ``message_error`` shows it as an error.
        summary: the end of the game (None while it lasts).
        review: the review of the finished game against the solver, once computed.
        review_note: what the review says meanwhile (or why there is none).
    """

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("question_mark", "help", N_("help")),
        Binding("i", "rules", N_("rules")),
        Binding("q", "quit_game", N_("save & quit")),
        Binding("n", "new_game", N_("new game")),
        Binding("v", "review", N_("review")),
    ]

    END_KEYS: ClassVar[tuple[str, str]] = (N_("(v: review, n: new game, q: quit)"), N_("(n: new game, q: quit)"))
    """The end's keys in words, with a review and without (a screen with other keys says its own)."""

    PLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset(
        {"throw", "hold", "move", "column", "score", "announce", "hints", "apply_hint", "more_hints", "undo", "play"}
        | {"pass_number", "row", "cancel"}
    )
    """Actions of a game in progress: hidden and refused once the game is over."""

    position: reactive[State | None] = reactive(None, init=False, always_update=True)
    table: reactive[TableDice] = reactive(TableDice(), init=False)
    message: reactive[str] = reactive("", init=False)
    message_error: reactive[bool] = reactive(False, init=False)
    summary: reactive[GameSummary | None] = reactive(None, init=False)
    review: reactive[Review | None] = reactive(None, init=False)
    review_note: reactive[str] = reactive("", init=False)

    app = getters.app(GameHost)

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.ready = False
        self.closing = False
        self.bot_log: list[str] = []
        self._bot_log_seat: int | None = None
        translate_bindings(self)

    # -- shared flow ----------------------------------------------------------------------------
    def on_mount(self) -> None:
        """Show the position, then let bots move if a bot starts."""
        self.ready = True
        self.sync()
        self.after_step()

    def sync(self) -> None:
        """Set the reactive attributes from the session (the dice on the table, then the position)."""
        self.table = self.session.layout
        self.position = self.session.match.state

    @property
    def human_turn(self) -> bool:
        """Whether a human is to act (keys act only then)."""
        return not self.session.match.finished and not self.session.match.seat.is_bot

    def _human_only(self) -> bool:
        if self.session.match.finished or self.closing:
            return False
        if not self.human_turn:
            self.say(_("Wait: {name} is playing.").format(name=self.session.match.seat.name), error=True)
            return False
        return True

    def say(self, text: str, error: bool = False) -> None:
        """Show a one-line message under the dice (errors in red)."""
        self.message_error = error
        self.message = text

    def attempt(self, fn: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> bool:
        """Run a session step; a refused step shows the engine's reason and changes nothing."""
        try:
            fn(*args, **kwargs)
        except PaschError as exc:
            self.say(_("Not allowed: {reason}").format(reason=exc), error=True)
            return False
        return True

    def after_change(self, scored: bool = False) -> None:
        """After a person's step: save it at once (a throw or a hold too: a closed terminal loses nothing),
        show it, then announce the end or start the bots. ``scored`` says whether the step ended a turn."""
        self.app_save()
        self.sync()
        self.after_step()

    def after_step(self) -> None:
        """The end of the game, or the bots' turn."""
        if self.session.match.finished:
            self.game_over()
        elif self.session.match.bot_to_move:
            self.run_bots()

    def app_save(self) -> None:
        """Save the game through the app (no-op when saving is off)."""
        self.app.save_session(self.session)

    def game_over(self) -> None:
        """Sum up the game (ranking, sections, earlier games), start its review, show the end's keys."""
        if self.summary is None:
            match = self.session.match
            history = self.app.history(match.rules.id, match.game_id)
            if reviewable(match.rules, estimated=True):  # multi-column games: against the bot's estimate
                self.review_note = _("Reviewing your play…")
                self.review_game()
            self.summary = game_summary(match.state, history)
            self.refresh_bindings()
        head = summary_lines(self.summary)[0]
        self.say(head + "  " + _(self.END_KEYS[0] if self.review_note else self.END_KEYS[1]))

    @work(thread=True, exclusive=True, group="review")
    def review_game(self) -> None:
        """Review the finished game with the exact solver, off the event loop."""
        worker = get_current_worker()
        try:
            # No percentile: the end of the game does not show it, and its exact score distribution costs
            # far more CPU than the review, the first time per rule set (bench/target.py times it).
            result: Review | None = review(self.session.match.log, percentile=False)
            note = ""
        except PaschError as exc:
            result, note = None, _("No review: {reason}").format(reason=exc)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._reviewed, result, note)

    def _reviewed(self, result: Review | None, note: str) -> None:
        self.review_note = note or self.review_note
        self.review = result
        self.refresh_bindings()
        self.game_over()  # the end's line again, over "Reviewing your play…" if v was pressed meanwhile

    def action_review(self) -> None:
        """Open the move-by-move review of the finished game."""
        if not self.session.match.finished or self.closing:
            return
        if self.review is None:
            self.say(self.review_note or _("No review for this game."), error=not self.review_note)
            return
        self.app.push_screen(ReviewScreen(self.review))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Once the game is over, only the keys of the end show and work."""
        finished = self.session.match.finished
        if action in self.PLAY_ACTIONS:
            return not finished
        if action == "review":
            return finished and (self.review is not None or bool(self.review_note))
        if action == "new_game":
            return finished
        return True

    def run_bots(self) -> None:
        """Let the bots to move play, one visible step at a time."""
        self._bot_turns()

    @work(group="bots", exclusive=True)
    async def _bot_turns(self) -> None:
        """Play the bots' steps (:func:`pasch.app.play_bots`); an undo cancels this worker."""
        match = self.session.match
        rules = match.rules
        if match.bot_turn() is not None and not bot_tables_ready(rules):  # a multi-column game's, not in memory
            # Loaded from the cache in a moment; built once per machine in about 20 s: then say why the bot waits.
            task = asyncio.ensure_future(asyncio.to_thread(prepare_bot_tables, rules))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(task), 1.0)
            if not task.done():
                self.say(_("Preparing the bot's tables for these rules (once; about half a minute)…"))
            try:
                await task
            except PaschError as exc:  # a damaged learned model: the bot cannot play these rules here
                self.say(str(exc), error=True)
                return
        await play_bots(match.bot_turn, self._bot_step, delay=self.app.bot_delay, rng=lambda: match.game.rng)
        if self.session.match.finished:
            self.game_over()

    async def _bot_step(self, turn: BotTurn, action: Action) -> bool:
        """Record a bot's step, save it and show it; False when the game changed while the bot thought."""
        if self.session.match.state is not turn.state or self.closing:
            return False
        name = self.session.match.seats[turn.seat].name
        self.session.act(action)
        said = self.describe_step(turn.state, self.session.match.state, name, action)
        if self._bot_log_seat != turn.seat or self.starts_turn(action):
            self.bot_log, self._bot_log_seat = [], turn.seat
        self.bot_log.append(said)
        self.app_save()
        self.bot_moved(turn.state, action)
        self.say(said)
        self.sync()
        return True

    def starts_turn(self, action: Action) -> bool:
        """Whether ``action`` (a bot's) begins a new turn: the log of the last bot turn starts over."""
        return isinstance(action, Roll)

    def turn_done(self, action: Action) -> bool:
        """Whether ``action`` (just played) finished a turn."""
        return isinstance(action, Score)

    def bot_moved(self, before: State, action: Action) -> None:
        """Hook: a bot has just played ``action`` from ``before``."""

    def describe_step(self, before: State, after: State, name: str, action: Action) -> str:
        """A step (just played from ``before`` to ``after``) in words."""
        return _("{name}: {action}").format(name=name, action=action)

    def stop_bots(self) -> None:
        """Stop a pending bot move (before an undo takes back the human's last box)."""
        self.workers.cancel_group(self, "bots")

    def action_rules(self) -> None:
        """Show the rules card of the game's rule set (not while the app closes)."""
        if not self.closing:
            self.app.push_screen(RulesScreen(self.session.match.rules))

    def action_help(self) -> None:
        """Show the keys (not while the app closes)."""
        if not self.closing:
            match = self.session.match
            self.app.push_screen(HelpScreen(keeper=match.keeper, game=self.help_topic, rules=match.rules))

    help_topic = "sheet"
    """Which keys the help screen lists (``sheet`` or ``knaster``)."""

    def action_undo(self) -> None:
        """Take back the human's last step (see :mod:`pasch.tui._session`); a finished game stays finished."""
        if self.session.match.finished:
            self.say(_("The game is over: it cannot be undone."), error=True)
            return
        self.stop_bots()
        if self.session.undo():
            self.app_save()
            self.say(_("Undone."))
        else:
            self.say(_("Nothing to undo (a throw cannot be taken back once seen)."), error=True)
        self.sync()
        if self.session.match.bot_to_move:
            self.run_bots()

    def action_quit_game(self) -> None:
        """Save and leave; keys pressed while the app closes do nothing."""
        if self.closing:
            return
        self.closing = True
        self.stop_bots()
        self.app_save()
        self.app.exit()

    def action_new_game(self) -> None:
        """After the end: back to the setup screen."""
        if not self.session.match.finished or self.closing:
            return
        self.app.show_setup()
