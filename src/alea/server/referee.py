"""A game's human referee (Dado Romano: RULES.md B5): the role, its claim, the typed exchange.

The referee is a *role* besides the seats, not a player: it is claimed like a
seat (a secret token, stored hashed), the game stays ``open`` until it is
claimed, and inside the server it acts as the pseudo-seat
:data:`~alea.server.games.REFEREE`, so the ordinary turn check of
:meth:`~alea.server.core.Core.act` lets it, and only it, mark answers. Bots
never referee and the idle takeover never concerns it: while the referee is
to mark, no seat is to move, so nobody can be "taken over" and the table
simply waits.

While an answer awaits its mark, the referee may type the riddle or question
and the answering player their answer (:meth:`Refereeing.say`). That
exchange is stored with the game (``games.exchange``), not in the event log,
keyed by the item being asked (the engine's :meth:`~alea.game.GameState.asked`) so
that the next item starts blank.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Final

from alea.game import GameInfo
from alea.server import auth, catchup
from alea.server.core import Core
from alea.server.errors import ServerError
from alea.server.games import HUMAN_REFEREE, REFEREE, REFEREES
from alea.server.room import OPEN, OVER, Game, clean_name
from alea.server.tables import VersionConflict
from alea.server.writes import op_claim_referee, op_set_exchange

#: Times a referee claim is decided again after another process changed the game.
RETRIES: Final = 8

#: Most characters of a typed riddle, question or answer (a sentence or two, not a chat).
EXCHANGE_MAX: Final = 280


def clean_text(text: object, limit: int = EXCHANGE_MAX) -> str:
    """A typed riddle, question or answer: printable, single-line, at most ``limit`` characters.

    Cleaned like names (control characters dropped, whitespace collapsed), since
    it is shown to everyone at the table; '' if nothing printable is left.
    """
    if not isinstance(text, str):
        return ""
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    return " ".join(kept.split())[:limit]


def check_referee(info: GameInfo, referee: str, *, as_referee: bool, claim: int | None) -> None:
    """Refuse (``bad_referee``) a referee a new game of ``info`` cannot have."""
    if referee not in REFEREES:
        raise ServerError("bad_referee", 422, detail=f"unknown referee {referee!r}")
    if referee == HUMAN_REFEREE and not info.human_referee:
        raise ServerError("bad_referee", 422, detail=f"{info.name} games have no human referee")
    if as_referee and referee != HUMAN_REFEREE:
        raise ServerError(
            "bad_referee", 422, detail="only a game with a human referee has a referee role"
        )
    if as_referee and claim is not None:
        raise ServerError(
            "bad_referee", 422, detail="the referee is not a player: do not claim a seat too"
        )


def new_referee(name: object) -> tuple[str, str, str]:
    """A human referee's ``(token, token hash, display name)``: the token is shown once."""
    token = auth.new_token()
    return token, auth.hash_token(token), clean_name(name, "Referee")


def referee_json(game: Game) -> dict[str, Any] | None:
    """The human referee role as clients show it (None: the software referees)."""
    if not game.human_referee:
        return None
    return {
        "name": game.referee_name,
        "claimed": game.referee_token is not None,
        "connected": game.referee_connections > 0,
        "away_since": game.away_since(REFEREE),
    }


def exchange_json(game: Game) -> dict[str, Any] | None:
    """The typed exchange of the answer awaiting its mark (None when nothing awaits one).

    ``posed`` is the referee's riddle or question, ``answer`` the answering
    seat's reply (each None until typed). A stored exchange of an earlier item
    is not shown: the exchange lives only as long as its mark.
    """
    if not game.referee_to_move():
        return None
    found = game.current_exchange()
    asked = game.state.asked()
    return {
        "seat": asked.seat if asked else None,
        "kind": asked.kind if asked else None,
        "posed": found.get("posed"),
        "answer": found.get("answer"),
    }


class Refereeing:
    """The human referee's claim and typed exchange, for one server's games."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def claim(self, game: Game, name: object) -> str:
        """Give the human referee role to whoever asks first; return its token.

        Like a seat claim: the token is shown once and stored hashed, and the claim
        that completes the table starts play (and the time limit's clock). With other
        processes, a claim whose guarded write met a change made elsewhere (a seat
        claimed meanwhile) is decided again on the caught-up game.
        """
        for _ in range(RETRIES):
            try:
                return await self._claim(game, name)
            except VersionConflict:
                if not self.core.shared:
                    raise ServerError("referee_taken", 409) from None
                async with game.lock:
                    await catchup.catch_up(self.core, game)
        raise ServerError("storage_error", 503)

    async def _claim(self, game: Game, name: object) -> str:
        async with game.lock:
            if not game.human_referee:
                raise ServerError(
                    "bad_referee", 409, detail="this game is refereed by the software"
                )
            if game.referee_token is not None:
                raise ServerError("referee_taken", 409)
            if game.status in OVER:
                raise ServerError("game_over", 409)
            token, hashed, referee_name = new_referee(name)

            def take() -> None:
                game.referee_token, game.referee_name = hashed, referee_name

            try:
                await self.core.seat_change(
                    game,
                    lambda status, deadline: op_claim_referee(
                        game.id,
                        referee_name,
                        hashed,
                        status=status,
                        deadline=deadline,
                        now=self.core.clock.now(),
                    ),
                    take,
                    begins=game.status == OPEN and all(s.claimed for s in game.seats),
                )
            except VersionConflict:
                if self.core.shared:
                    raise  # decided again by claim() on the caught-up game
                raise ServerError("referee_taken", 409) from None
        return token

    async def say(self, game: Game, who: int, text: object) -> None:
        """Type the referee's riddle or question (``who`` is :data:`REFEREE`) or the answer.

        Only while an answer awaits the human referee's mark: the referee poses,
        the answering seat replies, each may retype theirs; anyone else is refused.
        The exchange is stored (so a reload or restart shows it) before anyone
        hears of it, like a move, but it is not an engine event.
        """
        cleaned = clean_text(text)
        if not cleaned:
            raise ServerError(
                "malformed", detail=f"'text' must be 1 to {EXCHANGE_MAX} printable characters"
            )
        async with game.lock:
            if game.status in OVER:
                raise ServerError("game_over", 409)
            if not game.referee_to_move():
                raise ServerError("not_marking", 409)
            asked = game.state.asked()
            if who == REFEREE:
                field_name = "posed"
            elif asked is not None and who == asked.seat:
                field_name = "answer"
            else:
                raise ServerError("not_your_turn", 409)
            old = game.current_exchange()
            exchange = {
                "key": asked.key if asked else None,
                "posed": old.get("posed"),
                "answer": old.get("answer"),
            }
            exchange[field_name] = cleaned
            await self.core.write(op_set_exchange(game.id, exchange))
            game.exchange = exchange
            game.updated_at = self.core.clock.now()
            self.core.notify(game)  # connections here, and the other processes
