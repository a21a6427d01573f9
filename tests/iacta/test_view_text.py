"""``State.view_text`` is the view, as JSON text: the same value as the view encoded whole.

It writes the public part of a position once per encoder, cut at the four places where
the seats' views differ, keeps it on the state, and splices each seat's own values in
(:mod:`alea.iacta.view_text`). These tests hold it to ``encode(view(state, seat))`` at
every step of seeded random games of 2 to 5 players, for every seat and the spectator,
with two encoders in turn (the kept text must follow the encoder), and across the ways a
kept text could go stale: asked again, after ``apply``, of clones, of two states in turn.
CI runs them on the compiled build and again with ``ALEA_PURE_PYTHON=1``.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest

import alea.iacta as iacta
from alea.iacta import COMPILED
from alea.iacta.view_text import view_text
from alea.iacta.views import view
from tests.iacta.helpers import every_node

GAMES = 4 if COMPILED else 2


def compact(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def spaced(value: Any) -> str:
    return json.dumps(value)  # the standard library's, with spaces: other text, same value


def same_value(text: str, state: iacta.State, seat: int | None, encode: Any) -> None:
    assert json.loads(text) == json.loads(encode(view(state, seat)))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_view_text_is_the_view_at_every_step(players: int) -> None:
    for seed in range(GAMES):
        other: iacta.State | None = None
        for step, state in enumerate(every_node(players, seed * 31 + players)):
            encode = compact if step % 2 == 0 else spaced
            for seat in [*range(players), None]:
                same_value(state.view_text(seat, encode), state, seat, encode)
            # Asked again, in another order, with the other encoder: the same values.
            again = spaced if encode is compact else compact
            for seat in [None, *reversed(range(players))]:
                same_value(view_text(state, seat, again), state, seat, again)
            if step % 7 == 0:  # a clone starts without the kept text, and keeps its own
                twin = state.clone()
                same_value(twin.view_text(0, compact), twin, 0, compact)
                if other is not None:  # two states in turn: each its own text
                    same_value(other.view_text(1, compact), other, 1, compact)
                    same_value(state.view_text(1, compact), state, 1, compact)
                other = twin


def test_a_seat_s_text_holds_its_own_secrets_and_no_one_elses() -> None:
    seen_secret = False
    for state in every_node(4, 7):
        public = json.loads(state.view_text(None, compact))["players_info"]
        for seat in range(4):
            shown = json.loads(state.view_text(seat, compact))
            assert shown["seat"] == seat
            for entry in shown["players_info"]:
                if entry["seat"] == seat:
                    assert entry["senate"] == list(state.senate_cards[seat])
                    assert entry["fortuna_drawn_values"] == list(state.fortuna_drawn[seat])
                    seen_secret = seen_secret or bool(entry["senate"])
                else:  # another seat's entry: what a spectator sees of it, nothing more
                    assert entry == public[entry["seat"]]
    assert seen_secret, "the game never dealt a Senate card: the check saw no secret"


def test_an_unknown_seat_is_refused() -> None:
    state = iacta.new_game(3)
    with pytest.raises(ValueError):
        state.view_text(3, compact)
    with pytest.raises(ValueError):
        state.view_text(-1, compact)
