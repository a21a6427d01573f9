"""Random playouts: Alea Iacta Est (4 players) beside OpenSpiel's C++ backgammon.

Both games run in the same process through the same loop: uniform random
decisions, chance sampled, until the game ends (final scores included). The
figure that counts is decisions per second (chance steps are not counted).

    .venv/bin/python bench/playout.py [--seconds 10] [--players 4] [--pin] [--warmup 1]

Target (issue 2): at least 20,000 decisions/s on one core; aim: backgammon's figure.

Both loops run after a warm-up game and ``gc.freeze()``, as a long-running program
should (docs/engine.md): the engine's process-wide memo tables are then left out of
the cyclic garbage collector's passes. ``--no-freeze`` measures without it. The
engine build in use (compiled or pure Python, ``ALEA_PURE_PYTHON=1``) is printed.

With one warm-up game, the measured window is partly spent filling the engine's memo
tables (the positions met depend on the games, so runs spread): that is the figure of
a fresh process. ``--warmup GAMES`` plays more games first (for both games, before
``gc.freeze()``), which measures what a long-running program (a simulation, a bot
server) sees; say which was used when quoting a figure.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import time
from collections.abc import Callable
from typing import Any

import alea.iacta as iacta

TARGET = 20_000


def alea_playout(players: int) -> Callable[[random.Random], int]:
    """One random game of Alea Iacta Est; returns its number of decisions."""

    def play(rng: random.Random) -> int:
        state = iacta.new_game(players)
        decisions = 0
        choice = rng.choice
        while not state.is_terminal():
            if state.is_chance():
                state.apply(state.sample_chance(rng))
            else:
                state.apply(choice(state.legal_actions()))
                decisions += 1
        state.returns()
        return decisions

    return play


def backgammon_playout() -> Callable[[random.Random], int] | None:
    """One random game of OpenSpiel's C++ backgammon, or None without open_spiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")

    def play(rng: random.Random) -> int:
        state: Any = game.new_initial_state()
        decisions = 0
        choice = rng.choice
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
        state.returns()
        return decisions

    return play


def measure(
    play: Callable[[random.Random], int],
    seconds: float,
    seed: int,
    freeze: bool = True,
    warmup: int = 1,
) -> tuple[float, float, float]:
    """Run games for ``seconds`` of wall time, after ``warmup`` games not measured.

    Returns decisions per second of wall time, games per second of wall time,
    and decisions per second of this process's CPU time (the figure that a
    busy machine does not distort: it is what one free core would do).
    """
    rng = random.Random(seed)
    for _ in range(max(1, warmup)):
        play(rng)  # warm-up: caches, imports
    if freeze:
        gc.freeze()  # what is alive now (memo tables, modules) leaves the collector's passes
    games = decisions = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    while (elapsed := time.perf_counter() - start) < seconds:
        decisions += play(rng)
        games += 1
    cpu = time.process_time() - cpu_start
    return decisions / elapsed, games / elapsed, decisions / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time per game (default 10)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pin", action="store_true", help="pin the process to CPU 0")
    parser.add_argument("--no-freeze", action="store_true", help="no gc.freeze() after warm-up")
    parser.add_argument(
        "--warmup", type=int, default=1, help="games played before measuring (default 1)"
    )
    args = parser.parse_args()
    if args.pin and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})

    freeze = not args.no_freeze
    build = "compiled" if iacta.COMPILED else "pure Python"
    print(
        f"engine: {build}; warm-up games: {max(1, args.warmup)}; "
        f"gc.freeze() after warm-up: {'yes' if freeze else 'no'}"
    )
    ours, our_games, ours_cpu = measure(
        alea_playout(args.players), args.seconds, args.seed, freeze, args.warmup
    )
    print(
        f"Alea Iacta Est ({args.players} players): {ours:,.0f} decisions/s "
        f"({ours_cpu:,.0f} per CPU second), {our_games:,.1f} games/s"
    )
    verdict = "meets" if max(ours, ours_cpu) >= TARGET else "MISSES"
    print(f"  target >= {TARGET:,} decisions/s on one core: {verdict}")
    backgammon = backgammon_playout()
    if backgammon is None:
        print("OpenSpiel not installed (pip install -e '.[bench]'): no backgammon comparison")
        return
    theirs, their_games, theirs_cpu = measure(
        backgammon, args.seconds, args.seed, freeze, args.warmup
    )
    print(
        f"OpenSpiel backgammon (C++): {theirs:,.0f} decisions/s "
        f"({theirs_cpu:,.0f} per CPU second), {their_games:,.1f} games/s"
    )
    print(f"ratio ours / backgammon: {ours / theirs:.2f} (wall), {ours_cpu / theirs_cpu:.2f} (CPU)")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average during the run: {load:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
