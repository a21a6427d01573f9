"""A paced table (option ``paced``): every die waits for its player's ``throw``.

The server's tables are paced, so that a person presses Roll and a bot rolls after a
pause; the terminal game and the simulations are not. Pacing changes who acts when,
never what the dice do: a paced game is the unpaced game with a ``throw`` before each
roll.
"""

from __future__ import annotations

import json
import random

import pytest
from romano_helpers import play, snapshot, start

import alea.romano as romano
from alea.game import CHANCE
from alea.romano.state import State


def _random_game(state: State, seed: int, limit: int = 3000) -> State:
    """Play ``state`` on with seeded random decisions and chance (last round at 300)."""
    rng = random.Random(seed)
    while not state.is_terminal() and len(state.history) < limit:
        if len(state.history) == 300 and state.can_declare_last_round():
            state.apply("last-round")
        elif state.is_chance():
            state.apply(state.sample_chance(rng))
        else:  # a seat's decision, or a human referee's mark
            state.apply(rng.choice(state.legal_actions()))
    return state


def test_a_paced_table_waits_for_the_players_throw_before_each_die() -> None:
    s = romano.new_game(3, paced=True)
    assert s.current_player() == 0 and not s.is_chance()
    assert [str(a) for a in s.legal_actions()] == ["throw"]
    assert s.chance_outcomes() == []
    assert s.view(0)["phase"] == "throw"
    assert "throw" in s.expected()
    before = snapshot(s)
    with pytest.raises(romano.IllegalActionError):
        s.apply("roll:4")  # the die is not rolled until its player says so
    assert snapshot(s) == before
    s.apply("throw")
    assert s.current_player() == CHANCE and s.legal_actions() == []
    with pytest.raises(romano.IllegalActionError):
        s.apply("throw")  # one throw per die
    s.apply("roll:4")
    assert s.current_player() == 0 and s.view(None)["phase"] == "throw"
    play(s, "throw", "roll:2")  # Romulus, +40
    assert s.scores[0] == 40
    assert s.current_player() == 1 and [str(a) for a in s.legal_actions()] == ["throw"]


def test_every_die_of_a_turn_is_thrown_by_the_turns_player() -> None:
    # Octavius Augustus (1-6): three more rolls, each thrown by seat 0.
    s = start([0, 0], paced=True)
    play(s, "throw", "roll:1", "throw", "roll:6")
    for roll in ("roll:1", "roll:2", "roll:3"):
        assert s.current_player() == 0
        play(s, "throw", roll)
    assert s.scores == [6, 0] and s.current_player() == 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pacing_changes_who_acts_never_what_happens(seed: int) -> None:
    paced = _random_game(romano.new_game(3, paced=True), seed)
    assert paced.is_terminal()
    unpaced = romano.new_game(3)
    for move in paced.history:
        if move != "throw":
            unpaced.apply(move)
    assert unpaced.is_terminal()
    assert unpaced.result() == paced.result()
    assert [e.to_json() for e in unpaced.events] == [e.to_json() for e in paced.events]


def test_the_record_says_paced_and_replays_and_old_records_stay_unpaced() -> None:
    s = _random_game(romano.new_game(2, paced=True), 7, limit=40)
    record = json.loads(json.dumps(s.record()))
    assert record["options"]["paced"] is True
    assert romano.replay(record) == s
    assert romano.INFO.new_game(2, **record["options"]).paced
    plain = romano.new_game(2)
    assert "paced" not in plain.options()  # records of unpaced games are as they were
    assert not romano.replay(plain.record()).paced
    assert State.from_json(json.loads(json.dumps(s.to_json()))) == s


def test_online_tables_are_paced_through_the_game_facts() -> None:
    assert romano.INFO.table_options == {"paced": True}
    assert romano.INFO.new_game(2, **romano.INFO.table_options).awaiting_throw()
