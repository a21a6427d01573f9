"""Steps per second through each research interface, next to the raw engine.

Every interface plays the same loop: whole games, every decision uniformly
random among the legal actions, chance sampled, final scores computed. The
figure is *decisions per second* (chance events are not counted), so the raw
engine and each wrapper are compared on the same work:

* ``raw engine``: ``state.legal_actions()``, ``rng.choice``, ``state.apply``
  (the baseline of the target);
* ``raw + view``: the same, plus ``state.view(seat)`` at every decision: what
  an agent playing the raw engine reads to decide (for comparison only);
* ``PettingZoo``: ``env()`` with its order-enforcing wrapper; each step reads
  ``last()`` (observation tensor and int8 mask), samples from the mask and
  calls ``step()``; chance is resolved inside;
* ``Gymnasium``: the learner samples from ``info["action_mask"]`` against
  ``random`` bots (which are handed their view, like every bot); decisions
  of the learner and of the bots are both counted;
* ``OpenSpiel``: ``pyspiel`` states of the registered Python game, chance
  sampled from ``chance_outcomes()`` as OpenSpiel users do.

Why the games are interleaved, rotated and warmed up: the engine memoises
its move generation per roll, so its speed keeps rising during the first
hundred games or so, and this machine's speed drifts with other work. Each
round of the measurement plays one game through every interface, after a
warm-up, starting one interface later each round (a loop runs measurably
slower right after a different one), and the totals are compared, so drift,
warm-up and order hit all of them alike.

    .venv/bin/python bench/envs.py [--players 4] [--games 60] [--warmup 150] [--pin]

Target (issue 7): the PettingZoo wrapper keeps at least 50% of the raw
engine's decisions per second.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import alea.iacta as iacta

TARGET = 0.5

Player = Callable[[int], int]  # plays one game from a seed; returns its decisions


def raw_engine(players: int) -> Player:
    def play(seed: int) -> int:
        rng = random.Random(seed)
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


def raw_engine_with_view(players: int) -> Player:
    """The raw loop, plus what an agent on the raw engine reads to decide: its view."""

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = iacta.new_game(players)
        decisions = 0
        choice = rng.choice
        while not state.is_terminal():
            if state.is_chance():
                state.apply(state.sample_chance(rng))
            else:
                state.view(state.current_player())
                state.apply(choice(state.legal_actions()))
                decisions += 1
        state.returns()
        return decisions

    return play


def _pick(mask: Any, rng: random.Random) -> int:
    """A uniformly random legal action from an int8 mask (bool view: numpy's fast path)."""
    legal = mask.view(np.bool_).nonzero()[0]
    return int(legal[rng.randrange(len(legal))])


def pettingzoo(players: int) -> Player:
    from alea.envs.pettingzoo import env

    game = env(players=players)

    def play(seed: int) -> int:
        rng = random.Random(seed)
        game.reset(seed=seed)
        decisions = 0
        for _ in game.agent_iter():
            observation, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.step(None)
            else:
                game.step(_pick(observation["action_mask"], rng))
                decisions += 1
        return decisions

    return play


def gymnasium(players: int) -> Player:
    from alea.envs.gymnasium import AleaIactaEstEnv

    env = AleaIactaEstEnv(players=players, opponents="random")

    def play(seed: int) -> int:
        rng = random.Random(seed)
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            _, _, done, _, info = env.step(_pick(info["action_mask"], rng))
        return len([t for t in env.game.history if t.partition(":")[0] in "RTSCFLKPN"])

    return play


def openspiel(players: int) -> Player:
    import pyspiel  # type: ignore[import-not-found]

    from alea.envs.openspiel import GAME_NAME

    game = pyspiel.load_game(GAME_NAME, {"players": players})

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state: Any = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        state.returns()
        return decisions

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=60, help="measured games per interface")
    parser.add_argument("--warmup", type=int, default=150, help="raw-engine warm-up games")
    parser.add_argument("--pin", action="store_true", help="pin the process to CPU 0")
    args = parser.parse_args()
    if args.pin and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})

    loops: dict[str, Player] = {
        "raw engine": raw_engine(args.players),
        "raw + view": raw_engine_with_view(args.players),
    }
    for name, build in (
        ("PettingZoo", pettingzoo),
        ("Gymnasium", gymnasium),
        ("OpenSpiel", openspiel),
    ):
        try:
            loops[name] = build(args.players)
        except ImportError as err:
            print(f"{name}: not installed ({err.name}); pip install -e '.[rl]'")

    for seed in range(args.warmup):
        loops["raw engine"](10**6 + seed)
    for play in loops.values():
        for seed in range(max(3, args.warmup // 10)):
            play(2 * 10**6 + seed)
    gc.freeze()  # after warm-up, as in bench/playout.py: memo tables leave the GC's passes

    decisions = dict.fromkeys(loops, 0)
    seconds = dict.fromkeys(loops, 0.0)
    names = list(loops)
    for game in range(args.games):
        # Rotate the order every round: a loop runs a little slower right after
        # a different one (cold caches), so each must follow each other alike.
        shift = game % len(names)
        for name in names[shift:] + names[:shift]:
            start = time.perf_counter()
            decisions[name] += loops[name](game * len(names) + names.index(name))
            seconds[name] += time.perf_counter() - start

    raw = decisions["raw engine"] / seconds["raw engine"]
    print(
        f"Alea Iacta Est, {args.players} players, {args.games} random games per interface "
        f"(after {args.warmup} warm-up games)"
    )
    try:
        from alea.envs.observation import BUILDER

        print(f"observation and mask builders: {BUILDER} (ALEA_PURE_PYTHON=1 forces python)")
    except ImportError:
        pass
    print(f"engine: {'compiled' if iacta.COMPILED else 'pure Python'} (gc.freeze() after warm-up)")
    print(f"{'interface':<12} {'decisions/s':>12} {'of raw':>8} {'µs/decision':>12}")
    for name in loops:
        rate = decisions[name] / seconds[name]
        print(f"{name:<12} {rate:>12,.0f} {rate / raw:>8.0%} {1e6 / rate:>12.1f}")
    if "PettingZoo" in loops:
        share = decisions["PettingZoo"] / seconds["PettingZoo"] / raw
        verdict = "meets" if share >= TARGET else "MISSES"
        print(f"target: PettingZoo >= {TARGET:.0%} of the raw engine: {verdict} ({share:.0%})")


if __name__ == "__main__":
    main()
