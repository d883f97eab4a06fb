"""The level of the multi-column bot's estimates, calibrated on self-play (issue 28, item 4).

The multi-column bot (:mod:`pasch.bots._multi`) ranks a decision's options by its estimate of the final total
after each (:meth:`MultiColumnBot.rank`): points, exact per-column values at a credited slack, the announced
column's table and the learned correction scaled by its damping. Those values rank options well, but their
level is off: from the empty sheet the shipped bot estimated 696.9 (Jetsi), 694.0 (kniffel-3) and 1015.9
(kniffel-4) where it scores 731.9, 726.2 and 980.1. Advice (:func:`pasch.app.advise`) and the review show the
estimates as expected final totals, so their level is what a player reads.

A calibration is one offset per number of boxes filled on the deciding player's sheet (all columns
together): the mean, over seeded solo games of the bot, of the *luck-adjusted* return from a decision less
the bot's estimate of the option it chose there, over the decisions with that many boxes filled and two or
more columns open. The luck-adjusted return is the final total less the luck of every later throw, as in
:mod:`pasch.bots._train` (a throw's luck is its turn's value after it under the plain bot's plan less its
expectation before; its mean is zero whatever the decider does, so the return stays unbiased with a third
of the spread). Added alike to every option of a decision, the offset moves their level only: the ranking,
the "−x.x vs best" and the bot's play do not change. Where at most one column is open the estimate is the
exact column value and nothing is added; a filled count with fewer than :data:`MIN_SAMPLES` decisions keeps
offset 0.

Offsets ship as ``pasch/bots/data/<rules>.offsets.json`` (``pasch calibrate`` writes them): the offsets and
their standard errors, the command and seed that made them, the bot settings and the learned model (its
checksum) they were measured with, and a SHA-256 over the rest. :func:`load_calibration` refuses a file whose
checksum does not match, or one measured for other settings or another model (the level it corrects is
then not this bot's): :class:`pasch.errors.ModelFileError`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pasch.bots._multi import MultiColumnBot
from pasch.bots._sheetvalue import data_file, load_model, read_checked, write_checked
from pasch.engine import Action, GameState
from pasch.errors import ModelFileError
from pasch.rules import RuleSet, get

__all__ = [
    "MIN_SAMPLES",
    "Calibration",
    "CalibrationResult",
    "calibration_path",
    "filled_boxes",
    "load_calibration",
    "measure",
    "read_calibration",
    "save_calibration",
    "settings_record",
]

FORMAT = 1
MIN_SAMPLES = 100
"""Decisions a filled count needs for its offset to be measured (else 0)."""


@dataclass(frozen=True)
class Calibration:
    """Offsets to add to the multi-column bot's estimates, one per number of filled boxes.

    Attributes:
        rules: the rule set.
        offsets: points added at 0, 1, ... filled boxes of the deciding player's sheet.
        meta: where they came from (command, seed, games, settings, model checksum, standard errors).
    """

    rules: RuleSet
    offsets: tuple[float, ...]
    meta: dict[str, Any] = field(default_factory=dict)

    def offset(self, state: GameState) -> float:
        """The offset for the player to act in ``state`` (0 where at most one of their columns is open)."""
        filled = filled_boxes(state)
        return self.offsets[filled] if filled is not None and filled < len(self.offsets) else 0.0


def filled_boxes(state: GameState) -> int | None:
    """The boxes filled on the sheet of the player to act, all columns together: what a calibration is keyed
    by, where it measures and where it applies; None where at most one of their columns is open (the estimate
    is then the exact column value)."""
    columns = state.sheets[state.current].columns
    if sum(1 for c in columns if not c.is_full) < 2:
        return None
    return sum(1 for c in columns for s in c.scores if s is not None)


@dataclass(frozen=True)
class CalibrationResult:
    """What :func:`measure` found.

    Attributes:
        offsets: mean (luck-adjusted return - estimate) per filled count (0 below :data:`MIN_SAMPLES`).
        se: their standard errors (games as the unit; nan where not measured).
        decisions: decisions seen per filled count.
        mean: the games' mean final total.
        mean_se: its standard error.
        start: the bot's estimate of the empty sheet (mean over the games' first decisions).
    """

    offsets: tuple[float, ...]
    se: tuple[float, ...]
    decisions: tuple[int, ...]
    mean: float
    mean_se: float
    start: float


def settings_record(rules: RuleSet) -> dict[str, Any]:
    """The shipped bot's settings and learned model for ``rules``, as a calibration records them."""
    bot = MultiColumnBot()
    model = load_model(rules)
    return {"settings": dataclasses.asdict(bot.settings(rules)), "model": None if model is None else model.sha256}


# -- measuring -------------------------------------------------------------------------------------------
_BOTS: dict[str, tuple[MultiColumnBot, MultiColumnBot]] = {}


_Game = tuple[list[tuple[int, float, float]], float, float]


def _game(rules: RuleSet, seed: list[int]) -> _Game:
    """One solo game of the shipped bot: (filled, estimate, luck so far) per decision counted, the final total
    and the game's luck."""
    from pasch.bots._train import seeded_game  # the training code: only here

    if rules.cache_key not in _BOTS:
        _BOTS[rules.cache_key] = (MultiColumnBot(), MultiColumnBot(learned=False))
    player, judge = _BOTS[rules.cache_key]
    rows: list[tuple[int, float, float]] = []

    def decide(state: GameState, luck: float) -> Action:
        action, estimate = player.rank(state)[0]
        filled = filled_boxes(state)
        if estimate is not None and filled is not None:
            rows.append((filled, estimate, luck))
        return action

    final, luck = seeded_game(rules, judge, seed, decide)
    return rows, final, luck


def _games(rules_id: str, seed: int, games: list[int]) -> list[_Game]:
    rules = get(rules_id)
    return [_game(rules, [seed, i]) for i in games]


def measure(
    rules: RuleSet,
    games: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> CalibrationResult:
    """Play ``games`` seeded solo games of the shipped bot (dice of game ``i``: ``default_rng([seed, i])``) on
    ``jobs`` local processes and measure the offsets (see the module docstring).

    Args:
        rules: a multi-column catalogue rule set.
        games: games to play.
        seed: seed of the dice.
        jobs: local worker processes (1: in this process).
        progress: called with (games done, games) after each chunk.
    """
    n = rules.n_columns * len(rules.categories)
    chunk = max(1, min(50, games // max(1, 4 * jobs)))
    chunks = [list(range(i, min(games, i + chunk))) for i in range(0, games, chunk)]
    # Per game and filled count: the sum of (target - estimate) and the decisions, so that games are the unit.
    sums = np.zeros((games, n))
    counts = np.zeros((games, n), dtype=np.int64)
    finals = np.zeros(games)
    starts: list[float] = []
    done = 0

    def take(first: int, results: list[_Game]) -> None:
        nonlocal done
        for k, (rows, final, luck_total) in enumerate(results):
            g = first + k
            finals[g] = final
            for filled, estimate, luck in rows:
                # The return from the decision less the luck of every later throw, less the estimate.
                sums[g, filled] += final - (luck_total - luck) - estimate
                counts[g, filled] += 1
            if rows and rows[0][0] == 0:
                starts.append(rows[0][1])
        done += len(results)
        if progress is not None:
            progress(done, games)

    if jobs <= 1:
        for c in chunks:
            take(c[0], _games(rules.id, seed, c))
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            played = pool.map(_games, [rules.id] * len(chunks), [seed] * len(chunks), chunks)
            for c, results in zip(chunks, played, strict=True):
                take(c[0], results)
    return _summarise(sums, counts, finals, starts)


def _summarise(sums: Any, counts: Any, finals: Any, starts: list[float]) -> CalibrationResult:
    games, n = counts.shape
    decisions = counts.sum(axis=0)
    offsets: list[float] = []
    ses: list[float] = []
    for f in range(n):
        if decisions[f] < MIN_SAMPLES:
            offsets.append(0.0)
            ses.append(math.nan)
            continue
        seen = counts[:, f] > 0
        per_game = sums[seen, f] / counts[seen, f]  # each game's mean residual at this filled count
        w = counts[seen, f].astype(np.float64)
        mean = float((per_game * w).sum() / w.sum())
        k = int(seen.sum())
        se = float(np.sqrt(((per_game - mean) ** 2 * w**2).sum()) / w.sum()) if k > 1 else math.nan
        offsets.append(round(mean, 2))
        ses.append(round(se, 2))
    mean_final = float(finals.mean())
    mean_se = float(finals.std(ddof=1) / math.sqrt(games)) if games > 1 else math.nan
    start = float(np.mean(starts)) if starts else math.nan
    return CalibrationResult(tuple(offsets), tuple(ses), tuple(int(x) for x in decisions), mean_final, mean_se, start)


# -- files -------------------------------------------------------------------------------------------------
def calibration_path(rules_id: str) -> Path:
    """Where the shipped calibration of a rule set lives (whether or not it exists)."""
    return data_file(f"{rules_id}.offsets.json")


def save_calibration(calibration: Calibration, path: Path) -> str:
    """Write a calibration file (offsets, meta, checksum); returns the checksum."""
    payload: dict[str, Any] = {
        "format": FORMAT,
        "rules": calibration.rules.id,
        "offsets": [float(x) for x in calibration.offsets],
        "meta": calibration.meta,
    }
    return write_checked(payload, path)


def read_calibration(rules: RuleSet, path: Path) -> Calibration:
    """Read and check a calibration file.

    Raises:
        ModelFileError: unreadable, for other rules or another sheet size, or its checksum does not match.
    """
    payload = read_checked(path, "calibration", "measure it again with 'pasch calibrate'")
    if payload.get("format") != FORMAT or payload.get("rules") != rules.id:
        raise ModelFileError(
            f"{path}: a calibration of format {payload.get('format')} for {payload.get('rules')!r}, "
            f"not of format {FORMAT} for {rules.id!r}"
        )
    offsets = payload.get("offsets")
    n = rules.n_columns * len(rules.categories)
    if not isinstance(offsets, list) or len(offsets) != n or not all(isinstance(x, int | float) for x in offsets):
        raise ModelFileError(f"{path}: needs {n} offsets, one per filled count of a {rules.id} sheet")
    return Calibration(rules, tuple(float(x) for x in offsets), dict(payload.get("meta") or {}))


def load_calibration(rules: RuleSet) -> Calibration | None:
    """The shipped calibration of a rule set, checked (None: none ships, or a custom rule set).

    Raises:
        ModelFileError: the shipped file fails its checks (:func:`read_calibration`), or it was measured with
            other bot settings or another learned model than this version ships.
    """
    if rules.cache_key != rules.id:
        return None  # a custom rule set that merely shares a catalogue id
    path = calibration_path(rules.id)
    if not path.is_file():
        return None
    calibration = read_calibration(rules, path)
    now = settings_record(rules)
    made = {k: calibration.meta.get(k) for k in now}
    if made != now:
        raise ModelFileError(
            f"{path}: measured for the bot settings and model {made}, but this version plays {now}; "
            f"measure it again with 'pasch calibrate --rules {rules.id}'"
        )
    return calibration
