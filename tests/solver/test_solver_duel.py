"""The win rule (``_kwin``) against a plain recursion, and the duel kernel against the bots and the engine."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from pasch.bots import OptimalBot, WinBot
from pasch.dice import space
from pasch.engine import Game, GameState, Keep, Score, Throw
from pasch.rules import RuleSet, column_totals, get
from pasch.solver import Solver, build_values, duel_win_optimal, shared_solver
from pasch.solver._dist import ScoreDistribution, score_distribution
from pasch.solver._duel import duel_decision, duel_trace
from pasch.solver._target import TargetTable, build_target

from ._reference import Scores, entries
from .test_solver_reference import SMALL
from .test_solver_target import TargetReference

TOL = 1e-9
SOME = [r for r in SMALL if r.id in ("bonus", "forced-joker", "sharp-free")]


class WinReference:
    """The win rule by recursion: entries valued by weighted threshold probabilities, the turn by E[value]."""

    def __init__(self, rules: RuleSet, opponents: list[ScoreDistribution]) -> None:
        self.rules = rules
        self.sp = space(rules.dice, rules.faces)
        self.target = TargetReference(rules)
        top = max(d.offset + len(d.probs) for d in opponents)
        cdf = np.ones(top + 1)
        for d in opponents:
            cdf *= np.array([d.p_at_least(int(x) + 1) for x in range(top + 1)]) * -1.0 + 1.0
        self.w = np.maximum(np.diff(np.concatenate(([0.0], cdf))), 0.0)

    def entry(self, nxt: Scores, mine: int) -> float:
        """P(finishing ahead) after an entry leaving column ``nxt`` with ``mine`` points on the sheet, a tie
        with the best opponent counting half."""
        return sum(
            float(p) * (self.target.reach(nxt, t + 1 - mine) + self.target.reach(nxt, t - mine)) / 2
            for t, p in enumerate(self.w)
            if p > 0
        )

    def turn(self, scores: Scores, extra: int) -> Any:
        rules = self.rules
        mine = column_totals(rules, scores, extra).total

        def stop(roll: tuple[int, ...], sharp: bool) -> float:
            ents = entries(rules, scores, roll, sharp and rules.sharp)
            return max(self.entry(nxt, mine + int(g)) for g, nxt in ents)

        def keep_value(keep: tuple[int, ...], rolls_left: int) -> float:
            return sum(float(p) * hold(r, rolls_left, len(keep) == 0) for r, p in self.sp.outcomes_of_keep(keep))

        def hold(roll: tuple[int, ...], rolls_left: int, sharp: bool) -> float:
            best = stop(roll, sharp)
            if rolls_left > 0:
                for k in self.sp.sub_keeps(roll):
                    if len(k) < len(roll):
                        best = max(best, keep_value(k, rolls_left - 1))
            return best

        hold.keep_value = keep_value  # type: ignore[attr-defined]
        hold.stop = stop  # type: ignore[attr-defined]
        return hold


def _random_column(rules: RuleSet, rng: random.Random, filled: int) -> Scores:
    scores: Scores = (None,) * len(rules.categories)
    for _ in range(filled):
        roll = rng.choice(space(rules.dice, rules.faces).rolls)
        scores = rng.choice(entries(rules, scores, roll, False))[1]
    return scores


@pytest.mark.parametrize("rules", SOME, ids=lambda r: r.id)
def test_win_options_match_the_recursive_win_rule(rules: RuleSet) -> None:
    solver = Solver(rules, build_values(rules, np.float64))
    theta, sidx = build_target(solver.prep, np.float64)
    table = TargetTable(solver, theta, sidx)
    rng = random.Random(rules.id)
    n = len(rules.categories)
    undecided = 0  # options whose value is neither 0 nor 1: the weighting is exercised
    for filled in (n - 1, n - 2, n - 3):
        scores = _random_column(rules, rng, filled)
        mine = column_totals(rules, scores).total
        # two opponents with spread-out laws around this player's total
        opponents = []
        for _ in range(2):
            probs = np.array([rng.random() for _ in range(rng.randint(3, 12))])
            opponents.append(ScoreDistribution(probs / probs.sum(), max(0, mine + rng.randint(-5, 40))))
        ref = WinReference(rules, opponents)
        hold = ref.turn(scores, 0)
        for roll in rng.sample(space(rules.dice, rules.faces).rolls, 3):
            for rolls_left in range(rules.throws):
                for sharp in (False, True) if rules.sharp else (False,):
                    opts = table.win_options(scores, roll, rolls_left, opponents, sharp=sharp)
                    assert opts[0].probability == pytest.approx(hold(roll, rolls_left, sharp), abs=TOL)
                    for o in opts:
                        if o.kind == "keep":
                            want = hold.keep_value(o.keep, rolls_left - 1)
                        else:
                            i = rules.category_index(o.category or "")
                            ents = {nxt: g for g, nxt in entries(rules, scores, roll, sharp and rules.sharp)}
                            nxt = next(c for c in ents if c[i] is not None and scores[i] is None)
                            want = ref.entry(nxt, mine + int(ents[nxt]))
                        assert o.probability == pytest.approx(want, abs=TOL), (scores, roll, rolls_left, o)
                        undecided += 0.01 < o.probability < 0.99
    assert undecided > 10


def _kernel_text(solver: Solver, box: int, keep: int) -> str:
    if box >= 0:
        return f"score {solver.rules.categories[box].id}"
    sp = space(solver.rules.dice, solver.rules.faces)
    return " ".join(["keep", *(str(d) for d in sp.keeps[keep])])


def _seat_state(solver: Solver, state: GameState, player: int) -> tuple[int, int, int, int]:
    col = state.sheets[player].columns[0]
    key = solver.state_key(col.scores)
    return key.mask, key.flag, key.upper, state.total(player)


@pytest.mark.parametrize("rules", [*SOME, get("yahtzee+forced")], ids=lambda r: r.id)
def test_kernel_decisions_equal_the_bots(rules: RuleSet, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """On many situations of random two-player games the kernel decides as WinBot and OptimalBot do."""
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path))
    solver = shared_solver(rules)
    sp = space(rules.dice, rules.faces)
    bots = [WinBot(), OptimalBot()]
    rng = np.random.default_rng(7)
    checked = [0, 0]
    for g in range(6):
        game = Game(rules, ["w", "o"], rng=rng)
        win_seat = g % 2  # the win bot sits in seat 0 or 1 of the engine's game
        while not game.state.is_terminal:
            st = game.state
            assert isinstance(st, GameState)
            me = st.current_player
            seat = 0 if me == win_seat else 1
            action = bots[seat].choose(st, rng)
            if st.dice is not None:
                states = (_seat_state(solver, st, win_seat), _seat_state(solver, st, 1 - win_seat))
                roll = sp.roll_index[tuple(sorted(st.dice))]
                box, keep = duel_decision(solver, seat, states, roll, st.throws_left, st.sharp)
                assert _kernel_text(solver, box, keep) == str(action), (g, st.to_text(), seat)
                checked[seat] += 1
            if st.dice is not None and rng.random() < 0.3:  # wander off the bots' paths now and then
                action = st.legal_actions()[int(rng.integers(len(st.legal_actions())))]
            game.act(action)
    assert min(checked) > 20


def test_kernel_games_replay_in_the_engine(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every throw, keep and entry of kernel games is legal, and the engine's totals are the kernel's."""
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path))
    for rules in (SOME[1], SOME[2], get("yahtzee+forced")):
        solver = shared_solver(rules)
        sp = space(rules.dice, rules.faces)
        stages = rules.throws - 1
        totals, trace = duel_trace(solver, 4, seed=11)
        for g in range(4):
            win_engine = 0 if g % 2 == 0 else 1  # the win seat starts the even games
            state = GameState.new(rules, ["a", "b"])
            for turn in trace[g]:
                state = state.apply("roll")
                kept: tuple[int, ...] = ()
                k = 0
                while True:
                    dice = sp.rolls[int(turn[k])]
                    thrown = list(dice)
                    for d in kept:
                        thrown.remove(d)
                    state = state.apply(Throw(tuple(thrown)))
                    keep = int(turn[stages + 1 + k])
                    if keep < 0:
                        break
                    kept = sp.keeps[keep]
                    state = state.apply(" ".join(["keep", *(str(d) for d in kept)]))
                    k += 1
                state = state.apply(f"score {rules.categories[int(turn[-1])].id}")
            assert state.is_terminal
            assert (state.total(win_engine), state.total(1 - win_engine)) == tuple(totals[g]), (rules.id, g)


def test_duel_results_do_not_depend_on_threads_or_chunks(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path))
    solver = shared_solver(SOME[0])
    one = duel_win_optimal(solver, 40, seed=3, threads=1)
    assert one.shape == (40, 2)
    assert np.array_equal(duel_win_optimal(solver, 40, seed=3, threads=2), one)
    parts = [duel_win_optimal(solver, 15, seed=3, start=0), duel_win_optimal(solver, 25, seed=3, start=15)]
    assert np.array_equal(np.concatenate(parts), one)
    other = duel_win_optimal(solver, 40, seed=4)
    assert not np.array_equal(other, one)
    with pytest.raises(ValueError, match="negative"):
        duel_win_optimal(solver, -1, seed=0)


# --- tables of three and more: one win seat against the best of several optimal seats ---------------


def _play_table(rules: RuleSet, players: int, seed: int, check: Any) -> int:
    """Engine games with WinBot in seat ``g % players``; ``check(state, win_seat, action)`` at its decisions."""
    bots: dict[str, Any] = {"win": WinBot(), "optimal": OptimalBot()}
    rng = np.random.default_rng(seed)
    checked = 0
    for g in range(4):
        game = Game(rules, [f"p{i}" for i in range(players)], rng=rng)
        win_seat = g % players
        while not game.state.is_terminal:
            st = game.state
            assert isinstance(st, GameState)
            action = bots["win" if st.current_player == win_seat else "optimal"].choose(st, rng)
            if st.dice is not None and st.current_player == win_seat:
                check(st, win_seat, action)
                checked += 1
            if st.dice is not None and rng.random() < 0.3:  # wander off the bots' paths now and then
                action = st.legal_actions()[int(rng.integers(len(st.legal_actions())))]
            game.act(action)
    return checked


@pytest.mark.parametrize("players", [3, 4])
def test_kernel_decides_as_win_bot_at_a_table(players: int, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """At tables of 3 and 4 the kernel's win seat decides as WinBot does, against the best of the others."""
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path))
    rules = SOME[1]
    solver = shared_solver(rules)
    sp = space(rules.dice, rules.faces)

    def check(st: GameState, win_seat: int, action: Any) -> None:
        others = [p for p in range(players) if p != win_seat]
        states = tuple(_seat_state(solver, st, p) for p in (win_seat, *others))
        roll = sp.roll_index[tuple(sorted(st.dice or ()))]
        box, keep = duel_decision(solver, 0, states, roll, st.throws_left, st.sharp)
        assert _kernel_text(solver, box, keep) == str(action), (st.to_text(), win_seat)

    assert _play_table(rules, players, 5, check) > 20


class BlendReference(WinReference):
    """The win rule of ``bot:win`` by brute force: the threshold recursion's value blended with the same sum over
    the exact final-score distribution of expected-score play from the next sheet (``_kwin._alpha``)."""

    def __init__(
        self,
        rules: RuleSet,
        opponents: list[ScoreDistribution],
        solver: Solver,
        target: TargetReference,
        dists: dict[Scores, ScoreDistribution],
    ) -> None:
        super().__init__(rules, opponents)
        self.target = target  # shared: its recursion is cached across positions
        self.solver = solver
        self.dists = dists

    def entry(self, nxt: Scores, mine: int) -> float:
        from pasch.solver._kwin import BLEND

        hi = super().entry(nxt, mine)
        n = len(self.rules.categories)
        left = sum(s is None for s in nxt)
        alpha = 1.0 - BLEND * left / (n - 1) if left > 0 else 1.0
        if nxt not in self.dists:
            self.dists[nxt] = score_distribution(self.solver, list(nxt), use_cache=False)
        d = self.dists[nxt]
        now = column_totals(self.rules, nxt).total

        def surv(q: int) -> float:  # P(at least q more points under expected-score play)
            return 1.0 if q <= 0 else d.p_at_least(now + q)

        lo = sum(float(p) * (surv(t + 1 - mine) + surv(t - mine)) / 2 for t, p in enumerate(self.w) if p > 0)
        return alpha * hi + (1 - alpha) * lo


def test_three_player_win_decision_matches_a_brute_force_reference(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """WinBot's decision at a table of three is a best option of the win rule computed by brute force: the
    opponents' law is the maximum of their exact final-score distributions, entries blend the threshold
    recursion with exact expected-score distributions, the turn is a recursion over every throw and keep."""
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path))
    rules = SOME[0]
    solver = shared_solver(rules)
    refs: dict[tuple[Any, ...], tuple[BlendReference, Any]] = {}
    target = TargetReference(rules)
    dists: dict[Scores, ScoreDistribution] = {}
    seen = [0, 0]

    def check(st: GameState, win_seat: int, action: Any) -> None:
        col = st.sheets[win_seat].columns[0]
        others = [st.sheets[p].columns[0] for p in range(3) if p != win_seat]
        key = (col.scores, tuple((c.scores, c.extra) for c in others))
        if key not in refs:
            opp = [score_distribution(solver, list(c.scores), extra=c.extra, use_cache=False) for c in others]
            ref = BlendReference(rules, opp, solver, target, dists)
            refs[key] = (ref, ref.turn(col.scores, col.extra))
        ref, hold = refs[key]
        dice = tuple(sorted(st.dice or ()))
        sharp = bool(st.sharp) and rules.sharp
        best = hold(dice, st.throws_left, sharp)
        if isinstance(action, Keep):
            got = hold.keep_value(tuple(sorted(action.dice)), st.throws_left - 1)
        else:
            assert isinstance(action, Score)
            ents = {nxt: g for g, nxt in entries(rules, col.scores, dice, sharp)}
            i = rules.category_index(action.category)
            nxt = next(c for c in ents if c[i] is not None and col.scores[i] is None)
            got = ref.entry(nxt, column_totals(rules, col.scores, col.extra).total + int(ents[nxt]))
        # the bot's option is a best one of the reference (its tables are uint16: within their rounding)
        assert got == pytest.approx(best, abs=2e-4), (st.to_text(), action)
        seen[0] += 1
        seen[1] += 0.01 < best < 0.99

    _play_table(rules, 3, 11, check)
    assert seen[0] > 20 and seen[1] > 10


def test_best_of_is_the_maximum_of_independent_opponents(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The law of the best opponent (``best_of``, the kernel's ``_opp_weights``) is the distribution of the
    maximum of the opponents' exact final scores, enumerated pair by pair (and triple by triple)."""
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path))
    from pasch.solver import win_pair

    rules = SOME[1]
    solver = shared_solver(rules)
    surv = win_pair(solver)[1]
    rng = random.Random(3)
    n = len(rules.categories)
    for k in (1, 2, 3):
        cols = [_random_column(rules, rng, rng.randint(0, n - 1)) for _ in range(k)]
        dists = [score_distribution(solver, list(c), use_cache=False) for c in cols]
        # every combination of the opponents' final scores, its probability and its maximum
        grids = np.meshgrid(*(d.scores for d in dists), indexing="ij")
        probs = np.meshgrid(*(d.probs for d in dists), indexing="ij")
        top = np.maximum.reduce([g.ravel() for g in grids])
        weight = np.multiply.reduce([p.ravel() for p in probs])
        law = dict(enumerate(np.bincount(top, weights=weight)))
        base, w = surv.best_of([(c, 0) for c in cols])
        assert base == max(d.offset for d in dists)
        for j, p in enumerate(w):
            assert p == pytest.approx(law.get(base + j, 0.0), abs=3e-4), (k, base + j)
        assert sum(w) == pytest.approx(1.0, abs=1e-3)


def test_kernel_games_of_three_replay_in_the_engine(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games of 3 and 4 players from the kernel are legal in the engine, with the kernel's totals; the win
    seat sits in every position in turn."""
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path))
    rules = SOME[2]
    solver = shared_solver(rules)
    sp = space(rules.dice, rules.faces)
    stages = rules.throws - 1
    for players in (3, 4):
        totals, trace = duel_trace(solver, players, seed=13, players=players)
        assert totals.shape == (players, players)
        for g in range(players):
            first = g % players  # kernel seat that starts game g (seat 0: the win seat)
            order = [(first + i) % players for i in range(players)]  # engine seat i = kernel seat order[i]
            state = GameState.new(rules, [f"s{i}" for i in range(players)])
            for turn in trace[g]:
                state = state.apply("roll")
                kept: tuple[int, ...] = ()
                k = 0
                while True:
                    thrown = list(sp.rolls[int(turn[k])])
                    for d in kept:
                        thrown.remove(d)
                    state = state.apply(Throw(tuple(thrown)))
                    keep = int(turn[stages + 1 + k])
                    if keep < 0:
                        break
                    kept = sp.keeps[keep]
                    state = state.apply(" ".join(["keep", *(str(d) for d in kept)]))
                    k += 1
                state = state.apply(f"score {rules.categories[int(turn[-1])].id}")
            assert state.is_terminal
            got = [0] * players
            for i in range(players):
                got[order[i]] = state.total(i)
            assert tuple(got) == tuple(totals[g]), (players, g)
    with pytest.raises(ValueError, match="2 to 8"):
        duel_win_optimal(solver, 2, seed=0, players=9)


def test_win_entries_blend_the_threshold_and_survival_tables(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """With its survival table attached (``win_pair``), an entry is worth ``alpha`` times its value under the
    threshold table plus ``1 - alpha`` times its value under the survival table, ``alpha`` shrinking with
    the boxes still open after the entry (``_kwin._alpha``)."""
    monkeypatch.setenv("PASCH_CACHE_DIR", str(tmp_path))
    from pasch.solver import win_pair
    from pasch.solver._kwin import BLEND

    rules = SOME[1]
    solver = shared_solver(rules)
    target, surv = win_pair(solver)
    assert target.survival is surv
    plain = TargetTable(solver, target.theta, target.sidx)
    pessimist = TargetTable(solver, surv.theta, surv.sidx)
    rng = random.Random(5)
    n = len(rules.categories)
    checked = 0
    for filled in (0, 1, n // 2, n - 2, n - 1):
        scores = _random_column(rules, rng, filled)
        base, w = surv.best_of([(_random_column(rules, rng, filled), 0)])
        alpha = 1.0 - BLEND * (n - filled - 1) / (n - 1)
        roll = rng.choice(space(rules.dice, rules.faces).rolls)
        got = {o.action_text: o.probability for o in target.win_options_weights(scores, roll, 0, w, base)}
        hi = {o.action_text: o.probability for o in plain.win_options_weights(scores, roll, 0, w, base)}
        lo = {o.action_text: o.probability for o in pessimist.win_options_weights(scores, roll, 0, w, base)}
        for text, p in got.items():
            assert p == pytest.approx(alpha * hi[text] + (1 - alpha) * lo[text], abs=1e-12), (filled, text)
            checked += 1
    assert checked > 10
