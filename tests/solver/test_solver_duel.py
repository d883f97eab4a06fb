"""The win rule (``_kwin``) against a plain recursion, and the duel kernel against the bots and the engine."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from pasch.bots import OptimalBot, WinBot
from pasch.dice import space
from pasch.engine import Game, GameState, Throw
from pasch.rules import RuleSet, column_totals, get
from pasch.solver import Solver, build_values, duel_win_optimal, shared_solver
from pasch.solver._dist import ScoreDistribution
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
        """P(finishing ahead) after an entry leaving column ``nxt`` with ``mine`` points on the sheet."""
        return sum(float(p) * self.target.reach(nxt, t + 1 - mine) for t, p in enumerate(self.w) if p > 0)

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
