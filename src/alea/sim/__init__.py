"""Tournaments between bots: seeded, seat-balanced, on every core or a Ray cluster.

>>> from alea.sim import Tournament, run, summarize
>>> t = Tournament(entrants=("greedy", "random"), games=2, seed=1)
>>> results = run(t, backend="serial")
>>> [r.index for r in results]
[0, 1]
>>> summarize(t, results).entrants[0].games
2
"""

from alea.sim.runner import (
    GameResult,
    Tournament,
    derive_seed,
    play_game,
    run,
    run_multiprocessing,
    run_serial,
)
from alea.sim.stats import EntrantStats, Summary, summarize, wilson

__all__ = [
    "EntrantStats",
    "GameResult",
    "Summary",
    "Tournament",
    "derive_seed",
    "play_game",
    "run",
    "run_multiprocessing",
    "run_serial",
    "summarize",
    "wilson",
]
