"""The bots' table reads the engine's knowledge: from a view, from knowledge, from a state.

:meth:`Table.from_knowledge` is the reference; :meth:`Table.from_view` goes
through the same structure, and :meth:`Table.from_state` (IS-MCTS's fast
path, which reads the state directly) must give the same fields for every
seat, with and without ``public``, at every position of random games of
every player count, chance events and the final position included.
"""

from __future__ import annotations

from typing import Any

import pytest

import alea.iacta as iacta
from alea.bots.table import Table
from alea.iacta.knowledge import knowledge
from tests.iacta.helpers import every_node


def fields(t: Table) -> dict[str, Any]:
    # Every public data attribute (a compiled Table is a native class without __slots__).
    names = [n for n in dir(t) if not n.startswith("_") and not callable(getattr(t, n))]
    assert "seat" in names and "fortuna_probs" in names
    return {name: getattr(t, name) for name in names}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_constructor_gives_the_same_table(players: int) -> None:
    for state in every_node(players, 40 + players):
        spectator = knowledge(state, None)
        for seat in range(players):
            expected = fields(Table.from_knowledge(knowledge(state, seat)))
            assert fields(Table.from_view(state.view(seat))) == expected
            assert fields(Table.from_state(state, seat)) == expected
            public = fields(Table.from_knowledge(spectator, seat))
            assert fields(Table.from_state(state, seat, public=True)) == public
            if not state.is_terminal():
                assert public["my_senate"] == () and public["drawn"] == ()


def test_a_table_is_one_seat_s() -> None:
    state = iacta.new_game(3)
    with pytest.raises(ValueError, match="spectator"):
        Table.from_view(state.view(None))
    with pytest.raises(ValueError, match="spectator"):
        Table.from_knowledge(knowledge(state, None))
    with pytest.raises(ValueError, match="seat 1's knowledge"):
        Table.from_knowledge(knowledge(state, 1), seat=2)
    assert Table.from_knowledge(knowledge(state, 1), seat=1).seat == 1
