"""Random-playout throughput of the game engine, per rule set (complete games per second, one core).

Usage::

    python bench/engine.py [--seconds S] [--rules ID ...] [--profile ID]

Each rule set is played for S CPU seconds (``time.process_time``, so that a busy machine does not skew
the figures) solo and S seconds with four players, with a seeded uniform
random legal policy (the dice from ``pasch.dice.throw`` with a seeded numpy generator). The issue's aim
is at least 2,000 complete single-column solo games per second. ``--profile ID`` prints a cProfile
summary of solo games of that rule set instead.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import time
from collections.abc import Sequence

import numpy as np

from pasch.dice import throw
from pasch.engine import Throw, new_game

RULE_SETS = (
    "kniffel",
    "kniffel+sharp",
    "kniffel+forced",
    "yahtzee",
    "yahtzee+upward",
    "kniffel-classic",
    "kniffel-classic+strict+sharp",
    "yatzy",
    "yacht",
    "jetsi",
    "kniffel-3",
    "kniffel-4",
    "kniffel-4+sharp",
)
AIM = 2000.0


def play_one(rules: str, players: Sequence[str], pick: random.Random, rng: np.random.Generator) -> int:
    """Play one complete game with a uniform random legal policy; returns the number of actions."""
    state = new_game(rules, players)
    faces = state.rules.faces
    n = 0
    while not state.is_terminal:
        if state.is_chance_node:
            state = state.apply(Throw(throw(rng, state.pending, faces)))
        else:
            state = state.apply(pick.choice(state.legal_actions()))
        n += 1
    return n


def rate(rules: str, players: int, seconds: float, seed: int = 0) -> tuple[float, float]:
    """(complete games per second, actions per second) over about ``seconds``."""
    names = [f"P{i + 1}" for i in range(players)]
    pick, rng = random.Random(seed), np.random.default_rng(seed)
    play_one(rules, names, pick, rng)  # warm the caches
    games = actions = 0
    # Stop on the wall clock (cheap to read); rate on CPU time, so a busy machine skews the figures less.
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds or games == 0:
        actions += play_one(rules, names, pick, rng)
        games += 1
    elapsed = time.process_time() - cpu
    return games / elapsed, actions / elapsed


def profile(rules: str, seconds: float) -> str:
    """A cProfile summary (top functions by own time and by cumulative time) of solo games."""
    prof = cProfile.Profile()
    prof.enable()
    rate(rules, 1, seconds)
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out).strip_dirs()
    stats.sort_stats("tottime").print_stats(20)
    stats.sort_stats("cumulative").print_stats(25)
    return out.getvalue()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per rule set and player count")
    parser.add_argument("--rules", nargs="*", default=list(RULE_SETS), help="rule sets to run")
    parser.add_argument("--profile", metavar="ID", help="print a cProfile summary of this rule set instead")
    args = parser.parse_args(argv)
    if args.profile:
        print(profile(args.profile, args.seconds))
        return
    print(
        f"random-playout throughput, one core, {args.seconds:g} s per cell, games per CPU second, random legal policy"
    )
    header = f"{'rule set':<30} {'games/s 1p':>11} {'ms/game':>8} {'actions/s':>10} {'games/s 4p':>11} {'vs aim':>7}"
    print(header)
    print("-" * len(header))
    for rules in args.rules:
        solo, solo_actions = rate(rules, 1, args.seconds)
        four, _ = rate(rules, 4, args.seconds)
        single = new_game(rules, ["P"]).rules.n_columns == 1
        aim = f"{solo / AIM:6.0%}" if single else "   n/a"
        print(f"{rules:<30} {solo:>11.0f} {1000 / solo:>8.2f} {solo_actions:>10.0f} {four:>11.1f} {aim:>7}")
    print(f"aim: >= {AIM:.0f} complete single-column solo games per second")


if __name__ == "__main__":
    main()
