"""CPU of the views one server update needs: each seat's (and a spectator's) of one position.

After every event the game server sends each seat of the table its own view of the new
position (``state.view(seat)``; a spectator's too when someone watches). This bench takes
positions sampled from seeded random 4-player games and times, per position, in CPU
time (``time.process_time``, so a busy machine disturbs it little):

* the **old** algorithm, :func:`alea.iacta.views.reference_view`: each observer's
  knowledge written as JSON afresh (what ``view`` did before the public part was kept);
* the **new** :func:`alea.iacta.views.view` on a fresh copy of the position (no view
  kept yet: the first call writes the public part, the others reuse it), as the
  server meets each new position.

Each is timed for the 4 seats, for the 4 seats and a spectator, and for one seat alone
(a bot asks one view per decision: there the new path adds its copy), the best of
``--repeat`` alternating runs, and reported in µs per position, with the ratio old/new,
by round (the evaluations' accounts grow through the game) and over all positions.
Every new view is first checked equal to the old one.

    python bench/views.py [--games 40] [--every 3] [--repeat 7] [--seed 1]

``ALEA_PURE_PYTHON=1`` measures the pure-Python engine; the first line says which runs.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import alea.iacta as iacta
from alea.iacta.views import reference_view, view

PLAYERS = 4
#: The observer sets timed per position.
CASES: dict[str, tuple[int | None, ...]] = {
    "4 seats": (0, 1, 2, 3),
    "4 seats + spectator": (0, 1, 2, 3, None),
    "1 seat": (0,),
}


def positions(games: int, every: int, seed: int) -> list[iacta.State]:
    """Every ``every``-th position (the first included) of ``games`` seeded random games."""
    found: list[iacta.State] = []
    for number in range(games):
        rng = random.Random(seed * 100_003 + number)
        state = iacta.new_game(PLAYERS)
        step = 0
        while not state.is_terminal():
            if step % every == 0:
                found.append(state.clone())
            if state.is_chance():
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
            step += 1
        found.append(state)
    return found


def run(
    make: Callable[[iacta.State, int | None], dict[str, Any]],
    states: Sequence[iacta.State],
    observers: tuple[int | None, ...],
) -> float:
    """CPU seconds for every observer's view of each of ``states``, timed as one loop.

    Each position is a fresh clone (no view kept on it yet), dropped once its views are
    made, as the server's state drops its kept view at the next event: thousands of
    kept views alive at once would only time the garbage collector's passes over them.
    """
    fresh = [state.clone() for state in states]
    fresh.reverse()
    pop = fresh.pop
    gc.collect()
    start = time.process_time()
    while fresh:
        state = pop()
        for seat in observers:
            make(state, seat)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="seeded 4-player games")
    parser.add_argument("--every", type=int, default=3, help="take every n-th position")
    parser.add_argument("--repeat", type=int, default=7, help="alternating runs, best kept")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    states = positions(args.games, args.every, args.seed)
    for state in states:  # the new path shows exactly what the old one did
        for seat in (*range(PLAYERS), None):
            assert view(state.clone(), seat) == reference_view(state, seat)
    by_round: dict[int, list[iacta.State]] = {}
    for state in states:
        by_round.setdefault(min(state.round + 1, state.rounds), []).append(state)
    gc.collect()
    gc.freeze()  # the positions and the engine's tables leave the collector's passes
    build = "compiled" if iacta.COMPILED else "pure Python"
    print(
        f"engine: {build}; {len(states)} positions of {args.games} seeded {PLAYERS}-player "
        f"games (one position in {args.every}); best of {args.repeat} alternating runs, CPU time"
    )
    for name, observers in CASES.items():
        # Per round: the best run of each algorithm (the fewest interruptions).
        best: dict[tuple[str, int], float] = {}
        for _ in range(args.repeat):
            for number, group in by_round.items():
                for label, make in (("old", reference_view), ("new", view)):
                    seconds = run(make, group, observers)
                    key = (label, number)
                    best[key] = min(best.get(key, seconds), seconds)
        print(f"\n{name}: µs of CPU per position")
        print(f"  {'positions':<10} {'count':>6} {'old':>8} {'new':>8} {'old/new':>8}")
        rows = [(f"round {r}", [r]) for r in sorted(by_round)] + [("all", sorted(by_round))]
        for label, numbers in rows:
            count = sum(len(by_round[r]) for r in numbers)
            before = sum(best["old", r] for r in numbers) / count * 1e6
            after = sum(best["new", r] for r in numbers) / count * 1e6
            print(f"  {label:<10} {count:>6} {before:8.1f} {after:8.1f} {before / after:7.2f}x")


if __name__ == "__main__":
    main()
