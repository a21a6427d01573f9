"""CPU time of the greedy playout policy per simulated decision (issue 14).

Every IS-MCTS playout asks the greedy bot (without re-rolls) for every simulated
player's decision: ``Table.from_state`` then ``GreedyBot.decide``, as
:func:`alea.bots.ismcts.greedy_policy` does. This bench collects the decision
positions of a few seeded 4-player games of ``medium`` bots, then times that
policy on all of them (each position once as its own seat, once as a rival seen
publicly) and prints microseconds of CPU per decision, best of ``--repeat``, and a
digest of the decisions: two trees (or builds) that decide alike print the same
digest. Compare two trees by running this file with each one's ``src`` on
``PYTHONPATH``; ``--profile`` prints a cProfile of one pass (useful on the
pure-Python build, ``ALEA_PURE_PYTHON=1``).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import hashlib
import pstats
import random
import time

import alea.iacta as iacta
from alea.bots import COMPILED, GreedyBot, GreedyParams, ask, make
from alea.bots.table import Table


def positions(games: int, seed: int) -> list[iacta.State]:
    """Every decision position of ``games`` seeded 4-player games of ``medium``."""
    found: list[iacta.State] = []
    bots = [make("medium") for _ in range(4)]
    for g in range(games):
        rng = random.Random(seed + g)
        state = iacta.new_game(4)
        while not state.is_terminal():
            if state.is_chance():
                state.apply(state.sample_chance(rng))
                continue
            found.append(state.clone())
            state.apply(ask(bots[state.current_player()], state, rng))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="cProfile one pass")
    args = parser.parse_args()
    states = positions(args.games, args.seed)
    cases = [
        (state, state.current_player(), public, state.legal_actions())
        for state in states
        for public in (False, True)
    ]
    bot = GreedyBot(GreedyParams(reroll_samples=0))

    def run() -> list[str]:
        rng = random.Random(0)
        return [
            bot.decide(Table.from_state(state, seat, public=public), legal, rng)
            for state, seat, public, legal in cases
        ]

    decisions = run()  # warm the caches, as a searching process is warm
    gc.freeze()
    best = float("inf")
    for _ in range(args.repeat):
        cpu = time.process_time()
        run()
        best = min(best, time.process_time() - cpu)
    digest = hashlib.sha256("|".join(decisions).encode()).hexdigest()[:16]
    print(
        f"greedy policy ({'compiled' if COMPILED else 'pure Python'}): {len(cases)} decisions, "
        f"{best * 1e6 / len(cases):.1f} µs of CPU per decision (best of {args.repeat}); "
        f"decisions digest {digest}"
    )
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        run()
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
