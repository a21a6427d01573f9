"""Ratings of rated games: openskill's Plackett-Luce model, one rating per game kind.

Why these choices
-----------------
* **Plackett-Luce** (:mod:`openskill`) is made for free-for-all games of any
  number of players: a finished game is a ranking of its seats (ties share a
  place) and every seat's rating moves by how surprising its place was.
* **Bots are fixed-strength entrants.** A bot at a rated table enters the
  update with the rating of its level (:data:`BOT_STRENGTH`, sigma
  :data:`BOT_SIGMA`) and is never updated itself, so beating an expert bot is
  worth more than beating an easy one, and bots cannot be farmed.
* **A seat a bot took over** (its human went quiet) still counts for the
  account that holds it: walking away from a losing game does not save a rating.
* **The displayed rating** is the conservative ``mu - 3 sigma`` (openskill's
  *ordinal*), so a newcomer starts at 0 and climbs as the system grows sure.

This module only computes; :mod:`alea.server.rating_store` reads and writes the
tables, in the transaction that stores the game's result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce

#: The rating each bot level enters a rated game with (its mu; never updated).
BOT_STRENGTH: Final = {"easy": 18.0, "medium": 25.0, "hard": 32.0, "expert": 36.0}
#: The uncertainty of a bot's fixed rating: small, since its strength does not change.
BOT_SIGMA: Final = 2.0
#: A new account's rating in a game kind (openskill's defaults).
START_MU: Final = 25.0
START_SIGMA: Final = 25.0 / 3.0

_MODEL: Final = PlackettLuce(mu=START_MU, sigma=START_SIGMA)


def displayed(mu: float, sigma: float) -> float:
    """The rating players see: ``mu - 3 sigma`` (sure to be at most the true skill)."""
    return mu - 3.0 * sigma


@dataclass(frozen=True)
class Entrant:
    """One seat of a finished rated game: its account (None: a bot) and rating before."""

    seat: int
    user_id: str | None
    mu: float
    sigma: float


@dataclass(frozen=True)
class Change:
    """How a rated game moved one account's rating."""

    seat: int
    user_id: str
    place: int
    won: bool
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


def places(result: dict[str, Any]) -> list[int]:
    """Each seat's place (1: best; ties share) from a stored result.

    Winners come first (the game's own word, tie-breaks included), then the
    others by score and, where the game has them, tie-breaks (Alea Iacta Est).
    """
    scores: Sequence[Any] = result.get("scores") or []
    winners = set(result.get("winners") or [])
    tiebreaks: Sequence[Any] = result.get("tiebreaks") or [0] * len(scores)
    keys = [(seat in winners, scores[seat], tiebreaks[seat]) for seat in range(len(scores))]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def bot_entrant(seat: int, level: str | None) -> Entrant:
    """A bot's fixed entry (an unknown level counts as medium)."""
    return Entrant(seat, None, BOT_STRENGTH.get(level or "", BOT_STRENGTH["medium"]), BOT_SIGMA)


def rate(entrants: Sequence[Entrant], result: dict[str, Any]) -> list[Change]:
    """The new ratings of the accounts among ``entrants`` after the game ``result`` tells.

    ``entrants`` are in seat order, one per seat. Bots are in the update (they
    shape everyone's change) but get no :class:`Change`.
    """
    ranks = places(result)
    if len(ranks) != len(entrants):
        raise ValueError(f"{len(ranks)} places for {len(entrants)} seats")
    teams = [[_MODEL.rating(mu=e.mu, sigma=e.sigma)] for e in entrants]
    after = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
    changes = []
    for entrant, team, place in zip(entrants, after, ranks, strict=True):
        if entrant.user_id is None:
            continue
        changes.append(
            Change(
                seat=entrant.seat,
                user_id=entrant.user_id,
                place=place,
                won=place == 1,
                mu_before=entrant.mu,
                sigma_before=entrant.sigma,
                mu_after=float(team[0].mu),
                sigma_after=float(team[0].sigma),
            )
        )
    return changes
