"""The table's Undo flag (``update.undo``) is asked for every seat on every update, so
``Game.may_undo`` answers most seats without the undo search; it must still say exactly
what the rule says (:func:`alea.undo.undo_point`, through ``Game.undo_index``)."""

from __future__ import annotations

import random

from alea.server.errors import ServerError
from alea.server.games import hosted, new_state
from alea.server.replaying import draw_chance
from alea.server.room import ACTIVE, Game, Seat
from alea.undo import decider


def _undoable(game: Game, seat: int) -> bool:
    try:
        game.undo_index(seat)
    except ServerError:
        return False
    return True


def test_may_undo_says_what_the_rule_says_for_every_seat_at_every_step() -> None:
    rng = random.Random(15)
    for game_name in ("iacta", "romano"):
        info = hosted(game_name)
        for _ in range(3):
            players = 4
            state = new_state(info, players, "software")
            actors = draw_chance(state, rng)
            game = Game(
                id="g",
                players=players,
                public=False,
                title="",
                created_at=0.0,
                updated_at=0.0,
                status=ACTIVE,
                state=state,
                actors=actors,
                deciders=[None] * len(actors),
                seats=[Seat(s, "human", None, f"p{s}", "h" * 64) for s in range(players)],
                rng=rng,
                info=info,
                turn_since=0.0,
            )
            checked = 0
            for _ in range(120):
                if state.is_terminal():
                    break
                for seat in (None, *range(players)):
                    expected = seat is not None and _undoable(game, seat)
                    assert game.may_undo(seat) == expected
                    checked += expected
                action = rng.choice(state.legal_actions())
                game.deciders.append(decider(info, state, action))
                game.actors.append(state.actor())
                state.apply(action)
                drawn = draw_chance(state, rng)
                game.actors.extend(drawn)
                game.deciders.extend([None] * len(drawn))
            assert checked > 0  # some steps allowed an undo: both answers were compared
