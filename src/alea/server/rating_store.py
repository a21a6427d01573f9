"""The ratings tables: rating a finished game (in its result's transaction) and reading.

:func:`op_rate_game` is a write of the store (a function of an open
transaction). The commit path runs it in the *same* transaction as the write
that marks the game finished and stores its result
(:meth:`alea.server.core.Core._commit`), so the result and the new ratings are
committed together or not at all: a process killed at any moment leaves both
or neither. The ``rated_games`` row it inserts first is the guard that a game
is rated at most once: the write does nothing for a game that has one, and its
primary key refuses a second even from another process.

The reads (the leaderboard, a player's profile) are blocking functions of the
engine, called through ``asyncio.to_thread`` while serving.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, func, select, update

from alea.server.ratings import START_MU, START_SIGMA, Change, Entrant, bot_entrant, rate
from alea.server.tables import (
    games_table,
    rated_games_table,
    rating_history_table,
    ratings_table,
    seats_table,
    users_table,
)


def op_rate_game(
    game_id: str, game: str, result: dict[str, Any], now: float
) -> Callable[[Connection], list[Change]]:
    """Rate the finished game ``game_id`` of kind ``game`` once; the changes made.

    Seats held by an account (a human's, or one a bot took over from its human)
    are rated; bots enter at their level's fixed strength. A second call for the
    same game changes nothing and returns no change.
    """

    def run(conn: Connection) -> list[Change]:
        done = conn.execute(
            select(rated_games_table.c.game_id).where(rated_games_table.c.game_id == game_id)
        ).first()
        if done is not None:
            return []
        conn.execute(
            rated_games_table.insert(), {"game_id": game_id, "game": game, "rated_at": now}
        )
        seats = conn.execute(
            select(
                seats_table.c.seat,
                seats_table.c.kind,
                seats_table.c.level,
                seats_table.c.replaced,
                seats_table.c.user_id,
            )
            .where(seats_table.c.game_id == game_id)
            .order_by(seats_table.c.seat)
        ).all()
        entrants = _entrants(conn, game, seats)
        changes = rate(entrants, result)
        _store(conn, game_id, game, changes, now)
        return changes

    return run


def _entrants(conn: Connection, game: str, seats: Any) -> list[Entrant]:
    """One entrant per seat: accounts with their current rating, bots at their level."""
    entrants: list[Entrant] = []
    seen: set[str] = set()
    for row in seats:
        person = row.kind == "human" or bool(row.replaced)
        if not person:
            entrants.append(bot_entrant(int(row.seat), row.level))
            continue
        user_id = row.user_id
        if user_id is None or user_id in seen:
            # Not held by an account (a rated table never has one) or a second seat of
            # the same account: it plays its part in the ranking but is not rated.
            entrants.append(Entrant(int(row.seat), None, START_MU, START_SIGMA))
            continue
        seen.add(user_id)
        found = conn.execute(
            select(ratings_table.c.mu, ratings_table.c.sigma).where(
                ratings_table.c.user_id == user_id, ratings_table.c.game == game
            )
        ).first()
        mu, sigma = (float(found.mu), float(found.sigma)) if found else (START_MU, START_SIGMA)
        entrants.append(Entrant(int(row.seat), str(user_id), mu, sigma))
    return entrants


def _store(conn: Connection, game_id: str, game: str, changes: list[Change], now: float) -> None:
    for change in changes:
        key = (ratings_table.c.user_id == change.user_id) & (ratings_table.c.game == game)
        moved = conn.execute(
            update(ratings_table)
            .where(key)
            .values(
                mu=change.mu_after,
                sigma=change.sigma_after,
                games=ratings_table.c.games + 1,
                wins=ratings_table.c.wins + (1 if change.won else 0),
                updated_at=now,
            )
        )
        if moved.rowcount == 0:
            conn.execute(
                ratings_table.insert(),
                {
                    "user_id": change.user_id,
                    "game": game,
                    "mu": change.mu_after,
                    "sigma": change.sigma_after,
                    "games": 1,
                    "wins": 1 if change.won else 0,
                    "updated_at": now,
                },
            )
        conn.execute(
            rating_history_table.insert(),
            {
                "user_id": change.user_id,
                "game_id": game_id,
                "game": game,
                "seat": change.seat,
                "place": change.place,
                "mu_before": change.mu_before,
                "sigma_before": change.sigma_before,
                "mu_after": change.mu_after,
                "sigma_after": change.sigma_after,
                "at": now,
            },
        )


# ------------------------------------------------------------------------ reads


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard."""

    rank: int
    name: str
    mu: float
    sigma: float
    games: int
    wins: int


def _displayed_column() -> Any:
    return ratings_table.c.mu - 3.0 * ratings_table.c.sigma


def leaderboard(engine: Engine, game: str, offset: int, limit: int) -> tuple[int, list[Standing]]:
    """How many accounts hold a rating in ``game``, and the page from ``offset``.

    Ordered by the displayed rating (``mu - 3 sigma``), then by name for ties.
    """
    shown = _displayed_column()
    with engine.connect() as conn:
        total = conn.execute(
            select(func.count()).select_from(ratings_table).where(ratings_table.c.game == game)
        ).scalar_one()
        rows = conn.execute(
            select(
                users_table.c.name,
                ratings_table.c.mu,
                ratings_table.c.sigma,
                ratings_table.c.games,
                ratings_table.c.wins,
            )
            .join(users_table, users_table.c.id == ratings_table.c.user_id)
            .where(ratings_table.c.game == game)
            .order_by(shown.desc(), users_table.c.name_key)
            .offset(offset)
            .limit(limit)
        ).all()
    return int(total), [
        Standing(
            offset + i + 1, str(r.name), float(r.mu), float(r.sigma), int(r.games), int(r.wins)
        )
        for i, r in enumerate(rows)
    ]


@dataclass(frozen=True)
class PlayedGame:
    """A finished game an account sat in."""

    game_id: str
    game: str
    players: int
    seat: int
    won: bool
    rated: bool
    title: str
    finished_at: float
    result: dict[str, Any] | None


@dataclass(frozen=True)
class RatingPoint:
    """One rated game's change of an account's rating."""

    game_id: str
    game: str
    place: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    at: float


@dataclass(frozen=True)
class Profile:
    """What ``GET /api/players/{name}`` shows of an account."""

    name: str
    created_at: float
    ratings: dict[str, tuple[float, float, int, int]]
    played: list[PlayedGame]
    history: list[RatingPoint]


def profile(engine: Engine, name_key: str, history_limit: int = 200) -> Profile | None:
    """The account whose case-folded name is ``name_key``, with its games and ratings."""
    with engine.connect() as conn:
        user = conn.execute(
            select(users_table.c.id, users_table.c.name, users_table.c.created_at).where(
                users_table.c.name_key == name_key
            )
        ).first()
        if user is None:
            return None
        ratings = {
            str(r.game): (float(r.mu), float(r.sigma), int(r.games), int(r.wins))
            for r in conn.execute(
                select(ratings_table).where(ratings_table.c.user_id == user.id)
            ).all()
        }
        rows = conn.execute(
            select(
                games_table.c.id,
                games_table.c.game,
                games_table.c.players,
                games_table.c.title,
                games_table.c.updated_at,
                games_table.c.result,
                games_table.c.rated,
                seats_table.c.seat,
            )
            .join(seats_table, seats_table.c.game_id == games_table.c.id)
            .where(seats_table.c.user_id == user.id, games_table.c.status == "finished")
            .order_by(games_table.c.updated_at.desc())
        ).all()
        played = []
        for r in rows:
            result = json.loads(r.result) if r.result else None
            winners = (result or {}).get("winners") or []
            played.append(
                PlayedGame(
                    game_id=str(r.id),
                    game=str(r.game),
                    players=int(r.players),
                    seat=int(r.seat),
                    won=int(r.seat) in winners,
                    rated=bool(r.rated),
                    title=str(r.title),
                    finished_at=float(r.updated_at),
                    result=result,
                )
            )
        points = conn.execute(
            select(rating_history_table)
            .where(rating_history_table.c.user_id == user.id)
            .order_by(rating_history_table.c.at.desc())
            .limit(history_limit)
        ).all()
    history = [
        RatingPoint(
            str(p.game_id),
            str(p.game),
            int(p.place),
            float(p.mu_before),
            float(p.sigma_before),
            float(p.mu_after),
            float(p.sigma_after),
            float(p.at),
        )
        for p in reversed(points)
    ]
    return Profile(str(user.name), float(user.created_at), ratings, played, history)


def finish_rated(
    append: Callable[[Any], Any], rating: Callable[[Any], Any]
) -> Callable[[Any], None]:
    """The write that stores a rated game's last events and result *and* rates it.

    One function of one transaction: the store commits both or neither, so no
    crash can leave a finished rated game unrated or rate a game whose result
    was not stored (and the rating's own guard never rates a game twice).
    """

    def run(conn: Any) -> None:
        append(conn)
        rating(conn)

    return run
