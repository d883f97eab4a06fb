"""Training the learned whole-sheet correction (issue 28, item 2): fitted value iteration on afterstates.

Generation ``g`` plays ``games`` seeded solo games with the multi-column bot and the current correction
``w_g`` (generation 0: none, the plain per-column sum). At every turn start (the afterstate of the previous
entry) it records the sheet's features (:func:`pasch.bots._sheetvalue.features`) and the per-column sum
``S_t`` (points plus exact column values, :meth:`MultiColumnBot.sheet_value` of the plain bot). The target
is the *luck-adjusted* return from there: the final total less the luck of every later throw, each throw's
luck being the value of its turn after the throw under the plain bot's turn plan minus its exact
expectation before (mean 0 whatever the decider does, the method of ``bench/rollout.py``), less ``S_t``:

    y_t = final - luck after t - S_t

an unbiased sample of how far the policy's value from that sheet lies above the per-column sum, with about
a third of the plain return's spread. ``w_{g+1}`` is the ridge least-squares fit of ``y`` on the features over
generation ``g``'s games (one in five held out to report the fit), so each generation evaluates the policy of
the one before (approximate policy iteration). Rows with one column open have zero features and are left
out: the correction is zero there by construction.

Games are spread over ``jobs`` local processes, or over a running Ray cluster given its address (``ray`` is only
imported then; :func:`check_ray_cluster` refuses an unusable address in bounded time). The dice of game ``i`` of
generation ``g`` come from ``default_rng([seed, g, i])``, whoever plays it, so every way gives the same model.
"""

from __future__ import annotations

import logging
import math
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from pasch.bots._multi import MultiColumnBot
from pasch.bots._sheetvalue import SheetModel, feature_names, features, sheet_arrays
from pasch.dice import space, transition_tables
from pasch.engine import Action, GameState, Keep, Roll, Throw, new_game
from pasch.errors import PaschError
from pasch.rules import RuleSet, get

__all__ = [
    "ClusterError",
    "Generation",
    "TrainResult",
    "check_ray_cluster",
    "first_throw_mean",
    "play_games",
    "throw_value",
    "train",
]

F64 = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Generation:
    """One generation's learning-curve row."""

    generation: int
    games: int
    mean: float  # raw final totals of the policy w_g
    adjusted: float  # luck-adjusted
    adjusted_se: float
    rows: int  # afterstates fitted
    rmse_sum: float  # held-out error of the per-column sum alone (w = 0)
    rmse_fit: float  # held-out error with the newly fitted w_{g+1}
    seconds: float


@dataclass
class TrainResult:
    """What :func:`train` made: the final weights and the learning curve."""

    weights: F64
    curve: list[Generation] = field(default_factory=list)
    fitted: list[F64] = field(default_factory=list)  # w_{g+1}, fitted on generation g's games


# -- one game ---------------------------------------------------------------------------------------
def throw_value(bot: MultiColumnBot, state: GameState) -> float:
    """The bot's value of the turn from here, just after a throw (its own turn plan, exact given its turn-end
    evaluation); after a turn's first throw in kniffel-4 the best of not announcing and announcing each open
    box, as the bot decides. A throw's luck is this less :func:`first_throw_mean` (or the keep's expectation)."""
    rules = state.rules
    turn = bot._turn(state)
    r = space(rules.dice, rules.faces).roll_index[tuple(sorted(state.dice or ()))]
    s = 1 if rules.sharp and state.sharp else 0
    left = state.throws_left
    if state.announced is not None:
        return float(bot._announced_plan(state, turn, state.announced).reach[left][s, r])
    free = turn["plans"][None]
    best = float(free.reach[left][s, r]) if free is not None else -math.inf
    ann = rules.announced_column
    if ann is not None and left == rules.throws - 1 and ann in turn["deltas"]:
        for box in turn["deltas"][ann][1]:
            best = max(best, float(bot._announced_plan(state, turn, box).reach[left][s, r]))
    return best


def first_throw_mean(bot: MultiColumnBot, state: GameState) -> float:
    """The expectation of :func:`throw_value` over a turn's first throw (exactly, over every throw)."""
    rules = state.rules
    trans, _, _, empty = transition_tables(rules.dice, rules.faces)
    probs = trans[int(empty[0])]
    turn = bot._turn(state)
    left = rules.throws - 1
    s = 1 if rules.sharp else 0
    free = turn["plans"][None]
    value = free.reach[left][s] if free is not None else np.full(len(probs), -np.inf)
    ann = rules.announced_column
    if ann is not None and left > 0 and ann in turn["deltas"]:
        for box in turn["deltas"][ann][1]:
            value = np.maximum(value, bot._announced_plan(state, turn, box).reach[left][s])
    return float(probs @ value)


def _keep_value(bot: MultiColumnBot, state: GameState, keep: Keep) -> float:
    rules = state.rules
    turn = bot._turn(state)
    plan = turn["plans"][None] if state.announced is None else bot._announced_plan(state, turn, state.announced)
    return float(plan.keeps[state.throws_left][space(rules.dice, rules.faces).keep_index[keep.dice]])


_BOTS: dict[str, tuple[MultiColumnBot, MultiColumnBot]] = {}


def _bots(rules: RuleSet, weights: F64 | None) -> tuple[MultiColumnBot, MultiColumnBot]:
    """This process's (player, judge) for a rule set; the player's correction set to ``weights``."""
    if rules.cache_key not in _BOTS:
        _BOTS[rules.cache_key] = (MultiColumnBot(learned=False), MultiColumnBot(learned=False))
    player, judge = _BOTS[rules.cache_key]
    model = None if weights is None else SheetModel(rules, np.asarray(weights, dtype=np.float64))
    if model is not None or player._model is not None:
        player._model = model
        player.learned = model is not None
        player.forget()
    return player, judge


def seeded_game(
    rules: RuleSet,
    judge: MultiColumnBot,
    seed: list[int],
    decide: Callable[[GameState, float], Action],
    turn_start: Callable[[GameState, float], None] | None = None,
) -> tuple[float, float]:
    """One solo game on the dice of ``default_rng(seed)``, each throw's luck measured by ``judge``'s plan.

    ``decide(state, luck)`` chooses at every decision with dice on the table; ``turn_start(state, luck)`` is
    told of each turn's start (before its first throw). ``luck`` is the luck of every throw so far. Returns the
    final total and the game's luck.
    """
    turns = rules.n_columns * len(rules.categories)
    dice = np.random.default_rng(seed).integers(1, rules.faces + 1, size=(turns + 1, rules.throws, rules.dice))
    state = new_game(rules, ["solo"])
    assert isinstance(state, GameState)
    luck = before = 0.0
    turn = throw = -1
    while not state.is_terminal:
        if state.is_chance_node:
            thrown = state.apply(Throw(tuple(int(x) for x in dice[turn, throw, : state.pending])))
            assert isinstance(thrown, GameState)
            state = thrown
            luck += throw_value(judge, state) - before
            continue
        if state.dice is None:
            turn, throw = turn + 1, 0
            if turn_start is not None:
                turn_start(state, luck)
            before = first_throw_mean(judge, state)
            state = state.apply(Roll())
            continue
        action = decide(state, luck)
        if isinstance(action, Keep):
            before = _keep_value(judge, state, action)
            throw += 1
        state = state.apply(action)
    return float(state.total(0)), luck


def _game(
    rules: RuleSet, player: MultiColumnBot, judge: MultiColumnBot, seed: list[int]
) -> tuple[F64, F64, float, float]:
    """One game: (features of each afterstate [t, f], targets [t], final total, total luck)."""
    rng = np.random.default_rng(0)
    opens: list[npt.NDArray[np.bool_]] = []
    uppers: list[npt.NDArray[np.int64]] = []
    bases: list[float] = []
    luck_at: list[float] = []

    def turn_start(state: GameState, luck: float) -> None:
        o, u = sheet_arrays(rules, tuple(c.scores for c in state.sheets[0].columns))
        opens.append(o)
        uppers.append(u)
        bases.append(judge.sheet_value(state))
        luck_at.append(luck)

    final, luck = seeded_game(rules, judge, seed, lambda state, _luck: player.choose(state, rng), turn_start)
    x = features(rules, np.array(opens), np.array(uppers))
    y = final - (luck - np.asarray(luck_at)) - np.asarray(bases)
    return x, y, final, luck


def play_games(
    rules_id: str, weights: list[float] | None, seed: int, generation: int, games: list[int]
) -> list[tuple[F64, F64, float, float]]:
    """Games ``games`` of a generation (dice of game ``i``: ``default_rng([seed, generation, i])``)."""
    rules = get(rules_id)
    w = None if weights is None else np.asarray(weights, dtype=np.float64)
    player, judge = _bots(rules, w)
    return [_game(rules, player, judge, [seed, generation, i]) for i in games]


# -- spreading the games -------------------------------------------------------------------------------
Runner = Callable[[str, list[float] | None, int, int, list[list[int]]], list[list[tuple[F64, F64, float, float]]]]


def local_runner(jobs: int) -> Runner:
    """Chunks of games on ``jobs`` local processes (1: in this process)."""

    def run(
        rules_id: str, weights: list[float] | None, seed: int, generation: int, chunks: list[list[int]]
    ) -> list[list[tuple[F64, F64, float, float]]]:
        if jobs <= 1:
            return [play_games(rules_id, weights, seed, generation, c) for c in chunks]
        n = len(chunks)
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(play_games, [rules_id] * n, [weights] * n, [seed] * n, [generation] * n, chunks))

    return run


class ClusterError(PaschError):
    """The Ray cluster named by ``--ray`` cannot be used: a malformed address, nothing answering there, not a
    Ray head, or the cluster failing during the run."""


RAY_CONNECT_TIMEOUT = 30.0  # seconds for a cluster to answer before --ray gives up

_RAY_CHECK = (
    "import sys, ray; ray.init(address=sys.argv[1], logging_level='ERROR', log_to_driver=False); ray.shutdown()"
)


def _ray_endpoint(address: str) -> tuple[str, int] | None:
    """The (host, port) that ``address`` names (None for ``auto``: Ray looks it up).

    Raises:
        ClusterError: not ``HOST:PORT``, ``ray://HOST:PORT`` or ``auto``.
    """
    if address == "auto":
        return None
    rest = address.removeprefix("ray://")
    host, sep, port = rest.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ClusterError(
            f"--ray {address}: want the address of a running Ray head, HOST:PORT as 'ray start --head' "
            "prints it (ray://HOST:PORT for Ray Client, or auto)"
        )
    return host, int(port)


def check_ray_cluster(address: str, timeout: float = RAY_CONNECT_TIMEOUT) -> None:
    """Check that a Ray cluster answers at ``address`` within ``timeout`` seconds, without touching this process.

    A TCP connection first (a quick, exact message for a wrong host or port), then ``ray.init`` in a child
    process, killed after ``timeout``: in this process ``ray.init`` retries a silent or non-Ray address for
    minutes and cannot be interrupted.

    Raises:
        ClusterError: the address is malformed, nothing answers there, or it is not a Ray cluster.
    """
    endpoint = _ray_endpoint(address)
    if endpoint is not None:
        host, port = endpoint
        wait = min(5.0, timeout)
        try:
            socket.create_connection((host, port), timeout=wait).close()
        except socket.gaierror:
            raise ClusterError(f"--ray {address}: unknown host {host!r}") from None
        except TimeoutError:
            raise ClusterError(f"--ray {address}: no answer from {host}:{port} within {wait:g} s") from None
        except OSError as exc:
            why = exc.strerror or str(exc)
            raise ClusterError(f"--ray {address}: cannot reach {host}:{port} ({why}); is a Ray head running?") from None
    with tempfile.TemporaryFile() as log:
        try:
            done = subprocess.run(
                [sys.executable, "-c", _RAY_CHECK, address],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise ClusterError(
                f"--ray {address}: no Ray cluster answered within {timeout:.0f} s (is it a Ray head's address?)"
            ) from None
        if done.returncode != 0:
            log.seek(0)
            lines = [ln.strip() for ln in log.read().decode(errors="replace").splitlines() if ln.strip()]
            why = lines[-1] if lines else f"exit status {done.returncode}"
            raise ClusterError(f"--ray {address}: cannot connect: {why}")


def ray_runner(address: str, *, timeout: float = RAY_CONNECT_TIMEOUT) -> Runner:
    """Chunks of games as Ray tasks on the running cluster at ``address`` (``ray`` is imported here only).

    Every node needs this version of pasch installed. The games are seeded per game, so the result equals
    :func:`local_runner`'s.

    Raises:
        ImportError: Ray is not installed (the ``pasch[train]`` extra).
        ClusterError: no usable cluster at ``address`` (see :func:`check_ray_cluster`); or, from the runner, the
            cluster failed during the run (a task's own exception is raised as itself, as locally).
    """
    import ray

    check_ray_cluster(address, timeout)
    try:
        ray.init(address=address, ignore_reinit_error=True, logging_level=logging.WARNING)
    except (ConnectionError, RuntimeError) as exc:
        raise ClusterError(f"--ray {address}: cannot connect: {exc}") from None
    remote = ray.remote(play_games)

    def run(
        rules_id: str, weights: list[float] | None, seed: int, generation: int, chunks: list[list[int]]
    ) -> list[list[tuple[F64, F64, float, float]]]:
        try:
            got: Any = ray.get([remote.remote(rules_id, weights, seed, generation, c) for c in chunks])
        except ray.exceptions.RayTaskError:
            raise  # the task's own exception (also an instance of its class), as with local processes
        except ray.exceptions.RayError as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ClusterError(f"--ray {address}: the cluster failed during the run: {first}") from None
        return list(got)

    return run


# -- the fit ------------------------------------------------------------------------------------------------
def fit(x: F64, y: F64, ridge: float) -> F64:
    """Ridge least squares ``argmin |x w - y|^2 + ridge * n * |w|^2`` (``n`` rows)."""
    n, f = x.shape
    a = x.T @ x + ridge * max(n, 1) * np.eye(f)
    w: F64 = np.linalg.solve(a, x.T @ y)
    return w


def train(
    rules: RuleSet,
    games: int,
    generations: int,
    seed: int,
    runner: Runner,
    *,
    ridge: float = 1e-4,
    scale: float = 1.0,
    chunk: int = 25,
    progress: Callable[[Generation], None] | None = None,
) -> TrainResult:
    """Fitted value iteration: ``generations`` rounds of ``games`` self-play games each (see the module docstring).

    ``scale`` damps each fit: the next policy (and the result) uses ``scale * w`` (the fit itself is kept in
    ``fitted``). Greedy use of the full fit loses (a fitted value is accurate on the policy's own sheets, not on
    the afterstates a greedy choice compares); a third of it measured better than the plain bot in jetsi.
    """
    nf = len(feature_names(rules))
    w: F64 | None = None
    result = TrainResult(np.zeros(nf))
    for g in range(generations):
        start = time.perf_counter()
        ids = list(range(games))
        chunks = [ids[i : i + chunk] for i in range(0, games, chunk)]
        played = [r for part in runner(rules.id, None if w is None else list(w), seed, g, chunks) for r in part]
        finals = np.array([r[2] for r in played])
        adjusted = finals - np.array([r[3] for r in played])
        held = [i % 5 == 0 for i in range(len(played))]
        xs = [r[0] for r, h in zip(played, held, strict=True) if not h]
        ys = [r[1] for r, h in zip(played, held, strict=True) if not h]
        hx = [r[0] for r, h in zip(played, held, strict=True) if h]
        hy = [r[1] for r, h in zip(played, held, strict=True) if h]
        x, y = np.concatenate(xs), np.concatenate(ys)
        live = np.abs(x).sum(axis=1) > 0
        w_new = fit(x[live], y[live], ridge)
        if hx:
            tx, ty = np.concatenate(hx), np.concatenate(hy)
            tl = np.abs(tx).sum(axis=1) > 0
            rmse_sum = float(np.sqrt(np.mean(ty[tl] ** 2)))
            rmse_fit = float(np.sqrt(np.mean((ty[tl] - tx[tl] @ w_new) ** 2)))
        else:
            rmse_sum = rmse_fit = math.nan
        se = float(adjusted.std(ddof=1) / math.sqrt(len(adjusted))) if len(adjusted) > 1 else math.nan
        row = Generation(
            g,
            len(played),
            float(finals.mean()),
            float(adjusted.mean()),
            se,
            int(live.sum()),
            rmse_sum,
            rmse_fit,
            time.perf_counter() - start,
        )
        result.curve.append(row)
        result.fitted.append(w_new)
        if progress is not None:
            progress(row)
        w = scale * w_new
    result.weights = np.zeros(nf) if w is None else w
    return result
