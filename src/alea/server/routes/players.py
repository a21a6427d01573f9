"""Players who come back: the leaderboard of each game, a player's profile, their pages.

Ratings are openskill's (Plackett-Luce; see :mod:`alea.server.ratings`); the
rating shown and ranked by is the conservative ``mu - 3 sigma``. A profile is
public, like a name at a table: the games an account played (finished ones
only, with their replays), its ratings and how they moved.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, Field

from alea.server import accounts
from alea.server.errors import ServerError
from alea.server.games import names
from alea.server.rating_store import leaderboard, profile
from alea.server.ratings import displayed
from alea.server.routes.common import ERRORS, Server
from alea.server.routes.pages import web_root

router = APIRouter(tags=["players"])
pages = APIRouter(include_in_schema=False)

#: Most recent games a profile lists.
RECENT = 20


class StandingOut(BaseModel):
    rank: int = Field(description="1 for the highest displayed rating")
    name: str
    rating: float = Field(description="the displayed rating: mu - 3 sigma")
    mu: float
    sigma: float
    games: int = Field(description="rated games played")
    wins: int
    profile: str = Field(description="the player's profile page")


class LeaderboardOut(BaseModel):
    game: str
    total: int = Field(description="accounts with a rating in this game")
    offset: int
    limit: int
    entries: list[StandingOut]


class RatingOut(BaseModel):
    game: str
    rating: float = Field(description="mu - 3 sigma")
    mu: float
    sigma: float
    games: int
    wins: int


class RecordOut(BaseModel):
    """Games played and won in one game kind at one table size."""

    game: str
    players: int
    played: int
    won: int


class RecentOut(BaseModel):
    id: str
    game: str
    players: int
    seat: int
    won: bool
    rated: bool
    title: str
    finished_at: float
    scores: list[Any]
    replay: str = Field(description="the replay page")


class PointOut(BaseModel):
    """One rated game's change of the player's displayed rating."""

    game_id: str
    game: str
    place: int
    before: float = Field(description="displayed rating before the game")
    after: float = Field(description="displayed rating after the game")
    mu: float
    sigma: float
    at: float
    replay: str


class ProfileOut(BaseModel):
    name: str
    created_at: float
    ratings: list[RatingOut]
    records: list[RecordOut] = Field(description="per game and player count")
    recent: list[RecentOut] = Field(description=f"the {RECENT} last finished games")
    history: list[PointOut] = Field(description="rating changes, oldest first")


def _game_kind(game: str) -> str:
    if game not in names():
        raise ServerError("bad_request", 422, detail=f"unknown game {game!r}")
    return game


@router.get("/api/leaderboard/{game}", response_model=LeaderboardOut, responses=ERRORS)
async def get_leaderboard(
    game: str,
    server: Server,
    offset: int = Query(0, ge=0, le=1_000_000, description="entries to skip"),
    limit: int = Query(50, ge=1, le=200, description="entries in the page"),
) -> dict[str, Any]:
    """The rated players of ``game`` (iacta, romano) best first, a page at a time.

    Ranked by the displayed rating ``mu - 3 sigma``: an openskill (Plackett-Luce)
    rating counted only once the system is sure of it, so a newcomer starts at 0.
    """
    kind = _game_kind(game)
    total, rows = await asyncio.to_thread(leaderboard, server.store.engine, kind, offset, limit)
    return {
        "game": kind,
        "total": total,
        "offset": offset,
        "limit": limit,
        "entries": [
            {
                "rank": r.rank,
                "name": r.name,
                "rating": round(displayed(r.mu, r.sigma), 2),
                "mu": r.mu,
                "sigma": r.sigma,
                "games": r.games,
                "wins": r.wins,
                "profile": f"/players/{r.name}",
            }
            for r in rows
        ],
    }


@router.get("/api/players/{name}", response_model=ProfileOut, responses=ERRORS)
async def get_player(name: str, server: Server) -> dict[str, Any]:
    """A player's profile: ratings, games played and won per game and player count,
    recent games with replay links, and the rating history (``no_such_player``: 404)."""
    if len(name) > 64:
        raise ServerError("no_such_player", 404, name=name[:64])
    found = await asyncio.to_thread(profile, server.store.engine, accounts.name_key(name))
    if found is None:
        raise ServerError("no_such_player", 404, name=name)
    played: Counter[tuple[str, int]] = Counter()
    won: Counter[tuple[str, int]] = Counter()
    for g in found.played:
        played[(g.game, g.players)] += 1
        won[(g.game, g.players)] += g.won
    return {
        "name": found.name,
        "created_at": found.created_at,
        "ratings": [
            {
                "game": game,
                "rating": round(displayed(mu, sigma), 2),
                "mu": mu,
                "sigma": sigma,
                "games": games,
                "wins": wins,
            }
            for game, (mu, sigma, games, wins) in sorted(found.ratings.items())
        ],
        "records": [
            {"game": game, "players": players, "played": count, "won": won[(game, players)]}
            for (game, players), count in sorted(played.items())
        ],
        "recent": [
            {
                "id": g.game_id,
                "game": g.game,
                "players": g.players,
                "seat": g.seat,
                "won": g.won,
                "rated": g.rated,
                "title": g.title,
                "finished_at": g.finished_at,
                "scores": (g.result or {}).get("scores") or [],
                "replay": f"/replay/{g.game_id}",
            }
            for g in found.played[:RECENT]
        ],
        "history": [
            {
                "game_id": p.game_id,
                "game": p.game,
                "place": p.place,
                "before": round(displayed(p.mu_before, p.sigma_before), 2),
                "after": round(displayed(p.mu_after, p.sigma_after), 2),
                "mu": p.mu_after,
                "sigma": p.sigma_after,
                "at": p.at,
                "replay": f"/replay/{p.game_id}",
            }
            for p in found.history
        ],
    }


@pages.get("/players/{name}")
@pages.get("/leaderboard")
@pages.get("/leaderboard/{game}")
async def players_page() -> Response:
    """The client's one page (like :mod:`.pages`): its script shows the profile or the
    leaderboard the path names (js/players.js)."""
    return FileResponse(web_root() / "index.html", headers={"Cache-Control": "no-cache"})
