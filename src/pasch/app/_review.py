"""The review of a game, decision by decision: what was played, what was best, and what it cost.

One review for every interface: ``pasch review`` prints it, the terminal app and the web page show it at the
end of a game. Single-column sheet games (Kniffel, Yahtzee, Yatzy, Yacht and their modifiers) are reviewed
with the exact solver; :func:`reviewable` says whether a rule set has one.

Multi-column games (Jetsi, kniffel-3, kniffel-4) have no exact table: their review (:attr:`Review.estimated`)
measures each decision against the strongest bot's estimate of the final total, the values
:func:`pasch.app.advise` ranks their options by (``reviewable(rules, estimated=True)``). Its points lost are
the bot's estimate, not exact, and it has no luck split (:meth:`Review.luck` is None).

For each decision of each player (a keep after a throw, or the box to score) the review lists the solver's
value of the option played and of the best option: the expected final score of the sheet, playing optimally
afterwards. The difference is the expected points lost. Over a finished game, a player's final total splits
exactly into three parts::

    total = expected_start - lost + luck

``expected_start`` is what optimal play expects from the empty sheet, ``lost`` the sum of the expected
points lost by the player's decisions, and ``luck`` what the dice gave beyond expectation (positive when
the dice were kind).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pasch.engine import Action, GameLog, GameState, Roll, new_game
from pasch.errors import IllegalActionError, InvalidActionError, LogError, RuleSetError
from pasch.rules import GameKind, RuleSet, get

__all__ = ["Decision", "Review", "percentile_cached", "review", "reviewable"]

_STARTS: dict[str, float] = {}
"""The bot's estimate of the empty sheet per rule set (computed once per process)."""

_TIE = 1e-9


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a game.

    Attributes:
        index: the decision's action's position in the log (0-based).
        player: the seat that decided.
        turn: the player's turn (0-based, counted over the whole game).
        dice: the dice on the table.
        throws_left: throws left when deciding (0: the dice must be scored).
        played: the action played (its text).
        best: the best action (its text).
        value_played: expected final score of the sheet after the action played, optimal play afterwards.
        value_best: the same for the best action.
        loss: expected points lost (``value_best - value_played``, never negative).
        p_win_before: in a game of several players reviewed with ``win=True``, the probability of
            finishing ahead of every opponent before the decision (playing for the win from here on,
            the opponents for their expected score); else None.
        p_win_after: the same after the action played.
    """

    index: int
    player: int
    turn: int
    dice: tuple[int, ...]
    throws_left: int
    played: str
    best: str
    value_played: float
    value_best: float
    loss: float
    p_win_before: float | None = None
    p_win_after: float | None = None

    @property
    def is_best(self) -> bool:
        """Whether the action played was (one of) the best."""
        return self.loss < _TIE


@dataclass(frozen=True, slots=True)
class Review:
    """A game's review.

    Attributes:
        rules: the rule set.
        players: the player names, in seat order.
        finished: whether the game was played to its end.
        decisions: every decision, in order.
        lost: each player's expected points lost, in seat order.
        totals: each player's total at the end of the log, in seat order.
        expected_start: the expected final score of optimal play from the empty sheet; in an estimated
            review, the bot's estimate of it (its best option's estimate averaged over the first throw).
        beats: for a finished game, each player's share of games of optimal (expected-score) play that
            end below the player's total (from the exact distribution of optimal play); else None.
        estimated: the values are the strongest bot's estimates of the final total (multi-column games),
            not the exact solver's: points lost are the bot's estimate, and there is no luck split.
    """

    rules: RuleSet
    players: tuple[str, ...]
    finished: bool
    decisions: tuple[Decision, ...]
    lost: tuple[float, ...]
    totals: tuple[int, ...]
    expected_start: float
    beats: tuple[float, ...] | None = None
    estimated: bool = False

    def luck(self, player: int) -> float | None:
        """What the dice gave the player beyond expectation (``total - expected_start + lost``).

        None for an unfinished game (the split holds only for a complete sheet) and in an estimated review
        (the bot's estimates do not add up exactly).
        """
        if not self.finished or self.estimated:
            return None
        return self.totals[player] - self.expected_start + self.lost[player]

    def of(self, player: int) -> tuple[Decision, ...]:
        """The player's decisions."""
        return tuple(d for d in self.decisions if d.player == player)

    def mistakes(self, player: int | None = None, n: int = 5) -> tuple[Decision, ...]:
        """The costliest decisions (of one player, or of everyone), costliest first; at most ``n``."""
        found = [d for d in self.decisions if not d.is_best and (player is None or d.player == player)]
        found.sort(key=lambda d: (-d.loss, d.index))
        return tuple(found[:n])

    def accuracy(self, player: int) -> float | None:
        """The share of the player's decisions that were best (None if the player made none)."""
        mine = self.of(player)
        if not mine:
            return None
        return sum(1 for d in mine if d.is_best) / len(mine)


def reviewable(rules: RuleSet | str, *, estimated: bool = False) -> bool:
    """Whether games of a rule set can be reviewed exactly (single-column sheet games: the solver's domain);
    with ``estimated``, also against the bot's estimate (every sheet game: multi-column ones too)."""
    rs = get(rules) if isinstance(rules, str) else rules
    return rs.kind is GameKind.SHEET and (rs.n_columns == 1 or estimated)


def percentile_cached(rules: RuleSet | str) -> bool:
    """Whether a review's percentile (:attr:`Review.beats`) of this rule set is ready without computing."""
    from pasch.solver import distribution_path

    return distribution_path(get(rules) if isinstance(rules, str) else rules).exists()


def review(
    log: GameLog,
    *,
    progress: Callable[[int, int], None] | None = None,
    win: bool = False,
    percentile: bool | None = True,
) -> Review:
    """Review a game's log decision by decision with the exact solver, or in a multi-column game against
    the strongest bot's estimate (:attr:`Review.estimated`; about 2 ms a decision, no table to build).

    The solver's table is loaded (or built once and cached); call this off a user interface's event loop.

    Args:
        log: the game's log (finished or not).
        progress: called as ``progress(done, total)`` while a solver table is built.
        win: in a single-column game of two to eight players, also each decision's probability of winning before and
            after it (needs the rule set's threshold table: built once, minutes for the big rule sets).
        percentile: for a finished game, :attr:`Review.beats` from the exact score distribution of
            optimal play: True computes it if need be (once per rule set, then cached; far longer than
            the review itself), None only when it is cached already, False never.

    Raises:
        RuleSetError: the log's rules are not a sheet game's (Knaster).
        LogError: the log does not replay.
    """
    from pasch.solver import shared_solver

    rules = get(log.rules)
    if reviewable(rules, estimated=True) and not reviewable(rules):
        return _estimated_review(log, rules)
    if not reviewable(rules):
        raise RuleSetError(f"{rules.id}: a review needs a sheet game (the exact solver or the bot's estimate)")
    solver = shared_solver(rules, progress)
    state = new_game(rules, log.players, keeper=log.keeper)
    if not isinstance(state, GameState):  # pragma: no cover - reviewable() admits sheet games only
        raise RuleSetError(f"{rules.id}: not a sheet game")
    decisions: list[Decision] = []
    lost = [0.0] * len(log.players)
    win_of = _win_probabilities(solver) if win and 2 <= len(log.players) <= 8 else None
    for index, text in enumerate(log.actions):
        action = _parse(index, text)
        if not state.is_terminal and not state.is_chance_node and state.dice is not None:
            player = state.current_player
            scores = list(state.sheets[player].columns[0].scores)
            base = state.column_totals(player, 0).total
            options = solver.options(scores, list(state.dice), int(state.throws_left), sharp=bool(state.sharp))
            if options:
                best = options[0]
                played = next((o for o in options if o.action_text == str(action)), None)
                value_best = base + float(best.value)
                value_played = value_best if played is None else base + float(played.value)
                loss = max(0.0, value_best - value_played)
                lost[player] += loss
                before = after = None
                if win_of is not None:
                    before, after = win_of(state, str(action))
                decisions.append(
                    Decision(
                        index=index,
                        player=player,
                        turn=state.turn,
                        dice=tuple(state.dice),
                        throws_left=int(state.throws_left),
                        played=str(action),
                        best=best.action_text,
                        value_played=value_played,
                        value_best=value_best,
                        loss=loss,
                        p_win_before=before,
                        p_win_after=after,
                    )
                )
        state = _apply(state, index, text, action)
    totals = tuple(state.total(p) for p in range(len(log.players)))
    beats = None
    if state.is_terminal and (percentile or (percentile is None and percentile_cached(rules))):
        from pasch.solver import score_distribution

        dist = score_distribution(solver)
        beats = tuple(dist.p_below(t) for t in totals)
    return Review(
        rules=rules,
        players=tuple(log.players),
        finished=state.is_terminal,
        decisions=tuple(decisions),
        lost=tuple(lost),
        totals=totals,
        expected_start=float(solver.expected_start),
        beats=beats,
    )


def _win_probabilities(solver: Any) -> Callable[[GameState, str], tuple[float, float]]:
    """``of(state, played)``: P(win) of the best option and of the one played, for the player to act.

    The tables are those the hints and ``bot:win`` use (:func:`pasch.app.win_pair`: opened once per
    process, memory-mapped); the opponents' distributions are rows of the survival table, read in O(1)
    rather than propagated forward for every decision.
    """
    from pasch.app._wintables import win_pair

    table, survival = win_pair(solver)
    dists: dict[tuple[tuple[int | None, ...], int], Any] = {}

    def dist(scores: tuple[int | None, ...], extra: int) -> Any:
        key = (scores, extra)
        if key not in dists:
            dists[key] = survival.distribution(list(scores), extra)
        return dists[key]

    def of(state: GameState, played: str) -> tuple[float, float]:
        me = state.current_player
        opponents = [
            dist(tuple(state.sheets[p].columns[0].scores), state.sheets[p].columns[0].extra)
            for p in range(len(state.players))
            if p != me
        ]
        col = state.sheets[me].columns[0]
        assert state.dice is not None
        opts = table.win_options(
            list(col.scores), list(state.dice), int(state.throws_left), opponents, bool(state.sharp), col.extra
        )
        chosen = next((o for o in opts if o.action_text == played), opts[0])
        return opts[0].probability, chosen.probability

    return of


def _parse(index: int, text: str) -> Action:
    try:
        return Action.parse(text)
    except InvalidActionError as exc:
        raise LogError(f"action {index + 1} ({text!r}): {exc}") from None


def _apply(state: GameState, index: int, text: str, action: Action) -> GameState:
    """The log's ``index``-th action applied (a sheet game's state stays one)."""
    try:
        nxt = state.apply(action)
    except IllegalActionError as exc:
        raise LogError(f"action {index + 1} ({text!r}) is illegal: {exc}") from None
    assert isinstance(nxt, GameState)
    return nxt


def _start_estimate(rules: RuleSet) -> float:
    """The bot's estimate of the final total from the empty sheet: its best option's estimate after the first
    throw, averaged over that throw's outcomes (252 rankings, once per rule set and process)."""
    from pasch.app._advice import advise

    if rules.cache_key not in _STARTS:
        state = new_game(rules, ["-"]).apply(Roll())
        total = 0.0
        for throw, p in state.chance_outcomes():
            best = advise(state.apply(throw)).options[0].estimate
            total += float(p) * (0.0 if best is None else best)
        _STARTS[rules.cache_key] = total
    return _STARTS[rules.cache_key]


def _estimated_review(log: GameLog, rules: RuleSet) -> Review:
    """The review of a multi-column game against the strongest bot's estimates (:func:`pasch.app.advise`)."""
    from pasch.app._advice import advise

    state = new_game(rules, log.players, keeper=log.keeper)
    if not isinstance(state, GameState):  # pragma: no cover - reviewable() admits sheet games only
        raise RuleSetError(f"{rules.id}: not a sheet game")
    decisions: list[Decision] = []
    lost = [0.0] * len(log.players)
    for index, text in enumerate(log.actions):
        action = _parse(index, text)
        if not state.is_terminal and not state.is_chance_node and state.dice:
            advice = advise(state)
            best = advice.options[0] if advice.options else None
            if advice.estimated and best is not None and best.estimate is not None:
                played = advice.option(action)
                value_best = best.estimate
                value_played = value_best if played is None or played.estimate is None else played.estimate
                loss = max(0.0, value_best - value_played)
                player = state.current_player
                lost[player] += loss
                decisions.append(
                    Decision(
                        index=index,
                        player=player,
                        turn=state.turn,
                        dice=tuple(state.dice),
                        throws_left=int(state.throws_left),
                        played=str(action),
                        best=str(best.action),
                        value_played=value_played,
                        value_best=value_best,
                        loss=loss,
                    )
                )
        state = _apply(state, index, text, action)
    return Review(
        rules=rules,
        players=tuple(log.players),
        finished=state.is_terminal,
        decisions=tuple(decisions),
        lost=tuple(lost),
        totals=tuple(state.total(p) for p in range(len(log.players))),
        expected_start=_start_estimate(rules),
        estimated=True,
    )
