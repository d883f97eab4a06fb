"""Mean solo score of each bot in the multi-column games and Knaster, with 95% confidence intervals.

Usage: ``python bench/bots.py [--games 2000] [--seed 0] [--jobs 2] [--only kniffel-4,knaster]``

Game ``g`` of a run uses ``numpy.random.default_rng([seed, g])`` (as ``pasch simulate`` does), so every
bot sees the same dice stream for the same game number. Baselines:

* ``random``: a uniformly random legal action;
* ``greedy``: throws once and takes the entry that pays most now (Knaster: the action that adds most
  points now, circles and forced circles included; ties: the first legal action);
* ``independent``: "independent columns": after the first throw it commits to one column (or one
  announced box), judged by that column's exact table alone, and plays that column's exact policy for
  the rest of the turn;
* ``multi`` / ``knaster``: the bots of :mod:`pasch.bots`.

Targets (seed 003 and 004): kniffel-4 >= 1000, kniffel-3 >= 800, knaster solo >= 80; jetsi is reported.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from pasch.bots import GreedyBot, KnasterBot, MultiColumnBot, RandomBot
from pasch.bots._multi import _Plan
from pasch.dice import space
from pasch.engine import Action, Announce, Circle, Game, GameState, KnasterState, Roll, Score, Write
from pasch.engine._knaster_grid import CELL_LINES, LINE_MASKS, LINES, best_combination, cell_index, line_value

TARGETS = {"kniffel-4": 1000.0, "kniffel-3": 800.0, "knaster": 80.0}
GAMES = {
    "kniffel-4": ("random", "greedy", "independent", "multi"),
    "kniffel-3": ("random", "greedy", "independent", "multi"),
    "jetsi": ("random", "greedy", "independent", "multi"),
    "knaster": ("random", "greedy", "knaster"),
}


class IndependentColumnsBot(MultiColumnBot):
    """Commits to one column after the first throw and plays that column's exact policy."""

    name = "independent"

    def __init__(self) -> None:
        # Plain column tables: no slack for the fixed-order columns, no announced-column correction.
        super().__init__(slack_factor=0.0, announced_slot=0.0)
        self._target: tuple[int, int, int] | None = None  # (turn, player, column)

    def _column_plan(self, state: GameState, turn: dict[str, Any], c: int) -> tuple[_Plan, Any]:
        key = ("column", c)
        if key not in turn["plans"]:
            d, open_boxes = turn["deltas"][c]
            j = d.argmax(axis=2)
            end = np.take_along_axis(d, j[..., None], axis=2)[..., 0]
            turn["plans"][key] = (self._plan(state.rules, end), np.asarray(open_boxes)[j])
        return turn["plans"][key]  # type: ignore[no-any-return]

    def _decide(self, state: GameState) -> Action:
        rules = state.rules
        ann = rules.announced_column
        if state.announced is not None:
            return super()._decide(state)
        turn = self._turn(state)
        sp = space(rules.dice, rules.faces)
        r = sp.roll_index[tuple(sorted(state.dice or ()))]
        s = 1 if rules.sharp and state.sharp else 0
        left = state.throws_left
        if self._target is None or self._target[:2] != (state.turn, state.current):
            best_c, best_v, announce = -1, -1e18, -1
            for c in turn["deltas"]:
                if c == ann:
                    continue
                v = self._column_plan(state, turn, c)[0].reach[left][s, r]
                if v > best_v:
                    best_c, best_v = c, v
            if ann is not None and ann in turn["deltas"] and left == rules.throws - 1:
                for b in turn["deltas"][ann][1]:
                    v = self._announced_plan(state, turn, b).reach[left][s, r]
                    if v > best_v:
                        best_v, announce = v, b
            if announce >= 0:
                return Announce(rules.categories[announce].id)
            self._target = (state.turn, state.current, best_c)
        c = self._target[2]
        plan, boxes = self._column_plan(state, turn, c)
        keep = self._best_keep(state, plan, s, r)
        if keep is not None:
            return keep
        return Score(rules.categories[int(boxes[s, r])].id, c + 1 if rules.n_columns > 1 else None)


class KnasterGreedyBot:
    """The Knaster action that adds the most points now (ties: the first legal action)."""

    name = "greedy"

    def choose(self, state: KnasterState, rng: np.random.Generator) -> Action:
        legal = state.legal_actions()
        kn = state.knaster
        grid = state.grids[state.current]
        best, best_gain = legal[0], -1
        for a in legal:
            gain = 0
            if isinstance(a, Circle):
                i = cell_index(a.cell)
                circled = grid.circled | 1 << i
                gain = 1 + sum(line_value(kn, k) for k in CELL_LINES[i] if circled & LINE_MASKS[k] == LINE_MASKS[k])
            elif isinstance(a, Write):
                i = cell_index(a.cell)
                numbers = list(grid.numbers)
                numbers[i] = a.number
                filled = grid.filled | 1 << i
                for k in CELL_LINES[i]:
                    if filled & LINE_MASKS[k] == LINE_MASKS[k]:
                        gain += best_combination(tuple(sorted(numbers[j] for j in LINES[k])), kn.combinations)[1]
            if gain > best_gain:
                best, best_gain = a, gain
        return best


def make(name: str, game: str) -> Any:
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return KnasterGreedyBot() if game == "knaster" else GreedyBot()
    if name == "independent":
        return IndependentColumnsBot()
    if name == "knaster":
        return KnasterBot()
    return MultiColumnBot()


def run(job: tuple[str, str, int, int, int]) -> tuple[str, str, list[int], float]:
    game_id, bot_name, seed, lo, hi = job
    bot = make(bot_name, game_id)
    scores: list[int] = []
    start = time.perf_counter()
    for g in range(lo, hi):
        rng = np.random.default_rng([seed, g])
        game = Game(game_id, ["bot"], rng=rng)
        while not game.state.is_terminal:
            state = game.state
            action = bot.choose(state, rng)
            if isinstance(state, GameState) and state.dice is None:
                assert isinstance(action, Roll)
            game.act(action)
        scores.append(int(game.state.total(0)))
    return game_id, bot_name, scores, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="seeded solo games per game and bot (default 2000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--only", default="", help="comma-separated games (default: all)")
    args = ap.parse_args(argv)
    games = [g for g in GAMES if not args.only or g in args.only.split(",")]
    chunk = max(1, math.ceil(args.games / max(1, args.jobs)))
    jobs = [
        (g, b, args.seed, lo, min(args.games, lo + chunk))
        for g in games
        for b in GAMES[g]
        for lo in range(0, args.games, chunk)
    ]
    results: dict[tuple[str, str], tuple[list[int], float]] = {}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for g, b, scores, seconds in pool.map(run, jobs):
            old, secs = results.get((g, b), ([], 0.0))
            results[(g, b)] = (old + scores, secs + seconds)
    print(f"{args.games} seeded solo games per row (seed {args.seed}); 95% CI = mean +- 1.96 sd / sqrt(n)")
    print(f"{'game':<10} {'bot':<12} {'mean':>8} {'95% CI':>19} {'sd':>7} {'s/game':>7}  target")
    for g in games:
        for b in GAMES[g]:
            scores, seconds = results[(g, b)]
            a = np.asarray(scores, dtype=np.float64)
            sd = float(a.std(ddof=1)) if len(a) > 1 else 0.0
            half = 1.96 * sd / math.sqrt(len(a))
            target = TARGETS.get(g)
            mark = ""
            if target is not None and b in ("multi", "knaster"):
                gap = a.mean() - target
                mark = f">= {target:g}: {'met' if gap >= 0 else 'missed'} ({gap:+.1f})"
            ci = f"[{a.mean() - half:.1f}, {a.mean() + half:.1f}]"
            print(f"{g:<10} {b:<12} {a.mean():8.1f} {ci:>19} {sd:7.1f} {seconds / len(a):7.3f}  {mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
