"""Issue 28, item 3: solo means of the multi-column bots, base against learned, on the same seeded dice.

Usage: ``python bench/learned.py [--rules jetsi kniffel-3 kniffel-4] [--bots base learned] [--games 2000]
[--first 0] [--seed 2029] [--jobs 1] [--dir bench/out/learned] [--model FILE] [--scale 1.0] [--set KEY=VALUE
...]``, then ``python bench/learned.py --report`` to print the table from what the runs wrote. A bot named other
than ``base`` plays with the shipped model, or with ``--model FILE`` (a ``pasch train`` output) whose weights are
multiplied by ``--scale``; ``--set`` overrides its settings (``slack_factor``, ``announced_slot``,
``announced_slack``: e.g. ``--bots ann --set announced_slack=0.5`` for kniffel-4's announced-column table); its
name only names its CSV.

Game ``g`` of a rule set throws from one table of dice drawn from ``default_rng([seed, g])`` (``U[turn, throw,
die]``: the ``m``-th throw of the ``t``-th turn shows the first dice of ``U[t, m]``; the table of
``bench/rollout.py``), the same for every bot, so the two bots' games of a seed share every turn's first throw.
Each game is also scored *luck-adjusted*: minus the luck of every throw under the base bot's turn values
(``bench/rollout.py``, unbiased for any decider), which cuts the per-game spread about threefold.

Bots: ``base`` is :class:`pasch.bots.MultiColumnBot` with ``learned=False`` (the per-column sum), ``learned``
the same bot with the shipped whole-sheet correction (``learned=True``). Each run appends one CSV row per
game to ``DIR/<rules>.<bot>.csv`` (game, total, luck, decisions, seconds deciding, seconds in all), so runs
with ``--first`` join and a bot can be measured later on the same seeds. ``--report`` prints, per rule set,
each bot's raw and adjusted mean ± standard error (sample standard deviation over the square root of the
games), games per second (one process, the luck bookkeeping included), milliseconds per decision (the bot's
``choose`` alone; a decision is every keep, entry or announcement) and the paired difference learned - base
over the games both played, with its standard error: the number that says whether learning helped.

Measured 2026-11-27 (seed 2029, games 0..1999, two processes at a time on 2 shared cores; ``base`` and
``learned`` with the slack settings of issue 28's stop of that day: every fixed-order and free column credited
0.3 of its slack, read between levels (:data:`pasch.bots._multi.TUNED`); ``before``: the settings before them,
run as ``base`` before ``TUNED`` changed (``--set slack_factor=0.7 free_slack=0 interpolate=0``, kniffel-4
``slack_factor=0.5``, plays them; 10 games each of jetsi and kniffel-4 replayed with the previous commit
matched game for game); paired differences luck-adjusted, against ``base``):

    rules      bot        raw mean      adjusted    ms/dec   - base (paired, adj.)
    jetsi      base      734.6 ± 2.6   730.6 ± 0.4   0.87
    jetsi      learned   733.1 ± 2.6   731.9 ± 0.3   0.82    +1.3 ± 0.4  (what ships: the model of 2026-11-26)
    jetsi      before    715.1 ± 2.5   714.3 ± 0.6   0.54   -16.3 ± 0.6
    kniffel-3  base      729.0 ± 2.4   724.9 ± 0.4   0.67
    kniffel-3  learned   728.2 ± 2.5   726.2 ± 0.3   0.83    +1.3 ± 0.4  (what ships)
    kniffel-3  before    710.8 ± 2.4   708.9 ± 0.6   0.41   -16.0 ± 0.6
    kniffel-4  base      973.5 ± 2.6   972.0 ± 0.5   1.41   (what ships: no model)
    kniffel-4  before    954.5 ± 2.5   953.8 ± 0.6   0.79   -18.3 ± 0.7

The settings were chosen on games 0-399 and confirmed on 400-1999 (+15.8 ± 0.7, +15.3 ± 0.6, +18.5 ± 0.7);
the sweep is in the docstring of ``TUNED``.

Later that day kniffel-4 took the announced column's slack table (0.3 of its slack, slot -5, chosen on games
0-399 among 11 settings, the sweep in ``TUNED``'s docstring), run before it shipped as ``--bots a03s-5 --set
announced_slack=0.3 announced_slot=-5`` beside ``base`` (then the settings above); the same seed and games:

    rules      bot        raw mean      adjusted    ms/dec   - base (paired, adj.)
    kniffel-4  base      973.5 ± 2.6   972.2 ± 0.4   0.92   (the settings above)
    kniffel-4  a03s-5    981.0 ± 2.6   980.1 ± 0.4   0.86    +7.9 ± 0.5  (what ships now; games 400-1999: +7.6 ± 0.6)

Measured 2026-11-26, before those settings (so ``base`` here is ``before`` above; seed 2029, games 0..1999,
one process per run at nice 19 on 2 shared cores, load average 2-14; ``learned``: the full first/last fit of
``pasch train``; ``learned-x0.3``: a third of the first fit, what
ships for jetsi and kniffel-3; paired differences luck-adjusted):

    rules      bot           adjusted    ms/dec   learned - base (paired, adj.)
    jetsi      base         714.3 ± 0.6   0.14
    jetsi      learned-x0.3 715.8 ± 0.6   0.70    +1.6 ± 0.5  (scale picked on games 0-999; 1000-1999: +0.7 ± 0.7)
    jetsi      learned      710.7 ± 0.7   0.59    -3.5 ± 0.7
    kniffel-3  base         708.9 ± 0.6   0.11
    kniffel-3  learned-x0.3 711.5 ± 0.6   0.44    +2.5 ± 0.5
    kniffel-3  learned      687.6 ± 0.7   1.18   -21.3 ± 0.8
    kniffel-4  base         953.8 ± 0.6   0.87
    kniffel-4  learned-x0.3 950.2 ± 0.6   1.14    -3.6 ± 0.7  (not shipped)
    kniffel-4  learned      910.9 ± 0.7   1.29   -42.9 ± 0.9

Damping sweep (``--model <rules>-x0.3.json --scale s/0.3``, chosen on games 0-999, confirmed on 1000-1999;
paired, luck-adjusted, against base):

    rules      damping   games 0-999   games 1000-1999
    jetsi      0.1       +1.4 ± 0.5
    jetsi      0.2       +1.5 ± 0.7
    jetsi      0.3       +2.5 ± 0.8    +0.7 ± 0.7   (kept: what ships)
    jetsi      0.5       +1.5 ± 0.9
    kniffel-3  0.1       +0.9 ± 0.5
    kniffel-3  0.2       +1.8 ± 0.6
    kniffel-3  0.3       +2.7 ± 0.8    +2.4 ± 0.8   (kept: what ships)
    kniffel-3  0.5       +2.7 ± 0.8
    kniffel-4  0.1       +0.5 ± 0.8    +0.4 ± 0.8   (picked, not confirmed by a standard error: none ships)
    kniffel-4  0.2       -1.2 ± 1.0
    kniffel-4  0.3       -3.9 ± 1.0    -3.2 ± 1.0
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pasch.bots import MultiColumnBot
from pasch.bots.training import SheetModel, load_model, read_model
from pasch.engine import Action, GameState, new_game
from pasch.rules import get
from rollout import _dice, _run

RULES = ("jetsi", "kniffel-3", "kniffel-4")
_SETTINGS = ("slack_factor", "announced_slot", "announced_slack", "free_slack", "interpolate", "learned")
FIELDS = ("game", "total", "luck", "decisions", "decide_s", "wall_s")

_BOTS: dict[tuple[str, str], MultiColumnBot] = {}
_JUDGE: list[MultiColumnBot] = []


def _bot(
    rid: str, name: str, model: str | None, scale: float, settings: tuple[tuple[str, float], ...] = ()
) -> MultiColumnBot:
    """``base``: the plain per-column sum; anything else: the shipped model, or ``model`` (a file) times ``scale``;
    with ``settings`` (``--set``), the bot's settings overridden and the shipped model used where one ships."""
    if (rid, name) not in _BOTS:
        if name == "base":
            _BOTS[rid, name] = MultiColumnBot(learned=False)
        elif settings and model is None and scale == 1.0:
            kw: dict[str, Any] = dict(settings)
            if "learned" in kw:
                kw["learned"] = bool(kw["learned"])  # learned=0: without the shipped model
            _BOTS[rid, name] = MultiColumnBot(**kw)
        elif model is None and scale == 1.0:
            _BOTS[rid, name] = MultiColumnBot(learned=True)
        else:
            rules = get(rid)
            m = read_model(rules, Path(model)) if model is not None else load_model(rules)
            if m is None:
                raise SystemExit(f"{rid}: no model ships; give --model FILE")
            sheet = SheetModel(rules, m.weights * scale, m.meta)
            _BOTS[rid, name] = MultiColumnBot(model=sheet, **dict(settings))  # type: ignore[arg-type]
    return _BOTS[rid, name]


def play(
    rid: str,
    bot_name: str,
    seed: int,
    g: int,
    model: str | None = None,
    scale: float = 1.0,
    settings: tuple[tuple[str, float], ...] = (),
) -> tuple[int, float, float, int, float, float]:
    """Game ``g`` of ``rid`` by ``bot_name`` on the dice of ``[seed, g]``: the CSV row."""
    start = time.perf_counter()
    rules = get(rid)
    bot = _bot(rid, bot_name, model, scale, settings)
    if not _JUDGE:
        _JUDGE.append(MultiColumnBot(learned=False))
    rng = np.random.default_rng(0)
    spent = [0.0, 0]

    def decide(state: GameState) -> tuple[Action, None]:
        t = time.perf_counter()
        action = bot.choose(state, rng)
        spent[0] += time.perf_counter() - t
        spent[1] += 1
        return action, None  # rollout's Decide: the action, and no state made (_run applies it)

    state = new_game(rules, ["solo"])
    assert isinstance(state, GameState)
    total, luck = _run(state, _dice(rules, [seed, g]), decide, _JUDGE[0])
    return g, total, luck, int(spent[1]), spent[0], time.perf_counter() - start


def run(
    rid: str,
    bot_name: str,
    seed: int,
    games: range,
    jobs: int,
    out: Path,
    model: str | None,
    scale: float,
    settings: tuple[tuple[str, float], ...] = (),
) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    new = not out.exists()
    start = time.perf_counter()
    with out.open("a", newline="") as fh, ProcessPoolExecutor(max_workers=jobs) as pool:
        w = csv.writer(fh)
        if new:
            w.writerow(FIELDS)
        n = len(games)
        args = ([rid] * n, [bot_name] * n, [seed] * n, games, [model] * n, [scale] * n, [settings] * n)
        for i, row in enumerate(pool.map(play, *args, chunksize=8)):
            w.writerow([row[0], row[1], f"{row[2]:.4f}", row[3], f"{row[4]:.4f}", f"{row[5]:.4f}"])
            if (i + 1) % 100 == 0:
                fh.flush()
                rate = (i + 1) / (time.perf_counter() - start)
                print(f"{rid} {bot_name}: {i + 1}/{n} games, {rate:.2f} games/s", flush=True)


def _read(path: Path) -> dict[int, tuple[float, ...]]:
    with path.open() as fh:
        return {int(r["game"]): tuple(float(r[k]) for k in FIELDS[1:]) for r in csv.DictReader(fh)}


def _ms(x: np.ndarray) -> str:
    se = x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else math.nan
    return f"{x.mean():7.1f} ± {se:4.1f}"


def report(folder: Path, seed: int) -> None:
    print(
        f"{'rules':10} {'bot':8} {'games':>5} {'mean':>13} {'adjusted':>13} {'games/s':>7} {'ms/dec':>6}"
        f"  {'learned - base (paired, adj.)':>30} {'raw':>13}"
    )
    for rid in RULES:
        names = sorted((p.name[len(rid) + 1 : -4] for p in folder.glob(f"{rid}.*.csv")), key=lambda b: b != "base")
        got = {b: _read(folder / f"{rid}.{b}.csv") for b in names}
        for b, rows in got.items():
            if not rows:  # a run stopped before its first game
                continue
            a = np.array(list(rows.values()))
            total, adj = a[:, 0], a[:, 0] - a[:, 1]
            rate = len(a) / a[:, 4].sum()
            ms = 1000 * a[:, 3].sum() / a[:, 2].sum()
            line = f"{rid:10} {b:8} {len(a):5d} {_ms(total)} {_ms(adj)} {rate:7.2f} {ms:6.2f}"
            if b != "base" and "base" in got:
                both = sorted(set(rows) & set(got["base"]))
                la = np.array([rows[g] for g in both])
                ba = np.array([got["base"][g] for g in both])
                d_adj = (la[:, 0] - la[:, 1]) - (ba[:, 0] - ba[:, 1])
                d_raw = la[:, 0] - ba[:, 0]
                line += f"  {len(both):5d} games {_ms(d_adj):>17} {_ms(d_raw)}"
            print(line)
    print(
        f"(seed {seed}; dice of game g from default_rng([seed, g]); mean ± standard error; adjusted: minus each "
        "throw's luck under the base bot's turn values; games/s: one process, luck bookkeeping included; "
        f"ms/dec: the bot's choose alone; load average now {os.getloadavg()[0]:.1f})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=list(RULES), choices=RULES)
    ap.add_argument("--bots", nargs="+", default=["base", "learned"], help="base, learned or any name (a model)")
    ap.add_argument("--model", help="the learned bots' model file (default: the shipped one)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the model's weights (a damped correction)")
    ap.add_argument(
        "--set",
        nargs="+",
        default=[],
        metavar="KEY=VALUE",
        help="the bots' settings other than base (slack_factor, announced_slot, announced_slack, free_slack;"
        " learned=0: without a model)",
    )
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seed", type=int, default=2029)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--dir", type=Path, default=Path("bench/out/learned"))
    ap.add_argument("--report", action="store_true", help="print the table of what is in --dir and stop")
    args = ap.parse_args()
    settings: list[tuple[str, float]] = []
    for item in args.set:
        key, _, value = item.partition("=")
        if key not in _SETTINGS:
            ap.error(f"--set {item}: settings are {', '.join(_SETTINGS)}")
        try:
            settings.append((key, float(value)))
        except ValueError:
            ap.error(f"--set {item}: {value!r} is not a number")
    if not args.report:
        for rid in args.rules:
            for b in args.bots:
                games = range(args.first, args.first + args.games)
                out = args.dir / f"{rid}.{b}.csv"
                run(rid, b, args.seed, games, args.jobs, out, args.model, args.scale, tuple(settings))
    report(args.dir, args.seed)


if __name__ == "__main__":
    main()
