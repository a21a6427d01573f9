"""The undo rule every interface shares (alea.undo), on real games of the engine."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import alea.iacta as iacta
from alea.game import AnyState
from alea.play.session import HUMAN, Session
from alea.undo import (
    CHANCE_SINCE,
    GAME_OVER,
    NOTHING,
    OTHERS_SINCE,
    SECRET,
    UndoRefused,
    decider,
    deciders_of,
    taken_back,
    undo_point,
)


def _play(seed: int, players: int = 3) -> tuple[AnyState, list[int | None]]:
    """A random game played to its end, and the decider of each event."""
    state = iacta.new_game(players)
    rng = random.Random(seed)
    deciders: list[int | None] = []
    while not state.is_terminal():
        event = state.sample_chance(rng) if state.is_chance() else rng.choice(state.legal_actions())
        deciders.append(decider(iacta.INFO, state, event))
        state.apply(event)
    return state, deciders


def _refusal(state: AnyState, deciders: list[int | None], seat: int) -> str:
    with pytest.raises(UndoRefused) as caught:
        undo_point(state, deciders, seat)
    return caught.value.reason


def test_every_prefix_follows_the_rule() -> None:
    """At every point of whole games: allowed exactly when the last event is the seat's own
    public decision, and taking it back gives the state before it."""
    allowed = 0
    for seed in range(4):
        final, deciders = _play(seed)
        assert deciders_of(final) == deciders
        events = list(final.history)
        state = iacta.new_game(3)
        for n, event in enumerate(events):
            state.apply(event)
            if state.is_terminal():
                for seat in range(3):
                    assert _refusal(state, deciders[: n + 1], seat) == GAME_OVER
                break
            for seat in range(3):
                last = deciders[n]
                public = all(state.log(o, n)[0] == str(event) for o in (0, 1, 2, None))
                if last == seat and public:
                    assert undo_point(state, deciders[: n + 1], seat) == n
                    back = taken_back(state, n)
                    assert back.history == state.history[:n]
                    assert (
                        back.to_json()
                        == iacta.replay(
                            {"players": 3, "events": [str(e) for e in events[:n]]}
                        ).to_json()
                    )
                    allowed += 1
                else:
                    reason = _refusal(state, deciders[: n + 1], seat)
                    if last is None:
                        assert reason in (CHANCE_SINCE, NOTHING)
                    elif last != seat:
                        assert reason == OTHERS_SINCE
                    else:
                        assert reason == SECRET
    assert allowed > 10  # evaluation choices were taken back, not only refused


def test_a_placement_is_followed_by_the_next_roll() -> None:
    """In Alea Iacta Est the next roll follows a placement at once: never undone online."""
    final, deciders = _play(7)
    state = iacta.new_game(3)
    placements = 0
    for n, event in enumerate(final.history):
        state.apply(event)
        if str(event)[:2] in ("T:", "S:", "C:", "F:", "L:", "R:"):
            placements += 1
            assert state.is_chance() or state.is_terminal()
            assert deciders[n + 1] is None if n + 1 < len(deciders) else True
    assert placements > 20


def test_bots_may_pass_in_the_terminal() -> None:
    """``passes``: later decisions of seats that pass (the terminal's bots) go back too."""
    final, deciders = _play(3)
    state = iacta.new_game(3)
    found = False
    for n, event in enumerate(final.history):
        state.apply(event)
        window = deciders[: n + 1]
        if n >= 1 and window[-1] == 1 and window[-2] == 0 and not state.is_terminal():
            before = state.log(1, n - 1)[0] == str(final.history[n - 1])
            if before and all(
                state.log(o, n - 1)[0] == str(final.history[n - 1]) for o in (1, 2, None)
            ):
                assert undo_point(state, window, 0, passes=lambda s: s != 0) == n - 1
                assert _refusal(state, window, 0) == OTHERS_SINCE
                found = True
                break
    assert found


def test_the_terminal_session_uses_the_rule_after_a_load(tmp_path: Path) -> None:
    """A session loaded from a file knows whose decision each event was (replayed), so the
    same undo is allowed after a load as before it, and goes back to the same state."""
    for seed in range(30):
        session = Session([HUMAN, HUMAN, HUMAN], seed=seed)
        while not session.state.is_terminal():
            seat = session.to_move()
            if seat == iacta.CHANCE:
                session.step_chance()
                continue
            legal = [a for a in session.state.legal_actions() if a.kind != "R"]
            before = session.state.to_json()
            session.human_move(str(legal[0]))
            if session.can_undo(seat) == "" and legal[0].kind in ("P", "N"):
                loaded = Session.load(session.save(tmp_path / "game.json"))
                assert loaded.deciders == session.deciders
                assert loaded.can_undo(seat) == ""
                loaded.undo(seat)
                assert loaded.state.to_json() == before
                other = (seat + 1) % 3
                assert session.can_undo(other) != ""  # not theirs to take back
                return
    pytest.fail("no choice could be taken back")  # pragma: no cover
