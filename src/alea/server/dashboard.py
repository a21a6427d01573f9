"""The "Your games" dashboard: every game an account is in, the ones waiting for it first.

Pure functions of the games in memory and the server's clock: one
:func:`entry` per seat the account holds, and :func:`ordered`, which puts
first the games where it is the account's turn (the soonest deadline first),
then the games being played, the games waiting for players, and last the
most recent games that are over.
"""

from __future__ import annotations

from typing import Any, Final

from alea.server.room import ACTIVE, OPEN, OVER, Game
from alea.server.turns import clock_json, turn_deadline

#: Games that are over shown at most (the most recent).
MAX_OVER: Final = 20


def entry(game: Game, seat: int, now: float) -> dict[str, Any]:
    """What the dashboard shows of ``game`` for the account holding ``seat``."""
    colours = game.info.colours
    to_move = game.to_move() if game.status == ACTIVE else None
    deadline = turn_deadline(game)
    round_, rounds = game.state.progress()
    return {
        "id": game.id,
        "game": game.game_name,
        "title": game.title,
        "status": game.status,
        "seat": seat,
        "colour": colours[seat],
        "name": game.seats[seat].name,
        "replaced": game.seats[seat].replaced,
        "your_turn": game.decides(seat),
        "to_move": to_move,
        "to_move_name": game.seats[to_move].name if to_move is not None else None,
        "deadline": deadline,
        "time_left": None if deadline is None else max(0.0, deadline - now),
        "time_control": clock_json(game),
        "round": round_,
        "rounds": rounds,
        "opponents": [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "colour": colours[s.seat],
                "claimed": s.claimed,
            }
            for s in game.seats
            if s.seat != seat
        ],
        "open_seats": [s.seat for s in game.seats if not s.claimed],
        "result": game.result,
        "updated_at": game.updated_at,
        "link": f"/game/{game.id}",
    }


def _rank(item: dict[str, Any]) -> tuple[int, float]:
    if item["your_turn"]:
        deadline = item["deadline"]
        return 0, deadline if deadline is not None else float("inf")
    group = {ACTIVE: 1, OPEN: 2}.get(item["status"], 3)
    return group, -float(item["updated_at"])


def ordered(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Your turn first (soonest deadline first), then playing, open, and over games."""
    ranked = sorted(entries, key=_rank)
    over = [e for e in ranked if e["status"] in OVER][:MAX_OVER]
    return [e for e in ranked if e["status"] not in OVER] + over
