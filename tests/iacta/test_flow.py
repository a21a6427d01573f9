"""Turn and round flow (RULES.md §3): re-rolls, the end of placement, the Latrine, the end."""

from __future__ import annotations

import json
import random

import pytest

import alea.iacta as iacta
from tests.iacta.helpers import play, reveal, started


def test_go_round_is_finished_after_the_last_die() -> None:
    """3 players, start 0: seat 1 places its last die, seat 2 still plays, seat 0 does not."""
    s = started(3)
    play(s, "roll:11111111 C:1 roll:22222222 C:2 roll:33333333 C:3")
    play(s, "roll:1111111 C:11 roll:2222222 C:2222222")
    assert s.ending and s.current_player() == iacta.CHANCE and s.player == 2
    play(s, "roll:3333333 C:33")
    assert s.phase_name == "castrum-choice"  # placement is over: seat 0 did not roll again
    # Everything unplaced went to the Latrine: seat 0 had 5 dice, seat 2 had 5.
    assert s.latrine[0] == 5 and s.latrine[2] == 5


def test_players_without_dice_are_skipped() -> None:
    s = started(3)
    play(s, "roll:11111111 C:11111111")  # seat 0 is out of dice at once
    play(s, "roll:22222222 C:2 roll:33333333 C:3")  # seat 2 (right of start) ends the go-round
    assert s.phase_name == "castrum-choice"


def test_round_ends_at_once_when_the_last_seat_places_its_last_die() -> None:
    s = started(2)
    play(s, "roll:11111111 C:1")
    play(s, "roll:22222222 C:22222222")
    assert s.phase_name == "castrum-choice"
    assert s.latrine == [7, 0]


def forced_latrine() -> iacta.State:
    """Seat 0 rolls a lone 6 that no building but the Latrine can take (2 players)."""
    s = started(2)  # 4 Forum columns
    play(s, "roll:11111111 F:1 roll:11111111 F:1 roll:1111111 F:1 roll:1111111 F:1")
    play(s, "roll:123456 S:123 roll:666666 S:6 roll:226 C:22 roll:66666 C:6")
    play(s, "roll:6")
    return s


def test_latrine_only_when_nothing_else_is_legal() -> None:
    s = forced_latrine()
    assert s.legal_actions() == ["L:6"]
    play(s, "L:6")
    assert s.latrine[0] == 1


def test_latrine_is_illegal_when_another_building_can_take_a_die() -> None:
    s = started(2)
    play(s, "roll:12345666")
    assert not [a for a in s.legal_actions() if a.startswith("L:")]
    with pytest.raises(iacta.IllegalActionError, match="only when no other building"):
        s.apply("L:6")


def rerolling() -> iacta.State:
    """Seat 0 starts round 2 with re-roll tokens from the Latrine."""
    s = started(2)
    play(s, "roll:11111111 C:1 roll:22222222 C:22222222")  # seat 0: 7 dice to the Latrine
    play(s, "P:" + s.revealed_provinces[0])  # seat 1's eight 2s choose first
    play(s, "P:" + s.revealed_provinces[0])  # then seat 0's lone 1
    assert s.tokens == [7, 0]
    reveal(s)
    assert s.start == 1 and s.player == 1
    play(s, "roll:11111111 C:1")
    play(s, "roll:12345666")
    return s


def test_rerolls_spend_a_token_and_keep_the_other_dice() -> None:
    s = rerolling()
    legal = s.legal_actions()
    assert "R:666" in legal and "R:12345666" in legal and "R:1" in legal
    play(s, "R:666")
    assert s.tokens[0] == 6 and s.is_chance()
    assert s.chance_outcomes()[0][0] == "roll:111"
    assert abs(sum(p for _, p in s.chance_outcomes()) - 1) < 1e-12
    with pytest.raises(iacta.IllegalActionError, match="3 dice are rolled, not 2"):
        s.apply("roll:12")
    play(s, "roll:111")
    assert s.roll == (1, 1, 1, 1, 2, 3, 4, 5)
    play(s, "R:1111 roll:6666 R:2 roll:5")  # as often as there are tokens
    assert s.tokens[0] == 4 and s.roll == (3, 4, 5, 5, 6, 6, 6, 6)


def test_no_rerolls_without_tokens() -> None:
    s = started(2)
    play(s, "roll:12345666")
    assert not [a for a in s.legal_actions() if a.startswith("R:")]
    with pytest.raises(iacta.IllegalActionError, match="no re-roll tokens"):
        s.apply("R:6")


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("C:447x", "dice are written as digits"),
        ("Q:44", "is not an action"),
        ("K:XIV", "is not a Senate card"),
        ("C:4", "you did not roll those dice"),
        ("P:red4", "must now re-roll or place dice"),
        ("roll:123", "not a chance event"),
        ("S:135", "consecutive, different values"),
        ("F:15", "two dice that sum to 5"),
        ("T:6", "Temple is only used with 4 or 5 players"),
    ],
)
def test_illegal_input_is_explained_and_changes_nothing(token: str, message: str) -> None:
    s = started(2)
    play(s, "roll:11235666")
    before = json.dumps(s.to_json(), sort_keys=True)
    with pytest.raises(iacta.IllegalActionError, match=message):
        s.apply(token)
    assert json.dumps(s.to_json(), sort_keys=True) == before
    assert issubclass(iacta.IllegalActionError, ValueError)


def test_chance_outcome_checks() -> None:
    s = iacta.new_game(4)
    with pytest.raises(iacta.IllegalActionError, match="next chance event is a province"):
        s.apply("patrician:redm1")
    s.apply("province:red4")
    with pytest.raises(iacta.IllegalActionError, match="not among the unseen"):
        s.apply("province:red4")
    with pytest.raises(iacta.IllegalActionError, match="a chance event is next"):
        s.apply("C:4")


def test_chance_outcomes_sum_to_one_everywhere() -> None:
    rng = random.Random(3)
    s = iacta.new_game(5)
    while not s.is_terminal():
        if s.is_chance():
            outcomes = s.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            drawn = s.sample_chance(rng)
            assert drawn in [o for o, _ in outcomes]
            s.apply(drawn)
        else:
            assert s.chance_outcomes() == []
            s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_game_ends_after_the_last_round(players: int) -> None:
    rng = random.Random(players)
    s = iacta.new_game(players)
    rounds_seen = set()
    while not s.is_terminal():
        rounds_seen.add(s.round)
        s.apply(s.sample_chance(rng) if s.is_chance() else rng.choice(s.legal_actions()))
    assert rounds_seen == set(range(6 if players < 4 else 5))
    assert s.current_player() == iacta.TERMINAL and s.legal_actions() == []
    assert len(s.returns()) == players and s.winners()
    with pytest.raises(iacta.IllegalActionError, match="game is over"):
        s.apply("roll:1")
    # 5 players use all 25 provinces; patricians never run out.
    if players == 5:
        assert not s.province_pool
        assert len(s.patrician_pool) == 1


def test_winner_tie_break_by_unplaced_patricians() -> None:
    """RULES.md §5.3: equal scores -> higher unplaced patrician value wins; else shared."""
    rng = random.Random(11)
    s = iacta.new_game(2)
    while not s.is_terminal():
        s.apply(s.sample_chance(rng) if s.is_chance() else rng.choice(s.legal_actions()))
    arrangements = s.arrangements()
    keys = [(a.score, a.tiebreak) for a in arrangements]
    best = max(keys)
    assert s.winners() == [i for i, k in enumerate(keys) if k == best]
    assert s.returns() == [float(a.score) for a in arrangements]
