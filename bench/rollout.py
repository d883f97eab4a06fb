"""The rollout yardstick of the multi-column games (issue 28, item 1): how far above the current bot good play lies.

Usage: ``python bench/rollout.py [--rules jetsi kniffel-3 kniffel-4] [--games 200] [--seed 2028] [--n 16]
[--k 4] [--margin 15] [--jobs 2] [--first 0] [--dir DIR]``, and ``python bench/rollout.py --report --dir DIR``

With ``--dir`` every game's row (:data:`FIELDS`) is appended, as soon as it ends, to one CSV per configuration
(:func:`csv_name`: the rules and every setting that changes the games), so a run stopped half way keeps what it
played and runs of other game ranges (``--first``) join; ``--report`` prints the table of every CSV there, each
file's games joined by index. Beside each CSV a ``.decisions.jsonl`` file records every decision rolled out (the
sheet, the dice, the candidates with their gains over the base bot's choice, what was played;
:func:`play_logged`): where the rollout disagrees with the base bot, which is what a better bot must learn.
``--report`` sums them up too (:func:`decision_rows`), per kind of decision (kniffel-4's announcements split by
what the bot chose and what the alternative does: announce a box, or the plain play): the alternatives rolled
out, their mean gain over the bot's choice, how many of them lie more than two standard errors of their own
estimate above or below it, and how many would lie above by chance if every alternative were exactly as good as
the bot's choice (2.28 % of them), the reference that says whether the rollout's switches are more than noise.

The **rollout bot** plays like the strongest multi-column bot (:class:`pasch.bots.MultiColumnBot`, "base":
per-column exact values with slack tables and an exact search inside the turn) except where a turn ends:
there every candidate entry (a box of a column) is valued by ``--n`` continuations of the game, each played to
the end by the base bot, and the one with the greatest mean final score is taken. The candidates are the
legal entries whose value under the base bot's evaluation lies within ``--margin`` points of the best, at most
``--k`` of them (the base bot's own choice always among them); a turn with one candidate costs nothing.
Keeps inside the turn and the entry of an announced turn are the base bot's; so are kniffel-4's announcements,
except with ``--announce``: then at every first throw where the announced column is open the options are not
announcing (as the keep or entry the base bot then plays) and announcing each open box, valued by the base bot's
turn plans and chosen among as the entries are (within ``--margin``, at most ``--k``). On the small games of
kniffel-4's shape the announcements are where the bot loses most against exact play (``bench/multi_exact.py``).

**Common random numbers.** Continuation ``i`` of a decision throws from one table of dice drawn from
``default_rng([seed, game, decision, i])`` (``U[turn, throw, die]``: the ``m``-th throw of the ``t``-th turn after
the decision shows the first dice of ``U[t, m]``), the same for every candidate, so candidates are compared on
the same dice and the difference of their means has a far smaller error than either mean.

**Pairing and luck.** Game ``g`` throws from a table of dice drawn from ``default_rng([seed, g])`` in the same
way, for both bots, so the two games of a seed see the same first throw of every turn. Each game is also
reported *luck-adjusted*: minus the luck of every throw, i.e. the value of the turn after the throw under the
base bot's own turn plan less its exact expectation before the throw. Each luck term has mean 0 whatever came
before and whoever decides (``tests/bots/test_rollout_bench.py`` checks the expectations exactly), so the
adjusted total is an unbiased estimate of the bot's expected score that varies about three times less (a
kniffel-3 game: standard deviation about 28 instead of 90); continuations are luck-adjusted the same way.
The table prints each bot's mean and luck-adjusted mean and the paired gain of the rollout bot (adjusted),
each with its standard error (sample standard deviation over the square root of the games), the rollout
games per wall second with ``--jobs`` worker processes, and the decisions rolled out per game. Game indices
``--first`` ... ``--first + --games - 1`` are played, so separate runs can be joined.

The defaults are the full yardstick: 200 games of each game, 16 continuations, up to 4 candidates within
15 points, plain argmax (``--z 0``). It is slow: a continuation is the rest of a game played by the base bot
in Python, so a kniffel-3 rollout game takes about a minute on a busy core.

Measured 2026-11-28 with the bots that ship now (kniffel-3 and jetsi with their learned corrections, kniffel-4
with the announced column's table; ``pasch.bots._multi.TUNED``), seed 2028, N 16, K 4, margin 15, z 0, ``--dir``
and ``--report``, runs of game ranges joined with ``--first``; the rollout processes at ``nice 19`` beside CI runs
and benchmarks and then alone on a shared 2-core machine (load average 1-4):

    rules      games  settings               rollout      adjusted       base      adjusted    gain (adj.)  games/h
    jetsi        200  (entries)            723.1 ±  7.4  735.4 ± 0.9  726.2 ±  7.8  734.0 ± 0.9   +1.4 ± 1.0    39.0
    kniffel-3    200  (entries)            725.8 ±  7.4  727.3 ± 0.9  724.3 ±  7.1  727.2 ± 0.9   +0.1 ± 1.0    75.9
    kniffel-4     52  --announce           959.3 ± 14.0  967.0 ± 3.0  967.5 ± 13.7  976.6 ± 2.1   -9.5 ± 3.3    21.2

    rules      decisions                      games decisions alternatives    alt. - bot > 2 se < -2 se chance
    jetsi      entry                            200      6268        14153   -7.32 ± 0.04    190   10294    323
    kniffel-3  entry                            200      6311        14337   -7.34 ± 0.04    166   10534    327
    kniffel-4  announce: announce -> announce    52       618         1197   -3.14 ± 0.13     15     292     27
    kniffel-4  announce: announce -> plain       52       661          661   -1.06 ± 0.18     27     103     15
    kniffel-4  announce: plain -> announce       52      1544         3575   -5.41 ± 0.08     16    1646     82
    kniffel-4  entry                             52      1485         3298   -7.20 ± 0.10     51    2095     75

(games/h per process from the rollout games' own seconds; about 31 decisions a jetsi or kniffel-3 game rolled out,
72 a kniffel-4 game: 43 announcements and 29 entries.) **On 200 games
each of jetsi and kniffel-3 one step of rollout improvement gains nothing significant**: +1.4 ± 1.0 and +0.1 ± 1.0
points, 95 % upper bounds +3.4 and +2.1 (the 2026-11-26 runs, with the weaker bots of that day, allowed +10). The
decisions say the same: in no kind of decision do more alternatives beat the bot's choice by two standard errors
than chance would give if every alternative were exactly as good (jetsi 190 of 14,153 against 323, kniffel-3 166
of 14,337 against 327; the alternatives lose 7.3 points on average, so even that count is generous). Jetsi's
first 94 games read +2.7 ± 1.3, and most significant switches moved an entry into the free column; a premium for
free-column entries found nothing (``TUNED``'s docstring), and the lead faded to +1.4 ± 1.0 over 200 games. In
kniffel-4 the announcements, where the bot loses most on the small games of its shape, are rolled out too: every
kind of alternative the margin admitted did worse than the bot's choice on average (an announcement instead of the
bot's plain keep or entry by 5.4 points, the plain play instead of its announcement by 1.1, another box instead of
the one it announced by 3.1), and only announce -> plain has a few more significant gains than chance (27 against
15, each estimate's own noise). The rollout bot scores 9.5 ± 3.3 points *less* than the bot: with 72 decisions a
game and 16 continuations each, taking the best-looking of up to four noisy estimates leaves a good choice often
enough to cost points (the winner's curse; ``--z 2`` would only switch on a clear gain). So the rollout finds no
headroom above the current bots; the targets of issue 28 (780 for jetsi, 800 for kniffel-3, 1000 for kniffel-4)
lie about 48, 74 and 20 points above them (731.9, 726.2 and 980.1 over 2,000 games; ``bench/learned.py``).

**Where the rows are kept.** The runs above kept their rows on the machine that played them, and kniffel-4's
``--z 0`` run (68 games, -10.2 +- 2.8 at its end) was lost with that machine. Runs now write to
``bench/results/rollout/`` (``--dir``), whose CSVs are committed as they grow, so a run goes on from another
machine with ``--first`` (the ``.decisions.jsonl`` files, about 38 kB a kniffel-4 game, stay local). kniffel-4's
run there plays ``--announce --z 2``: since taking the best-looking of noisy estimates cost points at ``--z 0``,
the rollout switches only where an alternative's gain exceeds two of its standard errors, so that the noise of
its estimates seldom costs it points. ``--report --dir bench/results/rollout`` prints what it holds. On its first
19 games (2026-11-28, about 3 minutes a game and process when the cores are free) it read +7.1 +- 1.9 points over
the bot; on 95 games (2026-11-29) +2.9 +- 1.4, on 155 games +2.7 +- 1.0, and on all **200 games +2.5 +- 0.9**
(2026-11-29; adjusted, paired: 981.1 +- 1.3 against 978.5 +- 1.3; 10.9 games an hour and process), where
``--z 0`` read -10.2 +- 2.8: switching only on clear gains keeps a little headroom that
switching on every best-looking estimate threw away. The 195 switches of its first 95 games are spread over every
kind of decision (``--report``'s decisions table) and their own estimates add up to 12.9 points a game, four times
what is realised: even at ``--z 2`` most of a selected estimate is selection. A margin against the one kind they
seemed to favour early (the announced column's last box) loses (``TUNED``'s docstring).

Measured 2026-11-26 (seed 2028, K 4, margin 15, z 0, 2 jobs on a shared 2-core machine at load average 4-10;
runs of games 0..n joined with ``--first``; mean ± standard error):

    rules      games   N        rollout       adjusted           base       adjusted    gain (adj.)  s/game
    kniffel-3     60  16    687.4 ± 12.5   708.6 ±  3.5    695.1 ± 11.3   706.3 ±  3.3    +2.4 ± 4.0     67
    kniffel-3     16  64    752.2 ± 27.7   720.8 ±  5.6    732.1 ± 23.5   715.6 ±  5.8    +5.2 ± 5.1     90
    jetsi         60  16    683.6 ± 12.3   713.9 ±  3.9    702.5 ± 10.9   711.2 ±  3.4    +2.7 ± 4.1     44
    kniffel-4     28  16    971.3 ± 24.0   957.0 ±  5.8    948.4 ± 20.6   950.4 ±  5.2    +6.6 ± 5.8     85

About 30 turn ends a game were rolled out. The base bot alone (``--n 0``, games 0..399, luck-adjusted):
kniffel-3 708.6 ± 1.2, jetsi 712.9 ± 1.3, kniffel-4 952.3 ± 1.3 (9, 9 and 2.5 games a second on one core).
No gain is measurable: the rollout's 95 % upper bounds lie about 10 points above the bot (kniffel-3 +10.2,
jetsi +10.7, kniffel-4 +18), far below the targets of issue 28 (800, 780, 1000). Fewer games than the
defaults' 200: that is what fitted on two shared cores in the time.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pasch.bots import MultiColumnBot
from pasch.bots.training import first_throw_mean as _first_throw_mean
from pasch.bots.training import throw_value as _throw_value
from pasch.dice import space
from pasch.engine import Action, Announce, GameState, Keep, Roll, Score, Throw, new_game
from pasch.errors import IllegalActionError
from pasch.rules import RuleSet, get

RULES = ("jetsi", "kniffel-3", "kniffel-4")


@dataclass(frozen=True)
class Config:
    """What one rollout game needs."""

    rules: str
    seed: int
    n: int
    k: int
    margin: float
    z: float
    horizon: int
    announce: bool = False
    """Roll out kniffel-4's announcements too (else they are the base bot's)."""


Decide = Callable[[GameState], tuple[Action, GameState | None]]
"""A decision, and the state after it where the decider made that state already (checking the action's legality,
say); None: :func:`_run` applies the action itself."""


def _run(
    state: GameState,
    dice: np.ndarray,
    decide: Decide,
    judge: MultiColumnBot,
    horizon: int = 0,
    luck: bool = True,
    before: float = 0.0,
    throw: int = 0,
) -> tuple[float, float]:
    """A solo game played from ``state`` to its end by ``decide``: ``(final total, luck)``.

    The ``m``-th throw of the ``t``-th turn from here shows the first dice of ``dice[t, m]``; the rest of a turn
    begun (``state`` within a turn) throws from ``dice[-1]``, its ``m``-th throw ``dice[-1, m]`` (``throw``: the
    throws of this turn made before the next, after a keep; ``before``: that keep's expectation, see below).
    With a ``horizon`` of ``h > 0`` turns the "final total" is :meth:`MultiColumnBot.sheet_value` after ``h`` turns
    (a truncated rollout).

    With ``luck`` the second number sums the luck of every throw: the value of the turn after the throw under
    ``judge``'s turn plan (the base bot's, :func:`_throw_value`) less its exact expectation before the throw.
    Each term has mean 0 whatever happened before and whoever decides, so ``total - luck`` is an unbiased
    estimate of the decider's expected score that varies far less than the total (kniffel-4 from the start:
    a standard deviation of 17 instead of 93).
    """
    turn = -1
    luck_sum = 0.0
    while not state.is_terminal:
        if horizon and turn + 1 >= horizon and state.dice is None and not state.is_chance_node:
            return judge.sheet_value(state), luck_sum
        if state.is_chance_node:
            thrown = state.apply(Throw(tuple(int(x) for x in dice[turn, throw, : state.pending])))
            assert isinstance(thrown, GameState)
            state = thrown
            if luck:
                luck_sum += _throw_value(judge, state) - before
            continue
        if state.dice is None:
            turn += 1
            throw = 0
            if luck:
                before = _first_throw_mean(judge, state)
            state = state.apply(Roll())
            continue
        action, after = decide(state)
        if luck and isinstance(action, Keep):
            before = _keep_value(judge, state, action)
        state = after if after is not None else state.apply(action)
        if isinstance(action, Keep):
            throw += 1
    return float(state.total(0)), luck_sum


def _base_decide(bot: MultiColumnBot) -> Decide:
    """The base bot's decisions, without the legality check of :meth:`MultiColumnBot.choose` where its model
    agrees with the engine (continuations make millions of decisions): the engine's own apply checks the action,
    and the state it made is handed on, so :func:`_run` does not apply the action a second time."""
    legal_check = np.random.default_rng(0)

    def decide(state: GameState) -> tuple[Action, GameState | None]:
        action = bot._decide(state)
        try:
            return action, state.apply(action)
        except IllegalActionError:  # the bot's model disagrees with the engine: its own fallback
            return bot.choose(state, legal_check), None

    return decide


def _finish(
    bot: MultiColumnBot,
    state: GameState,
    dice: np.ndarray,
    horizon: int = 0,
    luck: bool = True,
    before: float = 0.0,
    throw: int = 0,
) -> float:
    """A continuation: the base bot's luck-adjusted final total from ``state`` on ``dice`` (see :func:`_run`)."""
    total, luck_sum = _run(state, dice, _base_decide(bot), bot, horizon, luck, before, throw)
    return total - luck_sum


def _keep_value(bot: MultiColumnBot, state: GameState, keep: Keep) -> float:
    """The base bot's expectation, before the throw, of :func:`_throw_value` after throwing again with ``keep``."""
    rules = state.rules
    turn = bot._turn(state)
    plan = turn["plans"][None] if state.announced is None else bot._announced_plan(state, turn, state.announced)
    k = space(rules.dice, rules.faces).keep_index[keep.dice]
    return float(plan.keeps[state.throws_left][k])


def _candidates(bot: MultiColumnBot, state: GameState, chosen: Action, k: int, margin: float) -> list[Action]:
    """The entries worth rolling out: within ``margin`` points of the best under the base bot's evaluation, at
    most ``k``, the base bot's own choice first."""
    rules = state.rules
    turn = bot._turn(state)
    sp = space(rules.dice, rules.faces)
    r = sp.roll_index[tuple(sorted(state.dice or ()))]
    s = 1 if rules.sharp and state.sharp else 0
    index = {c.id: i for i, c in enumerate(rules.categories)}
    valued: list[tuple[float, Action]] = []
    for a in state.legal_actions():
        if not isinstance(a, Score) or a == chosen:
            continue
        c = (a.column or 1) - 1
        got = turn["deltas"].get(c)
        if got is None or c == rules.announced_column:
            continue
        d, boxes = got
        i = index[a.category]
        if i in boxes:
            valued.append((float(d[min(s, d.shape[0] - 1), r, boxes.index(i)]), a))
    if not valued:
        return [chosen]
    assert isinstance(chosen, Score)
    got = turn["deltas"].get((chosen.column or 1) - 1)
    if got is None or index[chosen.category] not in got[1]:
        return [chosen]  # the base bot's fallback entry: no rollout
    d, boxes = got
    best = float(d[min(s, d.shape[0] - 1), r, boxes.index(index[chosen.category])])
    valued.sort(key=lambda x: -x[0])
    return [chosen] + [a for v, a in valued[: k - 1] if v >= best - margin]


def _announce_candidates(
    bot: MultiColumnBot, state: GameState, chosen: Action, k: int, margin: float
) -> list[Action] | None:
    """At a turn's first throw where kniffel-4's announced column is open: the options worth rolling out, the
    base bot's own ``chosen`` first: not announcing (as the action the base bot then takes: its keep or entry)
    and each box to announce, valued by the bot's turn plans, those within ``margin`` points of the best, at most
    ``k``. None where no announcement can be made here."""
    rules = state.rules
    ann = rules.announced_column
    if ann is None or state.announced is not None or state.throws_left != rules.throws - 1:
        return None
    turn = bot._turn(state)
    if ann not in turn["deltas"]:
        return None
    sp = space(rules.dice, rules.faces)
    r = sp.roll_index[tuple(sorted(state.dice or ()))]
    s = 1 if rules.sharp and state.sharp else 0
    left = state.throws_left
    valued: list[tuple[float, Action]] = []
    free = turn["plans"][None]
    if free is not None:
        plain = bot._best_keep(state, free, s, r) or bot._entry(state, turn, None, s, r)
        valued.append((float(free.reach[left][s, r]), plain))
    for b in turn["deltas"][ann][1]:
        plan = bot._announced_plan(state, turn, b)
        valued.append((float(plan.reach[left][s, r]), Announce(rules.categories[b].id)))
    if all(a != chosen for _, a in valued):  # the bot's fallback (its model disagreed with the engine): no rollout
        return [chosen]
    valued.sort(key=lambda x: -x[0])
    best = valued[0][0]
    others = [a for v, a in valued if a != chosen and v >= best - margin]
    return [chosen, *others[: k - 1]]


def _dice(rules: RuleSet, seed: Sequence[int]) -> np.ndarray:
    """A table of dice ``U[turn, throw, die]`` for a whole game from ``default_rng(seed)``."""
    turns = rules.n_columns * len(rules.categories) + 1
    return np.random.default_rng(list(seed)).integers(1, rules.faces + 1, size=(turns, rules.throws, rules.dice))


def play(cfg: Config, g: int) -> tuple[int, float, float, float, float, int, float]:
    """Game ``g`` by the base bot and by the rollout bot on the same dice (``_dice(rules, [seed, g])``).

    Returns:
        ``(g, base total, base luck, rollout total, rollout luck, decisions rolled out, seconds of the rollout
        game)``.
    """
    return play_logged(cfg, g)[0]


Row = tuple[int, float, float, float, float, int, float]


def play_logged(cfg: Config, g: int) -> tuple[Row, list[dict[str, Any]]]:
    """:func:`play`, and a record of every decision rolled out: the game, the decision's index among the turn
    ends (and, with ``announce``, the first throws where an announcement could be made), its kind, the sheet
    (each column's boxes, None where open), the dice, the candidates (the base bot's choice first) with their
    mean gain over it and its standard error, and what was played."""
    rules = get(cfg.rules)
    dice = _dice(rules, [cfg.seed, g])
    judge = MultiColumnBot()
    start_state = new_game(rules, ["solo"])
    assert isinstance(start_state, GameState)
    base_total, base_luck = _run(start_state, dice, _base_decide(MultiColumnBot()), judge)
    if cfg.n == 0:  # the base bot alone (its luck-adjusted mean on many games, cheaply)
        return (g, base_total, base_luck, base_total, base_luck, 0, 0.0), []

    start = time.perf_counter()
    bot = MultiColumnBot()
    sim = MultiColumnBot()  # the continuations' own (its per-sheet cache sees their sheets)
    counts = [0, 0]  # decisions at a turn's end, rolled out
    records: list[dict[str, Any]] = []

    def decide(state: GameState) -> tuple[Action, GameState | None]:
        return choose(state), None

    def choose(state: GameState) -> Action:
        action = bot.choose(state, np.random.default_rng(0))
        got = _announce_candidates(bot, state, action, cfg.k, cfg.margin) if cfg.announce else None
        announcing = got is not None
        if got is None:
            if not isinstance(action, Score) or state.announced is not None:
                return action
            got = _candidates(bot, state, action, cfg.k, cfg.margin)
        cands = got
        decision = counts[0]
        counts[0] += 1
        if len(cands) == 1:
            return cands[0]
        counts[1] += 1
        # Each candidate's state, and where it is within the turn (an announcement, or not announcing and keeping):
        # its next throws come from table[-1], and after a keep the throw's luck is measured from the keep's
        # expectation, as in _run. The same for every continuation.
        starts = []
        for a in cands:
            after = state.apply(a)
            assert isinstance(after, GameState)
            if isinstance(a, Keep):
                starts.append((after, _keep_value(sim, state, a), 1))
            else:
                starts.append((after, 0.0, 0))
        totals = np.zeros((cfg.n, len(cands)))
        for i in range(cfg.n):
            table = _dice(rules, [cfg.seed, g, decision, i])
            for j, (after, before, throw) in enumerate(starts):
                totals[i, j] = _finish(sim, after, table, cfg.horizon, True, before, throw)
        diff = totals[:, 1:] - totals[:, :1]  # each candidate against the base bot's choice, paired
        gain = diff.mean(axis=0)
        se = diff.std(axis=0, ddof=1) / math.sqrt(cfg.n) if cfg.n > 1 else np.zeros_like(gain)
        j = int(np.argmax(gain))
        chosen: Action = action
        if gain[j] > cfg.z * se[j] and gain[j] > 0:  # with z > 0 only a clear gain leaves the base choice
            chosen = cands[j + 1]
        records.append(
            {
                "game": g,
                "decision": decision,
                "kind": "announce" if announcing else "entry",
                "sheet": [list(c.scores) for c in state.sheets[state.current].columns],
                "dice": list(state.dice or ()),
                "candidates": [str(a) for a in cands],
                "gain": [0.0, *(round(float(x), 3) for x in gain)],
                "se": [0.0, *(round(float(x), 3) for x in se)],
                "played": str(chosen),
            }
        )
        return chosen

    total, luck = _run(start_state, dice, decide, judge)
    return (g, base_total, base_luck, total, luck, counts[1], time.perf_counter() - start), records


FIELDS = ("game", "base", "base_luck", "rollout", "rollout_luck", "rolled", "seconds")
"""The columns of a ``--dir`` CSV: one row per game, as :func:`play` returns it."""


def csv_name(cfg: Config) -> str:
    """The CSV of a configuration under ``--dir``: its rules and every setting that changes the games."""
    name = f"{cfg.rules}.seed{cfg.seed}.n{cfg.n}.k{cfg.k}.m{cfg.margin:g}.z{cfg.z:g}.h{cfg.horizon}"
    return name + (".ann.csv" if cfg.announce else ".csv")


def read_rows(path: Path) -> dict[int, tuple[float, ...]]:
    """The games of a ``--dir`` CSV by index (a game played twice counts once: the later row)."""
    with path.open(newline="") as fh:
        return {int(r["game"]): tuple(float(r[k]) for k in FIELDS[1:]) for r in csv.DictReader(fh)}


def _mean_se(x: np.ndarray) -> tuple[float, float]:
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.nan


def summarize(rid: str, rows: np.ndarray, rate: float) -> tuple[Any, ...]:
    """A table row from per-game rows (the columns of :data:`FIELDS` after ``game``)."""
    base, base_adj = rows[:, 0], rows[:, 0] - rows[:, 1]
    roll, roll_adj = rows[:, 2], rows[:, 2] - rows[:, 3]
    return (
        rid,
        len(rows),
        _mean_se(roll),
        _mean_se(roll_adj),
        _mean_se(base),
        _mean_se(base_adj),
        _mean_se(roll_adj - base_adj),
        rate,
        float(rows[:, 4].mean()),
    )


def print_table(rows: list[tuple[Any, ...]], labels: list[str], rate_label: str) -> None:
    """The table of :func:`summarize`'s rows, each labelled with its settings."""
    width = max(12, *(len(label) for label in labels))
    print(
        f"\n{'rules':10} {'games':>5} {'settings':>{width}}  {'rollout':>13} {'adjusted':>13}  "
        f"{'base':>13} {'adjusted':>13}  {'gain (adj.)':>13} {rate_label:>8} {'rolled':>6}"
    )
    for (rid, n, roll_ms, roll_adj_ms, base_ms, base_adj_ms, diff_ms, rate, rolled), label in zip(
        rows, labels, strict=True
    ):
        cells = "  ".join(f"{m:7.1f} ± {e:4.1f}" for m, e in (roll_ms, roll_adj_ms, base_ms, base_adj_ms))
        cells += f"  {diff_ms[0]:+7.1f} ± {diff_ms[1]:4.1f}"
        speed = f"{rate:8.4f}" if rate < 100 else f"{rate:8.1f}"
        print(f"{rid:10} {n:5d} {label:>{width}}  {cells} {speed} {rolled:6.1f}")


def report(folder: Path) -> None:
    """The table of every configuration's CSV under ``folder`` (runs joined by game index)."""
    rows, labels = [], []
    for path in sorted(folder.glob("*.csv")):
        got = read_rows(path)
        if not got:
            continue
        a = np.array([got[g] for g in sorted(got)])
        rid, _, settings = path.name[: -len(".csv")].partition(".")
        rows.append(summarize(rid, a, 3600 / float(a[:, 5].mean())))
        labels.append(settings)
    if not rows:
        raise SystemExit(f"no rollout results under {folder}")
    print_table(rows, labels, "games/h")
    print(
        "(each file's games joined by index; games/h: one process, from the rollout games' own seconds; mean ± "
        f"standard error; adjusted: minus each throw's luck under the base bot's turn values; load average now "
        f"{os.getloadavg()[0]:.1f})"
    )


def read_decisions(path: Path) -> list[dict[str, Any]]:
    """The decision records of a ``.decisions.jsonl`` file, a game played twice counting once (its later run: a
    game's records start again at decision 0)."""
    games: dict[int, list[dict[str, Any]]] = {}
    with path.open() as fh:
        for line in fh:
            rec = json.loads(line)
            got = games.setdefault(int(rec["game"]), [])
            if got and rec["decision"] <= got[-1]["decision"]:
                got.clear()
            got.append(rec)
    return [rec for g in sorted(games) for rec in games[g]]


def _family(action: str) -> str:
    """What an alternative does, coarsely: ``announce`` a box, or the ``plain`` play (a keep or an entry)."""
    return "announce" if action.startswith("announce") else "plain"


def decision_rows(records: list[dict[str, Any]]) -> list[tuple[str, int, int, tuple[float, float], int, int, int]]:
    """Per kind of decision and of alternative (``entry``; ``announce``: the bot's choice and the alternative,
    each ``announce`` or ``plain``): (label, decisions, alternatives rolled out, mean gain of an alternative over
    the bot's choice with its standard error across alternatives, alternatives better by more than two standard
    errors of their own estimate, worse by as much, decisions where the rollout left the bot's choice)."""
    groups: dict[str, list[tuple[float, float]]] = {}
    decisions: dict[str, set[tuple[int, int]]] = {}
    switched: dict[str, set[tuple[int, int]]] = {}
    for rec in records:
        key = (int(rec["game"]), int(rec["decision"]))
        base = rec["candidates"][0]
        kind = rec.get("kind", "entry")  # the first records, before announcements were rolled out, have none
        for alt, gain, se in zip(rec["candidates"][1:], rec["gain"][1:], rec["se"][1:], strict=True):
            label = kind if kind != "announce" else f"announce: {_family(base)} -> {_family(alt)}"
            groups.setdefault(label, []).append((float(gain), float(se)))
            decisions.setdefault(label, set()).add(key)
            if rec["played"] != base:
                switched.setdefault(label, set()).add(key)
    out = []
    for label in sorted(groups):
        pairs = np.array(groups[label])
        gains, ses = pairs[:, 0], pairs[:, 1]
        out.append(
            (
                label,
                len(decisions[label]),
                len(pairs),
                _mean_se(gains),
                int(np.sum(gains > 2 * ses)),
                int(np.sum(gains < -2 * ses)),
                len(switched.get(label, ())),
            )
        )
    return out


def print_decisions(folder: Path) -> None:
    """The table of :func:`decision_rows` for every ``.decisions.jsonl`` under ``folder``."""
    print(
        f"\n{'rules':10} {'decisions':30} {'games':>5} {'decisions':>9} {'alternatives':>12} "
        f"{'alt. - bot':>13} {'> 2 se':>6} {'< -2 se':>7} {'chance':>6} {'switched':>8}"
    )
    for path in sorted(folder.glob("*.decisions.jsonl")):
        records = read_decisions(path)
        if not records:
            continue
        rid = path.name.partition(".")[0]
        games = len({rec["game"] for rec in records})
        for label, n, alts, (mean, se), better, worse, moved in decision_rows(records):
            print(
                f"{rid:10} {label:30} {games:5d} {n:9d} {alts:12d} {mean:+7.2f} ± {se:4.2f} {better:6d} {worse:7d} "
                f"{0.0228 * alts:6.0f} {moved:8d}"
            )
    print(
        "(alt. - bot: the mean gain of an alternative over the base bot's choice, ± its standard error across the "
        "alternatives; > 2 se / < -2 se: alternatives whose own estimate is that far above / below the bot's choice; "
        "chance: how many would lie above two standard errors if every alternative were exactly as good as the "
        "bot's choice (2.28 % of them); switched: decisions where the rollout played an alternative)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=list(RULES), choices=RULES)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="index of the first game")
    ap.add_argument("--seed", type=int, default=2028)
    ap.add_argument("--n", type=int, default=16, help="continuations per candidate (0: the base bot alone)")
    ap.add_argument("--k", type=int, default=4, help="most candidates per decision")
    ap.add_argument("--margin", type=float, default=15.0, help="points behind the best a candidate may lie")
    ap.add_argument("--z", type=float, default=0.0, help="switch only when the gain exceeds z standard errors")
    ap.add_argument("--horizon", type=int, default=0, help="turns per continuation, then the bot's estimate (0: all)")
    ap.add_argument(
        "--announce", action="store_true", help="kniffel-4: roll out the announcements too (else the base bot's)"
    )
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--verbose", action="store_true", help="a line per game")
    ap.add_argument("--dir", type=Path, default=None, help="append a CSV row per game here (runs join by game)")
    ap.add_argument("--report", action="store_true", help="print the table of what is in --dir and stop")
    args = ap.parse_args()
    if args.games < 1 or args.first < 0 or args.n < 0 or args.k < 1 or args.jobs < 1 or args.horizon < 0:
        ap.error("--games, --k and --jobs must be positive; --first, --n and --horizon not negative")
    if args.report:
        if args.dir is None:
            ap.error("--report reads --dir")
        report(args.dir)
        print_decisions(args.dir)
        return
    rows, labels = [], []
    for rid in args.rules:
        cfg = Config(rid, args.seed, args.n, args.k, args.margin, args.z, args.horizon, args.announce)
        start = time.perf_counter()
        games = range(args.first, args.first + args.games)
        out = log = None
        if args.dir is not None:
            args.dir.mkdir(parents=True, exist_ok=True)
            path = args.dir / csv_name(cfg)
            new = not path.exists()
            out = path.open("a", newline="")
            log = path.with_suffix(".decisions.jsonl").open("a")
            writer = csv.writer(out)
            if new:
                writer.writerow(FIELDS)
        try:
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                results = []
                for got, records in pool.map(play_logged, [cfg] * len(games), games):
                    results.append(got)
                    if out is not None and log is not None:
                        g, b, bl, r, rl, n, sec = got
                        writer.writerow([g, b, f"{bl:.4f}", r, f"{rl:.4f}", n, f"{sec:.2f}"])
                        out.flush()  # a rollout game takes minutes: every one is kept at once
                        log.writelines(json.dumps(rec) + "\n" for rec in records)
                        log.flush()
                    if args.verbose:
                        g, b, bl, r, rl, n, sec = got
                        print(
                            f"{rid} game {g}: base {b:.0f} (adjusted {b - bl:.1f}), rollout {r:.0f} "
                            f"(adjusted {r - rl:.1f}), {n} decisions rolled out, {sec:.1f} s",
                            flush=True,
                        )
        finally:
            for fh in (out, log):
                if fh is not None:
                    fh.close()
        wall = time.perf_counter() - start
        rows.append(summarize(rid, np.array([r[1:] for r in results], float), len(results) / wall))
        labels.append(csv_name(cfg)[len(rid) + 1 : -len(".csv")])
    print_table(rows, labels, "games/s")
    print(
        f"(games {args.first}..{args.first + args.games - 1}, margin {args.margin:g}, z {args.z:g}, "
        f"horizon {args.horizon or 'end of game'}, jobs {args.jobs}, load average {os.getloadavg()[0]:.1f}; "
        "mean ± standard error; adjusted: minus each throw's luck under the base bot's turn values; "
        "rolled: decisions rolled out per game)"
    )


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # the reader stopped early (``--report | head``): not an error of the run
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        raise SystemExit(1) from None
