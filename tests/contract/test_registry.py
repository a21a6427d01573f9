"""The registry of games and the record layout every game shares (:mod:`alea.game`)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

import alea.game as game
import alea.iacta as iacta
import alea.romano as romano
from tests.contract import toy


def test_the_built_in_games_come_first_and_are_found_by_either_name() -> None:
    names = [i.name for i in game.games()]
    assert names[:2] == ["iacta", "romano"]
    assert game.info("iacta") is iacta.INFO is game.info("alea-iacta-est")
    assert game.info("romano") is romano.INFO is game.info("dado-romano")
    with pytest.raises(KeyError):
        game.info("chess")


def test_importing_the_contract_imports_no_engine() -> None:
    code = "import sys, alea.game; print(sorted(m for m in sys.modules if m.startswith('alea')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['alea', 'alea.game']"


def test_register_and_unregister_a_game() -> None:
    game.register(toy.INFO)
    try:
        assert game.games()[-1] is toy.INFO and game.info("toy-high-card") is toy.INFO
        game.register(toy.INFO)  # the same game again: nothing changes
        assert [i.name for i in game.games()].count("toy") == 1
        clashes = [
            dataclasses.replace(toy.INFO, name="romano", game="toy2"),
            dataclasses.replace(toy.INFO, name="toy2", game="alea-iacta-est"),
            dataclasses.replace(toy.INFO, name="dado-romano", game="toy2"),
        ]
        for clash in clashes:
            with pytest.raises(ValueError, match="registered already"):
                game.register(clash)
    finally:
        game.unregister("toy")
    assert "toy" not in [i.name for i in game.games()]
    with pytest.raises(KeyError):
        game.unregister("toy")


def test_records_are_read_the_same_for_every_game() -> None:
    record = game.make_record("g", 3, {"a": 1}, ["x", "y"], None)
    assert record == {
        "game": "g",
        "format": 1,
        "players": 3,
        "options": {"a": 1},
        "events": ["x", "y"],
    }
    assert list(record) == list(game.RECORD_KEYS)
    parts = game.read_record(record, "g", "G")
    assert (parts.players, parts.options, parts.events) == (3, {"a": 1}, ["x", "y"])
    old = game.read_record({"players": 2, "moves": ["z"]}, "g", "G")
    assert (old.players, old.options, old.events) == (2, {}, ["z"])
    with pytest.raises(ValueError, match="not a G record"):
        game.read_record({**record, "game": "h"}, "g", "G")
    with pytest.raises(ValueError, match="format 2"):
        game.read_record({**record, "format": 2}, "g", "G")
    with pytest.raises(ValueError, match="'events'"):
        game.read_record({"players": 2}, "g", "G")


def test_engine_errors_share_the_contract_bases() -> None:
    assert issubclass(iacta.IllegalActionError, game.IllegalActionError)
    assert issubclass(iacta.NotationError, game.NotationError)
    assert issubclass(iacta.IllegalActionError, iacta.AleaError)
    assert issubclass(romano.IllegalActionError, game.IllegalActionError)
    assert issubclass(romano.NotationError, romano.IllegalActionError)
    assert issubclass(romano.NotationError, game.NotationError)
    assert issubclass(game.IllegalActionError, ValueError)
    with pytest.raises(game.NotationError):
        romano.parse("nonsense")
    with pytest.raises(game.NotationError):
        iacta.parse("nonsense")
    assert iacta.CHANCE == romano.CHANCE == game.CHANCE
    assert iacta.TERMINAL == romano.TERMINAL == game.TERMINAL
    assert romano.REFEREE == game.REFEREE


def test_an_engine_refuses_options_it_does_not_have() -> None:
    with pytest.raises(ValueError, match="no game options"):
        iacta.INFO.new_game(4, referee="human")
    with pytest.raises(ValueError, match="no option colour"):
        romano.INFO.new_game(3, colour="red")
    state = romano.INFO.new_game(3, referee="human")
    assert isinstance(state, romano.State) and state.referee == "human"
