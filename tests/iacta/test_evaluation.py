"""Evaluation of the five buildings (RULES.md §3.2, §4) with 2–5 players."""

from __future__ import annotations

import pytest

import alea.iacta as iacta
from alea.iacta.state import CHOOSE_SENATE_CARD, DRAW_SENATE, REVEAL_PROVINCE
from tests.iacta.helpers import play, started


def temple_round() -> iacta.State:
    """4 players: groups of 1, 2 and 3 dice in the Temple, then seat 3 ends the round."""
    s = started(4)
    play(s, "roll:55555555 T:5 fortuna:2")
    play(s, "roll:36666666 T:36 fortuna:1 fortuna:3")
    play(s, "roll:66666666 T:666 fortuna:3 fortuna:1 fortuna:2")
    play(s, "roll:11111111 C:11111111")  # seat 3 places its last die: the go-round is over
    return s


def test_temple_evaluation_leader_keeps_two_others_one() -> None:
    s = temple_round()
    # Senate is empty; the Castrum evaluation waits for seat 3's province choice.
    assert s.current_player() == 3
    assert s.fortuna_kept == [[2], [3], [3, 2], []]
    assert s.fortuna_discards == [0, 2, 0, 0]  # the 1s of seats 1 and 2, face up
    assert all(not group for group in s.temple)
    assert s.fortuna_drawn == [[], [], [], []]


def test_round_end_tokens_start_player_and_reveals() -> None:
    s = temple_round()
    play(s, "P:red1")
    # Unplaced dice went to the Latrine: 7, 6 and 5 dice -> as many re-roll tokens.
    assert s.tokens == [7, 6, 5, 0]
    assert s.provinces[3] == ["red1"]
    assert s.round == 1 and s.start == 1
    assert s.phase == REVEAL_PROVINCE
    assert s.dice_left == [8, 8, 8, 8]
    assert sorted(s.removed_provinces) == ["red2", "red3", "red4"]


def test_temple_lone_die_draws_a_bonus_tile() -> None:
    s = started(4)
    play(s, "roll:55555555 T:5 fortuna:2")
    play(s, "roll:11111111 C:11111111 roll:22222222 C:2 roll:33333333 C:3")
    assert s.is_chance() and s.phase_name == "temple-bonus"
    play(s, "fortuna:3")
    assert s.fortuna_kept[0] == [2, 3]


def senate_position(players: int, straights: list[str]) -> iacta.State:
    """Each seat in turn places the given Senate straight ('' = a Castrum die), then ends."""
    s = started(players)
    fillers = iter(["C:1", "C:2", "C:3", "C:4", "C:5"])
    for seat, straight in enumerate(straights):
        if straight:
            play(s, f"roll:{''.join(sorted(straight + '1' * (8 - len(straight))))} S:{straight}")
        else:
            filler = next(fillers)
            play(s, f"roll:{filler[2] * 8} {filler}")
        assert seat == len(straights) - 1 or s.player == seat + 1
    return s


def finish_placement(s: iacta.State) -> None:
    """Let seat 0 place everything it has left in the Castrum, ending the round."""
    while s.phase_name in ("roll", "placement", "reroll"):
        if s.is_chance():
            play(s, "roll:" + "6" * s.dice_left[s.player])
        else:
            actions = [a for a in s.legal_actions() if a.startswith("C:")]
            play(s, max(actions, key=len))


def test_senate_four_players_first_picks_of_three_second_of_two() -> None:
    s = senate_position(4, ["3456", "12345", "6", ""])
    finish_placement(s)
    assert s.phase == DRAW_SENATE and s.senate_takers == [1, 0]
    play(s, "senate:II senate:VII senate:XIII")
    assert s.phase == CHOOSE_SENATE_CARD and s.current_player() == 1
    # The first-ranked sees the three cards, nobody else does.
    assert s.view(1)["senate_hand"] == ["II", "VII", "XIII"]
    assert s.view(0)["senate_hand"] is None and s.view(None)["senate_hand"] is None
    play(s, "K:VII")
    assert s.current_player() == 0
    assert sorted(s.legal_actions()) == ["K:II", "K:XIII"]
    assert s.view(0)["senate_hand"] == ["II", "XIII"]
    assert s.view(2)["senate_hand"] is None
    play(s, "K:XIII")
    assert s.senate_cards[:2] == [["XIII"], ["VII"]]
    assert s.senate_bottom == [("II", 0)]  # face down under the deck, known to seat 0
    assert s.view(0)["senate_bottom"] == ["II"] and s.view(1)["senate_bottom"] == [None]
    # Seat 2's straight earned nothing: its die went to the Latrine.
    assert s.latrine[2] == 1
    # The log hides the draws and choices from those who did not see them.
    assert s.log(2)[-5:] == ["senate:?", "senate:?", "senate:?", "K:?", "K:?"]
    assert s.log(1)[-5:] == ["senate:II", "senate:VII", "senate:XIII", "K:VII", "K:?"]
    assert s.log(0)[-2:] == ["K:?", "K:XIII"]


def test_senate_two_players_only_the_first_takes_a_card() -> None:
    s = senate_position(2, ["456", "123456"])
    finish_placement(s)
    assert s.senate_takers == [1]
    play(s, "senate:I senate:II senate:III K:II")
    assert s.senate_cards == [[], ["II"]]
    assert [c for c, _ in s.senate_bottom] == ["I", "III"]


def test_senate_five_players_third_takes_the_last_card() -> None:
    s = senate_position(5, ["12", "123", "1234", "", ""])
    finish_placement(s)
    assert s.senate_takers == [2, 1, 0]
    play(s, "senate:IV senate:V senate:VI K:V K:IV")
    assert s.legal_actions() == ["K:VI"]  # a single option is still an action
    play(s, "K:VI")
    assert s.senate_cards[:3] == [["VI"], ["IV"], ["V"]]
    assert s.senate_bottom == []


def test_senate_lone_straight_takes_one_and_two_go_under() -> None:
    s = senate_position(3, ["23", "", ""])
    finish_placement(s)
    assert s.senate_takers == [0]
    play(s, "senate:X senate:XI senate:I K:XI")
    assert [c for c, _ in s.senate_bottom] == ["X", "I"]
    assert s.senate_cards[0] == ["XI"]


def test_senate_bottom_cards_are_drawn_last() -> None:
    s = senate_position(3, ["23", "", ""])
    finish_placement(s)
    play(s, "senate:X senate:XI senate:I K:XI")
    s.senate_pool = []  # pretend the rest of the deck was drawn
    s.phase = DRAW_SENATE
    s.senate_takers = [0]
    s.senate_hand = []
    assert s.chance_outcomes() == [("senate:X", 1.0)]
    with pytest.raises(iacta.IllegalActionError):
        s.apply("senate:I")


def test_senate_ranking_length_then_top_value() -> None:
    from alea.iacta.senate import ranking

    assert ranking([(1, 4), (2, 5), None, (4, 6), (3, 5)]) == [1, 0, 3, 4]


def test_castrum_rank_order_and_losers_to_latrine() -> None:
    s = started(3)  # 3 provinces revealed: red1 red2 red3
    play(s, "roll:44411111 C:444")  # seat 0: three 4s
    play(s, "roll:55522222 C:555")  # seat 1: three 5s (beats three 4s)
    play(s, "roll:66111111 C:66")  # seat 2: two 6s
    play(s, "roll:11111 C:11111")  # seat 0: five 1s (the best set)
    play(s, "roll:22222 C:22222")  # seat 1: five 2s, and its last die
    play(s, "roll:111111 C:1")  # seat 2 ends the go-round with a lone 1
    # Order: 2-2-2-2-2 (seat 1), 1-1-1-1-1 (seat 0), 5-5-5 (seat 1); 4-4-4, 6-6, 1 lose.
    assert s.castrum_queue == [(1, 2, 5), (0, 1, 5), (1, 5, 3)]
    assert s.current_player() == 1
    play(s, "P:red3")
    assert s.current_player() == 0
    play(s, "P:red1")
    assert s.current_player() == 1 and s.legal_actions() == ["P:red2"]
    play(s, "P:red2")
    assert s.provinces == [["red1"], ["red3", "red2"], []]
    # seat 0: 4-4-4 lost (3); seat 2: 6-6 and 1 lost (3) plus 5 unplaced dice.
    assert s.tokens == [3, 0, 8]


def test_forum_evaluation_left_to_right() -> None:
    s = started(2)  # patricians revealed: 4 tiles
    revealed = list(s.revealed_patricians)
    play(s, "roll:33333333 F:3 roll:11111111 F:1 roll:2222222 F:2")
    play(s, "roll:1111111 C:1111111")  # seat 1's last die; seat 1 ends the go-round
    assert s.latrine == [6, 0]  # seat 0's unplaced dice
    assert s.castrum_queue == [(1, 1, 7)]
    play(s, "P:" + s.revealed_provinces[0])
    # Forum row: 1 (seat 1), 2 (seat 0), 3 (seat 0): seat 1 chooses first.
    assert s.current_player() == 1
    play(s, f"N:{revealed[3]}")
    assert s.current_player() == 0
    play(s, f"N:{revealed[0]} N:{revealed[1]}")
    assert s.patricians == [[revealed[0], revealed[1]], [revealed[3]]]
    assert s.removed_patricians == [revealed[2]]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_reveals_per_player_count(players: int) -> None:
    s = started(players)
    assert len(s.revealed_provinces) == players
    assert len(s.revealed_patricians) == players + 2
    assert s.view(None)["buildings"]["forum_columns"] == players + 2
    assert ("temple" in s.view(None)["buildings"]) == (players >= 4)
    assert ("IV" in s.senate_pool) == (players >= 4)
    assert s.rounds == (6 if players < 4 else 5)


def test_temple_leader_adds_exactly_one_die() -> None:
    """A player whose group leads must add exactly one die (the sum then rises by itself)."""
    s = started(4)
    play(s, "roll:55555555 T:5 fortuna:2")  # seat 0 leads with one die
    play(s, "roll:11111111 C:1 roll:22222222 C:2 roll:33333333 C:3")
    play(s, "roll:1234566")
    legal = [a for a in s.legal_actions() if a.startswith("T:")]
    assert sorted(legal) == ["T:1", "T:2", "T:3", "T:4", "T:5", "T:6"]


def test_temple_new_group_needs_one_more_die_than_the_leader() -> None:
    s = started(5)
    play(s, "roll:66666666 T:6 fortuna:1")  # seat 0: one die
    play(s, "roll:66666666 T:66 fortuna:1 fortuna:1")  # seat 1: two dice, sum 12
    play(s, "roll:12344456")
    legal = [a for a in s.legal_actions() if a.startswith("T:")]
    assert "T:456" in legal and "T:445" in legal  # 15 and 13 beat 12
    assert "T:444" not in legal  # 12 does not
    assert all(len(a) == 5 for a in legal)
