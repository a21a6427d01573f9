"""Tournament statistics: win shares with confidence intervals, scores, seats, ratings.

* **Win share**: a win counts 1, a shared victory ``1/k`` for each of the
  ``k`` winners, so the shares of all entrants add up to 1 per game.
* **95% interval**: the Wilson score interval, which behaves at shares near 0
  or 1 and for small samples, where the textbook ``p ± 1.96·√(p(1-p)/n)``
  does not.
* **Ratings**: TrueSkill (the ``trueskill`` package), updated game by game in
  game order so that the figures are reproducible. Ranks come from the final
  score, then the tie-break; exact ties are draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt
from statistics import fmean, pstdev
from typing import Any

from alea.sim.runner import GameResult, Tournament

Z95 = 1.959963984540054


def wilson(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``share`` observed over ``n`` trials."""
    if n <= 0:
        return 0.0, 1.0
    denom = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / denom
    half = z * sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class EntrantStats:
    """One entrant's results over the tournament."""

    label: str
    spec: str
    games: int
    wins: float
    win_share: float
    ci: tuple[float, float]
    mean_score: float
    sd_score: float
    scores: tuple[int, ...]
    seat_games: tuple[int, ...]
    seat_share: tuple[float, ...]
    rating: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "spec": self.spec,
            "games": self.games,
            "wins": self.wins,
            "win_share": self.win_share,
            "ci95": list(self.ci),
            "mean_score": self.mean_score,
            "sd_score": self.sd_score,
            "seat_share": list(self.seat_share),
            "trueskill": {"mu": self.rating[0], "sigma": self.rating[1]},
        }


@dataclass(frozen=True)
class Summary:
    """Everything the tournament table and plots show."""

    tournament: Tournament
    entrants: tuple[EntrantStats, ...]
    seat_share: tuple[float, ...]
    games: int

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.tournament.players,
            "games": self.games,
            "seed": self.tournament.seed,
            "entrants": [e.to_json() for e in self.entrants],
            "seat_share": list(self.seat_share),
        }


def ratings(tournament: Tournament, results: Sequence[GameResult]) -> list[tuple[float, float]]:
    """TrueSkill (mu, sigma) of each entrant after every game, in game order."""
    import trueskill  # type: ignore[import-untyped]

    env = trueskill.TrueSkill()
    current = [env.create_rating() for _ in tournament.entrants]
    for result in sorted(results, key=lambda r: r.index):
        keys = [(result.scores[s], result.tiebreaks[s]) for s in range(len(result.seating))]
        order = sorted(set(keys), reverse=True)
        ranks = [order.index(k) for k in keys]
        groups = [(current[e],) for e in result.seating]
        rated = env.rate(groups, ranks=ranks)
        for seat, entrant in enumerate(result.seating):
            current[entrant] = rated[seat][0]
    return [(float(r.mu), float(r.sigma)) for r in current]


def summarize(tournament: Tournament, results: Sequence[GameResult]) -> Summary:
    """The statistics of ``results`` (games of ``tournament``)."""
    n = tournament.players
    count = len(results)
    wins = [0.0] * n
    seat_wins = [[0.0] * n for _ in range(n)]
    seat_games = [[0] * n for _ in range(n)]
    scores: list[list[int]] = [[] for _ in range(n)]
    by_seat = [0.0] * n
    for result in results:
        share = 1.0 / len(result.winners)
        for seat, entrant in enumerate(result.seating):
            scores[entrant].append(result.scores[seat])
            seat_games[entrant][seat] += 1
            if seat in result.winners:
                wins[entrant] += share
                seat_wins[entrant][seat] += share
                by_seat[seat] += share
    rated = ratings(tournament, results)
    entrants = []
    for e, (label, spec) in enumerate(zip(tournament.labels, tournament.entrants, strict=True)):
        games = len(scores[e])
        share = wins[e] / games if games else 0.0
        entrants.append(
            EntrantStats(
                label=label,
                spec=spec,
                games=games,
                wins=wins[e],
                win_share=share,
                ci=wilson(share, games),
                mean_score=fmean(scores[e]) if scores[e] else 0.0,
                sd_score=pstdev(scores[e]) if len(scores[e]) > 1 else 0.0,
                scores=tuple(scores[e]),
                seat_games=tuple(seat_games[e]),
                seat_share=tuple(
                    seat_wins[e][s] / seat_games[e][s] if seat_games[e][s] else 0.0
                    for s in range(n)
                ),
                rating=rated[e],
            )
        )
    return Summary(
        tournament=tournament,
        entrants=tuple(entrants),
        seat_share=tuple(w / count if count else 0.0 for w in by_seat),
        games=count,
    )
