"""Tournaments: many seeded games between bots, on every core or on a Ray cluster.

Trustworthy win rates need three things, all enforced here:

* **Balanced seats.** Game ``g`` seats entrant ``(s + g) mod n`` in seat
  ``s``: over every block of ``n`` games each entrant plays each seat once
  (the first player has an edge in most games; rotation cancels it).
* **Reproducible games.** A game is a pure function of the entrants, the
  tournament seed and its index: its chance events and each seat's bot get
  their own ``random.Random`` seeded from a hash of those, so a result never
  depends on which worker played it, in which order, or on which backend.
* **Honest bots.** The driver asks bots through :func:`alea.bots.ask`, which
  passes only the seat's view and the legal actions.
"""

from __future__ import annotations

import hashlib
import os
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import alea.iacta as iacta
from alea.bots import Bot, ask, make

#: Called with the number of games finished so far and the total.
Progress = Callable[[int, int], None]


def derive_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed from ``seed`` and ``parts`` (stable across processes and machines).

    Python's ``hash()`` is salted per process, so it cannot be used here.
    """
    text = ":".join(str(p) for p in ("alea", seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@dataclass(frozen=True)
class Tournament:
    """What to play: ``entrants`` (bot specs, one per seat), ``games``, ``seed``."""

    entrants: tuple[str, ...]
    games: int
    seed: int = 0
    keep_records: bool = False

    def __post_init__(self) -> None:
        if len(self.entrants) not in (2, 3, 4, 5):
            raise ValueError(
                f"a game has 2 to 5 players, so give 2 to 5 bots, not {len(self.entrants)}"
            )
        if self.games < 1:
            raise ValueError("play at least one game")
        for spec in self.entrants:
            make(spec)  # fail now, not in a worker

    @property
    def players(self) -> int:
        return len(self.entrants)

    @property
    def labels(self) -> list[str]:
        """Display names: the specs, numbered where one appears more than once."""
        seen: dict[str, int] = {}
        out: list[str] = []
        for spec in self.entrants:
            seen[spec] = seen.get(spec, 0) + 1
            total = self.entrants.count(spec)
            out.append(f"{spec} #{seen[spec]}" if total > 1 else spec)
        return out

    def seating(self, index: int) -> list[int]:
        """Entrant index in each seat of game ``index`` (the rotation)."""
        n = self.players
        return [(seat + index) % n for seat in range(n)]


@dataclass(frozen=True)
class GameResult:
    """The outcome of one game. ``seating[s]`` is the entrant in seat ``s``."""

    index: int
    seed: int
    seating: tuple[int, ...]
    scores: tuple[int, ...]
    tiebreaks: tuple[int, ...]
    winners: tuple[int, ...]
    decisions: tuple[int, ...]
    record: dict[str, Any] | None = None
    seconds: float = field(default=0.0, compare=False)

    def to_json(self, labels: Sequence[str]) -> dict[str, Any]:
        """One JSONL line: the seats by name, the result and (if kept) the record."""
        return {
            "index": self.index,
            "seed": self.seed,
            "seats": [labels[e] for e in self.seating],
            "scores": list(self.scores),
            "tiebreaks": list(self.tiebreaks),
            "winners": list(self.winners),
            "decisions": list(self.decisions),
            "seconds": round(self.seconds, 3),
            "record": self.record,
        }


_BOTS: dict[str, Bot] = {}


def _bot(spec: str) -> Bot:
    """One bot per spec and process: bots keep no memory between decisions."""
    bot = _BOTS.get(spec)
    if bot is None:
        bot = _BOTS[spec] = make(spec)
    return bot


def play_game(tournament: Tournament, index: int) -> GameResult:
    """Play game ``index`` of ``tournament`` (deterministic: see the module doc)."""
    started = time.perf_counter()
    seed = derive_seed(tournament.seed, index)
    seating = tournament.seating(index)
    n = tournament.players
    bots = [_bot(tournament.entrants[e]) for e in seating]
    chance = random.Random(derive_seed(seed, "chance"))
    rngs = [random.Random(derive_seed(seed, "seat", s)) for s in range(n)]
    decisions = [0] * n
    state = iacta.new_game(n)
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(chance))
            continue
        seat = state.current_player()
        state.apply(ask(bots[seat], state, rngs[seat]))
        decisions[seat] += 1
    arrangements = state.arrangements()
    return GameResult(
        index=index,
        seed=seed,
        seating=tuple(seating),
        scores=tuple(a.score for a in arrangements),
        tiebreaks=tuple(a.tiebreak for a in arrangements),
        winners=tuple(state.winners()),
        decisions=tuple(decisions),
        record=state.record() if tournament.keep_records else None,
        seconds=time.perf_counter() - started,
    )


def play_games(tournament: Tournament, indices: Sequence[int]) -> list[GameResult]:
    """Play several games in this process (the unit of work a worker receives)."""
    return [play_game(tournament, i) for i in indices]


def chunks(games: int, size: int) -> list[list[int]]:
    """Game indices in consecutive chunks of ``size``."""
    return [list(range(i, min(i + size, games))) for i in range(0, games, size)]


def _chunk_size(games: int, workers: int) -> int:
    """Small enough for a smooth progress bar and load balance, big enough to be cheap."""
    return max(1, min(16, games // (workers * 8) or 1))


def run_serial(tournament: Tournament, progress: Progress | None = None) -> list[GameResult]:
    """Every game in this process, in order (tests, debugging, one core)."""
    results: list[GameResult] = []
    for i in range(tournament.games):
        results.append(play_game(tournament, i))
        if progress is not None:
            progress(i + 1, tournament.games)
    return results


def run_multiprocessing(
    tournament: Tournament, workers: int | None = None, progress: Progress | None = None
) -> list[GameResult]:
    """Every game on a pool of ``workers`` processes (default: every core)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    workers = workers or os.cpu_count() or 1
    if workers == 1:
        return run_serial(tournament, progress)
    size = _chunk_size(tournament.games, workers)
    results: list[GameResult] = []
    # fork where the platform has it: "spawn" re-runs the main module in every
    # worker, which breaks entry points without a __main__ guard.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [
            pool.submit(play_games, tournament, chunk) for chunk in chunks(tournament.games, size)
        ]
        for future in as_completed(futures):
            results.extend(future.result())
            if progress is not None:
                progress(len(results), tournament.games)
    results.sort(key=lambda r: r.index)
    return results


def run(
    tournament: Tournament,
    backend: str = "multiprocessing",
    workers: int | None = None,
    address: str | None = None,
    progress: Progress | None = None,
) -> list[GameResult]:
    """Play the tournament on ``backend`` (``multiprocessing``, ``ray`` or ``serial``).

    Every backend returns the same results, in game order, for the same
    tournament (timings aside).
    """
    if backend in ("multiprocessing", "mp"):
        return run_multiprocessing(tournament, workers, progress)
    if backend == "serial":
        return run_serial(tournament, progress)
    if backend == "ray":
        from alea.sim.ray_backend import run_ray

        return run_ray(tournament, address=address, workers=workers, progress=progress)
    raise ValueError(f"unknown backend {backend!r}: multiprocessing, ray or serial")


def iter_json(tournament: Tournament, results: Iterable[GameResult]) -> Iterator[dict[str, Any]]:
    """The JSONL lines of a tournament's games."""
    labels = tournament.labels
    for result in results:
        yield result.to_json(labels)
