"""The keyboard session: seats, undo, save and load."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import alea.iacta as iacta
from alea.commands.play import seats_for
from alea.play import HUMAN, Session


def _advance_to_human(session: Session) -> None:
    while not session.state.is_terminal():
        seat = session.to_move()
        if seat == iacta.CHANCE:
            session.step_chance()
        elif not session.is_human(seat):
            session.step_bot()
        else:
            return


def test_a_whole_game_with_a_scripted_human() -> None:
    session = Session([HUMAN, "medium", "easy"], seed=3)
    rng = random.Random(0)
    while True:
        _advance_to_human(session)
        if session.state.is_terminal():
            break
        legal = [a for a in session.state.legal_actions() if a.kind != "R"]
        session.human_move(str(rng.choice(legal)))
    assert session.state.winners()


def test_bad_moves_are_explained() -> None:
    session = Session([HUMAN, "random"], seed=1)
    _advance_to_human(session)
    with pytest.raises(iacta.IllegalActionError, match=r"did not roll|Latrine|not legal|Forum"):
        session.human_move("F:66666")
    with pytest.raises(iacta.IllegalActionError):
        session.human_move("nonsense")


def test_undo_only_before_chance() -> None:
    session = Session([HUMAN, "random", "random"], seed=5)
    _advance_to_human(session)
    assert session.can_undo(0)  # nothing decided yet
    before = session.state.to_json()
    legal = [a for a in session.state.legal_actions() if a.kind != "R"]
    session.human_move(str(legal[0]))
    assert session.can_undo(0) == ""
    session.undo(0)
    assert session.state.to_json() == before
    session.human_move(str(legal[0]))
    assert session.to_move() == iacta.CHANCE  # the next player's roll
    _advance_to_human(session)
    assert "chance event" in session.can_undo(0)
    with pytest.raises(iacta.IllegalActionError):
        session.undo(0)


def test_undo_takes_back_bot_replies_without_chance() -> None:
    """At an evaluation, a human's choice followed by a bot's can be taken back."""
    for seed in range(40):
        session = Session([HUMAN, "medium", "medium"], seed=seed)
        while not session.state.is_terminal():
            seat = session.to_move()
            if seat == iacta.CHANCE:
                session.step_chance()
            elif not session.is_human(seat):
                session.step_bot()
            else:
                legal = session.state.legal_actions()
                if legal[0].kind in ("P", "N") and session.undo_stack == []:
                    snapshot = session.state.to_json()
                    session.human_move(str(legal[-1]))
                    while session.to_move() >= 0 and not session.is_human(session.to_move()):
                        session.step_bot()
                    if session.to_move() == 0 and session.can_undo(0) == "":
                        session.undo(0)
                        assert session.state.to_json() == snapshot
                        return
                else:
                    session.human_move(str(next(a for a in legal if a.kind != "R")))
    pytest.fail("no evaluation with two choices in a row")  # pragma: no cover


def test_save_and_load(tmp_path: Path) -> None:
    session = Session([HUMAN, "medium", "hard:steps=50", "easy"], seed=9, names=list("ABCD"))
    for _ in range(3):
        _advance_to_human(session)
        session.human_move(str(next(a for a in session.state.legal_actions() if a.kind != "R")))
    path = session.save(tmp_path / "game.json")
    loaded = Session.load(path)
    assert loaded.state == session.state
    assert loaded.names == list("ABCD") and loaded.seats == session.seats
    # Both continue identically: the generators were saved too.
    _advance_to_human(session)
    _advance_to_human(loaded)
    assert loaded.state == session.state
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(ValueError, match="not a saved game"):
        Session.load(bad)
    bad.write_text("not json")
    with pytest.raises(ValueError, match="not a saved game"):
        Session.load(bad)
    data = json.loads(path.read_text())
    del data["record"]
    bad.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="damaged"):
        Session.load(bad)


def test_session_bots_receive_only_views() -> None:
    from tests.bots.test_bots import SpyBot, check_spy

    session = Session([HUMAN, "random", "random"], seed=2)
    spies = {1: SpyBot(), 2: SpyBot()}
    session.bots.update(spies)
    rng = random.Random(1)
    while not session.state.is_terminal():
        seat = session.to_move()
        if seat == iacta.CHANCE:
            session.step_chance()
        elif seat in spies:
            session.step_bot()
        else:
            session.human_move(str(rng.choice(session.state.legal_actions())))
    for spy in spies.values():
        check_spy(spy)


def test_seating() -> None:
    assert seats_for(3, ["easy", "hard"], False, None) == [HUMAN, "easy", "hard"]
    assert seats_for(3, ["easy", "hard"], False, 2) == ["easy", "hard", HUMAN]
    assert seats_for(4, ["easy"], True, None) == [HUMAN, HUMAN, HUMAN, "easy"]
    with pytest.raises(ValueError, match="--hotseat"):
        seats_for(4, ["easy"], False, None)
    with pytest.raises(ValueError, match="no seat for a human"):
        seats_for(2, ["easy", "easy"], False, None)
    with pytest.raises(ValueError, match="human"):
        Session(["easy", "easy"])
