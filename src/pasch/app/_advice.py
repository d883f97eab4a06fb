"""Advice: one policy for every game kind, used by the terminal's hints, ``pasch play``'s plain mode and
the web's hint panel alike.

- **Single-column sheet games** (Kniffel, Yahtzee, Yatzy, Yacht and their modifiers): every legal option
  with its exact value from :mod:`pasch.solver`, the expected final score of the player's sheet if they take
  it and play optimally afterwards, best first (``exact``). Before the turn's first throw the only choice is
  to throw; its value is the sheet's expected final score (:attr:`Advice.position_value`).
- **Multi-column games** (Jetsi, kniffel-3, kniffel-4) have no exact table (2^39 and more states): the
  suggestion is the choice of the strongest bot (``bot:optimal`` plays :class:`pasch.bots.MultiColumnBot`
  there), and after a throw every legal option (every keep, every box of every column, kniffel-4's
  announcements) is ranked by that bot's estimate of the final total after it (:attr:`AdviceOption.estimate`,
  ``delta`` against the best; :attr:`Advice.estimated`): the per-column values with slack tables the bot plays
  by, an estimate and not exact (``exact`` is False), shown as the single-column values are. Their level is
  calibrated: every option of a decision gets the same offset (:mod:`pasch.bots._calibration`, measured on the
  bot's self-play per number of filled boxes), so that the best option's estimate is on average what the bot
  goes on to score; the ranking and the deltas are the bot's own.
- **Knaster** has no exact table either: every move ranked by the Knaster bot's own evaluation (comparable
  within one decision only).
- **A score-keeper game waiting for the table's dice** has nothing to choose until the dice are entered:
  :attr:`Advice.waiting_for_dice`, no suggestion (no bot invents dice), and the position's exact value where
  the solver has one.

:func:`advise` may load (or build, once) a solver table: call it off a user interface's event loop.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from pasch.app._seats import make_bot
from pasch.bots import Calibration, MultiColumnBot, load_calibration
from pasch.engine import Action, GameState, Keep, KnasterState, Pass, Roll, State
from pasch.errors import IllegalActionError, PaschError

__all__ = ["Advice", "AdviceOption", "advise"]

Progress = Callable[[int, int], None]

_TIE = 1e-9


@dataclass(frozen=True, slots=True)
class AdviceOption:
    """One option of the player to act.

    Attributes:
        action: the action.
        value: exact expected final score of the sheet with optimal play afterwards (None where not exact).
        points: what a scoring option pays now (box plus extra points); None for other actions.
        best: whether this is (one of) the best option(s).
        delta: ``value`` minus the best option's value (0 for the best); where values are not exact, the
            same for the bot's ``estimate``; None where neither is known.
        estimate: the bot's own evaluation where it ranks options: in multi-column games its estimate of the
            final total after this option (:attr:`Advice.estimated`), in Knaster a score comparable within one
            decision only; None where the solver's values are exact.
        p_win: in single-column games of two to eight players advised with ``win=True``, the probability
            of finishing ahead of every opponent after this option (playing for the win afterwards, the
            opponents for their expected score: their distributions are rows of the survival table, uint16
            precision); None otherwise. Interfaces show it where present.
    """

    action: Action
    value: float | None
    points: int | None
    best: bool
    delta: float | None = None
    estimate: float | None = None
    p_win: float | None = None


@dataclass(frozen=True, slots=True)
class Advice:
    """The advice for the player to act.

    Attributes:
        suggestion: the action to play (None while a score keeper waits for the table's dice).
        options: every legal option, best first where values are exact, else the scoring options by points.
        exact: whether values are the solver's exact expected final scores.
        source: who gave the advice: ``solver`` or a bot's seat kind (``bot:optimal``).
        waiting_for_dice: a score-keeper game waits for the dice thrown at the table (``enter ...``).
        position_value: the sheet's expected final score with optimal play from here, where exact.
        estimated: the options carry the strongest bot's estimates of the final total
            (:attr:`AdviceOption.estimate`, multi-column games): ranked and shown like exact values, labelled
            as estimates.
    """

    suggestion: Action | None
    options: tuple[AdviceOption, ...]
    exact: bool
    source: str
    waiting_for_dice: bool = False
    position_value: float | None = None
    estimated: bool = False

    @property
    def keep(self) -> tuple[int, ...] | None:
        """The dice to keep when the suggestion is to throw again (empty: throw all), else None."""
        return self.suggestion.dice if isinstance(self.suggestion, Keep) else None

    def top(self, n: int = 5) -> tuple[AdviceOption, ...]:
        """The best ``n`` options."""
        return self.options[:n]

    def option(self, action: Action | str) -> AdviceOption | None:
        """The option of an action (by its text), or None if it is not listed."""
        text = str(action)
        return next((o for o in self.options if str(o.action) == text), None)


def _waits_for_dice(state: State) -> bool:
    return isinstance(state, GameState) and state.keeper and state.dice is None and not state.is_terminal


def _exact(state: GameState, progress: Progress | None) -> Advice | None:
    """Every legal option with its exact value, or None where the solver does not apply."""
    rules = state.rules
    if rules.n_columns != 1 or state.announced is not None:
        return None
    from pasch.solver import shared_solver

    try:
        solver = shared_solver(rules, progress)
    except PaschError:
        return None
    p = state.current_player
    scores = list(state.sheets[p].columns[0].scores)
    base = state.column_totals(p, 0).total
    if state.dice is None:
        value = base + solver.value(scores)
        if _waits_for_dice(state):
            return Advice(None, (), True, "solver", waiting_for_dice=True, position_value=value)
        roll = Roll()
        return Advice(roll, (AdviceOption(roll, value, None, True, 0.0),), True, "solver", position_value=value)
    legal = {str(a): a for a in state.legal_actions()}
    found = solver.options(scores, list(state.dice), int(state.throws_left), sharp=bool(state.sharp))
    listed = [(legal[o.action_text], base + float(o.value), o.points) for o in found if o.action_text in legal]
    if not listed:
        return None
    top = max(v for _, v, _ in listed)
    options = tuple(AdviceOption(a, v, pts, abs(v - top) < _TIE, v - top) for a, v, pts in listed)
    return Advice(options[0].action, options, True, "solver", position_value=top)


@runtime_checkable
class _Ranking(Protocol):
    def rank(self, state: KnasterState, /) -> tuple[tuple[Action, float], ...]: ...


def _ranked(state: KnasterState) -> Advice | None:
    """Every legal move ranked by the Knaster bot's evaluation (the bot ``bot:optimal`` plays there)."""
    bot = make_bot("bot:knaster")
    if not isinstance(bot, _Ranking):
        return None
    ranked = bot.rank(state)
    if not ranked:
        return None
    top = ranked[0][1]
    options = tuple(AdviceOption(a, None, None, k == 0, est - top, est) for k, (a, est) in enumerate(ranked))
    return Advice(options[0].action, options, False, "bot:knaster")


_MULTI: list[MultiColumnBot] = []
_MULTI_LOCK = threading.Lock()
_CALIBRATIONS: dict[str, Calibration | None] = {}


def _estimated(state: GameState) -> Advice | None:
    """Every legal option after a throw of a multi-column game ranked by the multi-column bot's estimate of the
    final total (the values it plays by), its choice first; None where it has none."""
    if state.dice is None or state.rules.n_columns < 2:
        return None
    with _MULTI_LOCK:  # one bot per process: its column tables and per-sheet turns are loaded once
        if not _MULTI:
            _MULTI.append(MultiColumnBot())
        ranked = _MULTI[0].rank(state)
        key = state.rules.cache_key
        if key not in _CALIBRATIONS:  # checked once per process and rule set
            _CALIBRATIONS[key] = load_calibration(state.rules)
        calibration = _CALIBRATIONS[key]
    top = ranked[0][1]
    if top is None:
        return None
    shift = calibration.offset(state) if calibration is not None else 0.0
    points = {str(state.score_action(c, o.index)): o.total for c, o in state.score_options()}
    options = tuple(
        AdviceOption(a, None, points.get(str(a)), k == 0, None if est is None else est - top, _shifted(est, shift))
        for k, (a, est) in enumerate(ranked)
    )
    return Advice(options[0].action, options, False, "bot:optimal", estimated=True)


def _shifted(estimate: float | None, shift: float) -> float | None:
    return None if estimate is None else estimate + shift


def _by_bot(state: State, rng: np.random.Generator | None) -> Advice:
    legal = state.legal_actions()
    if isinstance(state, KnasterState) and len(legal) > 1 and not isinstance(legal[0], Roll | Pass):
        ranked = _ranked(state)
        if ranked is not None:
            return ranked
    if isinstance(state, GameState):
        estimated = _estimated(state)
        if estimated is not None:
            return estimated
    suggestion = make_bot("bot:optimal").choose(state, rng if rng is not None else np.random.default_rng())
    options: list[AdviceOption] = []
    if isinstance(state, GameState) and state.dice is not None:
        scored = sorted(
            ((state.score_action(c, o.index), o.total) for c, o in state.score_options()), key=lambda ap: -ap[1]
        )
        options = [AdviceOption(a, None, pts, a == suggestion) for a, pts in scored]
    if not any(o.action == suggestion for o in options):
        options.insert(0, AdviceOption(suggestion, None, None, True))
    return Advice(suggestion, tuple(options), False, "bot:optimal")


def _with_win(state: GameState, advice: Advice) -> Advice:
    """The advice with each option's probability of winning (single-column games of 2 to 8 players)."""
    from dataclasses import replace

    from pasch.app._wintables import win_pair
    from pasch.solver import shared_solver

    if state.dice is None or not 2 <= len(state.players) <= 8 or state.rules.n_columns != 1:
        return advice
    solver = shared_solver(state.rules)
    target, survival = win_pair(solver)  # kept open: a hint after the first reads rows only
    me = state.current_player
    opponents = [
        survival.distribution(list(state.sheets[p].columns[0].scores), state.sheets[p].columns[0].extra)
        for p in range(len(state.players))
        if p != me
    ]
    col = state.sheets[me].columns[0]
    got = target.win_options(
        list(col.scores), list(state.dice), int(state.throws_left), opponents, bool(state.sharp), col.extra
    )
    by_text = {o.action_text: o.probability for o in got}
    options = tuple(replace(o, p_win=by_text.get(str(o.action))) for o in advice.options)
    return replace(advice, options=options)


def advise(
    state: State,
    *,
    progress: Progress | None = None,
    rng: np.random.Generator | None = None,
    win: bool = False,
) -> Advice:
    """The advice for the player to act in ``state``.

    Args:
        state: an unfinished state whose next action is a player's (not a chance node).
        progress: called as ``progress(done, total)`` while a solver table is built (once per rule set).
        rng: the generator a bot may use (the multi-column and Knaster bots are deterministic).
        win: in single-column games of two to eight players, also each option's probability of winning
            (:attr:`AdviceOption.p_win`; needs the rule set's win tables, built once: see
            :func:`pasch.app.prepare_win_tables`).

    Raises:
        IllegalActionError: the game is over or dice are in the air.
    """
    if state.is_terminal or state.is_chance_node:
        raise IllegalActionError("no advice: the game is over or dice are in the air")
    if isinstance(state, GameState):
        exact = _exact(state, progress)
        if exact is not None:
            return _with_win(state, exact) if win else exact
        if _waits_for_dice(state):
            return Advice(None, (), False, "bot:optimal", waiting_for_dice=True)
    elif not isinstance(state, KnasterState):  # pragma: no cover - every state is one of the two
        raise IllegalActionError(f"no advice for {type(state).__name__}")
    return _by_bot(state, rng)
