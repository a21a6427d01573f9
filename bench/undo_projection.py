"""Benchmark of undo and projected scores: the work the server does on the event loop.

Run: ``.venv/bin/python bench/undo_projection.py [--games N] [--seed S]``

On whole random games of 2 to 5 players (the rules engine with uniformly random
legal actions), at every event:

(a) *may undo*: :func:`alea.undo.undo_point` for every seat, as each update does
    for the Undo button (target: median <= 0.02 ms per seat, so that
    move-to-board-update times do not get worse);
(b) *undo*: :func:`alea.undo.taken_back`, the replay of the record without the last
    event, at the points where a seat may undo (target: worst <= 50 ms: it runs
    under the game's lock, once per click);
(c) *projection*: :func:`alea.iacta.projection.projection` of seat 0's view (it runs in
    a worker thread; target: median <= 5 ms, worst <= 100 ms).

Times are CPU time of this process (``time.process_time``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import alea.iacta as iacta
from alea.iacta.projection import projection
from alea.undo import UndoRefused, decider, taken_back, undo_point

TARGET_MAY_MEDIAN_MS = 0.02
TARGET_UNDO_WORST_MS = 50.0
TARGET_PROJ_MEDIAN_MS = 5.0
TARGET_PROJ_WORST_MS = 100.0


def _ms(start: float) -> float:
    return (time.process_time() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    may: list[float] = []
    undo: list[float] = []
    proj: list[float] = []
    for g in range(args.games):
        players = 2 + g % 4
        state = iacta.new_game(players)
        deciders: list[int | None] = []
        while not state.is_terminal():
            if state.is_chance():
                event: object = state.sample_chance(rng)
            else:
                event = rng.choice(state.legal_actions())
            deciders.append(decider(iacta.INFO, state, event))
            state.apply(event)
            allowed = None
            for seat in range(players):
                start = time.process_time()
                try:
                    index = undo_point(state, deciders, seat)
                    allowed = index
                except UndoRefused:
                    pass
                may.append(_ms(start))
            if allowed is not None:
                start = time.process_time()
                taken_back(state, allowed)
                undo.append(_ms(start))
            if len(deciders) % 10 == 0:
                start = time.process_time()
                projection(state.view(0))
                proj.append(_ms(start))

    def line(name: str, values: list[float], target: str) -> None:
        print(
            f"{name:<12} n={len(values):>6}  median {statistics.median(values):8.4f} ms  "
            f"worst {max(values):8.3f} ms   target {target}"
        )

    line("may undo", may, f"median <= {TARGET_MAY_MEDIAN_MS} ms")
    line("undo", undo, f"worst <= {TARGET_UNDO_WORST_MS} ms")
    line("projection", proj, f"median <= {TARGET_PROJ_MEDIAN_MS}, worst <= {TARGET_PROJ_WORST_MS}")
    ok = (
        statistics.median(may) <= TARGET_MAY_MEDIAN_MS
        and max(undo) <= TARGET_UNDO_WORST_MS
        and statistics.median(proj) <= TARGET_PROJ_MEDIAN_MS
        and max(proj) <= TARGET_PROJ_WORST_MS
    )
    print("targets met" if ok else "TARGETS MISSED")


if __name__ == "__main__":
    main()
