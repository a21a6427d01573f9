"""The rules around the combinations: declaration, Messalina, Nero, Marcus Aurelius,
Caracalla, winning on 150 and the time limit (RULES.md B1-B3, B6)."""

from __future__ import annotations

import pytest
from romano_helpers import play, snapshot, start

import alea.romano as romano
from alea.romano import IllegalActionError

# --------------------------------------------------------------------- declaration


def declaring(score: int = 40, opponent: int = 30) -> romano.State:
    """Seat 0 at the start of their third turn (two turns already played)."""
    return start([score, opponent], turns_played=[2, 2])


def test_third_turn_asks_for_a_declaration() -> None:
    s = declaring()
    assert s.phase == "declare" and s.current_player() == 0
    actions = [str(a) for a in s.legal_actions()]
    assert len(actions) == 36 and actions[0] == "D:11" and actions[-1] == "D:66"
    with pytest.raises(IllegalActionError, match="declare"):
        s.apply("roll:3")


@pytest.mark.parametrize(
    ("declared", "rolls", "expected"),
    [
        ("D:53", ("5", "3"), 40 + 50 - 8),  # both right, then 5-3 Catilina
        ("D:53", ("5", "2"), 40 + 10 + 10),  # first right, then 5-2 Scipio
        ("D:53", ("1", "3"), 40 + 10 + 5),  # second right, then 1-3 Caesar
        ("D:53", ("3", "5"), 40 - 30),  # neither in its position (3-5 Commodus pending)
        ("D:53", ("2", "4"), 40 - 30 + 10),  # neither, then 2-4 Tacitus
    ],
)
def test_declaration_bonus(declared: str, rolls: tuple[str, str], expected: int) -> None:
    s = play(declaring(), declared, f"roll:{rolls[0]}", f"roll:{rolls[1]}")
    if s.phase == "draw":  # Commodus: a question follows; the bonus is already there
        assert s.scores[0] == expected
        return
    assert s.scores[0] == expected


def test_declaration_is_judged_on_the_first_two_rolls_only() -> None:
    s = play(declaring(), "D:11", "roll:1", "roll:1", "roll:2", "roll:4")
    assert s.scores[0] == 40 + 50 + 10  # 1-1 declared and rolled, then 2-4
    s = play(declaring(), "D:24", "roll:1", "roll:1", "roll:2", "roll:4")
    assert s.scores[0] == 40 - 30 + 10  # the re-rolled 2-4 does not count


def test_declaration_comes_before_the_effect() -> None:
    s = play(declaring(), "D:26", "roll:2", "roll:6")
    assert s.scores[0] == 0  # +50, then Iustinianus sets to 0
    s = play(declaring(), "D:46", "roll:4", "roll:6")
    assert s.scores[0] == (40 + 50 + 6) * 2  # +50, then Vergilius


def test_declaration_above_the_ceiling_is_inverted() -> None:
    s = play(declaring(180), "D:53", "roll:5", "roll:3")
    assert s.scores[0] == 180 - 50 + 8
    s = play(declaring(180), "D:11", "roll:2", "roll:4")
    assert s.scores[0] == 180 + 30 - 10


def test_declaration_only_on_the_third_turn_played() -> None:
    s = romano.new_game(2)
    # seat 0: turn 1 Caracalla (5-1); seat 1: 1-3; seat 0 skipped; seat 1: 1-3
    play(s, "roll:5", "roll:1", "roll:1", "roll:3", "roll:1", "roll:3")
    assert s.seat == 0 and s.played[0] == 2 and s.phase == "roll"  # turn 2, not 3
    play(s, "roll:1", "roll:3")  # seat 0 turn 2
    assert s.phase == "declare" and s.seat == 1  # seat 1's third turn
    play(s, "D:13", "roll:1", "roll:3")
    assert s.phase == "declare" and s.seat == 0 and s.played[0] == 3
    play(s, "D:66", "roll:1", "roll:3")  # neither right
    assert s.phase == "roll" and s.played[1] == 4  # seat 1's fourth turn: no declaration


def test_turns_spent_out_do_not_count_for_the_declaration() -> None:
    s = romano.new_game(2)
    play(s, "roll:3", "roll:2")  # seat 0 turn 1: Nero
    play(s, "roll:1", "roll:3")  # seat 1
    play(s, "N:6", "roll:6", "roll:1", "roll:1")  # seat 0 comes back (not a played turn)
    assert s.played[0] == 1 and not s.eliminated[0]
    play(s, "roll:1", "roll:3")  # seat 1 turn 2
    play(s, "roll:1", "roll:3")  # seat 0 turn 2
    play(s, "D:11", "roll:1", "roll:3")  # seat 1 turn 3
    assert s.seat == 0 and s.phase == "declare"


# --------------------------------------------------------------------- Messalina


def messalina(scores: list[int], **kw: object) -> romano.State:
    return play(start(scores, **kw), "roll:1", "roll:4")  # type: ignore[arg-type]


def test_messalina_choices() -> None:
    s = messalina([40, 100, 70])
    assert s.phase == "challenge" and s.current_player() == 0
    assert [str(a) for a in s.legal_actions()] == ["M:1", "M:2", "M:pass"]


def test_messalina_challenger_wins_and_swaps() -> None:
    s = play(messalina([40, 100, 70]), "M:1", "roll:2", "roll:5")
    assert s.scores == [100, 40, 70]
    rolls = [e for e in s.events if e.kind == "roll" and e.text == "challenge"]
    assert [(e.seat, e.value) for e in rolls] == [(0, 2), (1, 5)]


def test_messalina_tie_the_challenged_gives_20() -> None:
    assert play(messalina([40, 100, 70]), "M:2", "roll:4", "roll:4").scores == [60, 100, 50]


def test_messalina_challenger_loses_and_gives_40() -> None:
    assert play(messalina([40, 100, 70]), "M:1", "roll:6", "roll:1").scores == [0, 140, 70]


def test_messalina_decline() -> None:
    s = play(messalina([40, 100]), "M:pass")
    assert s.scores == [40, 100] and s.seat == 1


def test_messalina_swap_is_not_inverted_but_transfers_are() -> None:
    assert play(messalina([180, 20]), "M:1", "roll:1", "roll:2").scores == [20, 180]
    # the challenged is above 150: their loss of 20 becomes a gain
    assert play(messalina([40, 180]), "M:1", "roll:3", "roll:3").scores == [60, 200]
    # the challenger is above 150: giving 40 becomes gaining 40
    assert play(messalina([180, 20]), "M:1", "roll:5", "roll:3").scores == [220, 60]


def test_messalina_cannot_challenge_self_or_an_eliminated_player() -> None:
    s = messalina([40, 100, 70], eliminated=[False, True, False])
    assert [str(a) for a in s.legal_actions()] == ["M:2", "M:pass"]
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match="out of the game"):
        s.apply("M:1")
    with pytest.raises(IllegalActionError, match="herself"):
        s.apply("M:0")
    with pytest.raises(IllegalActionError, match="no seat 7"):
        s.apply("M:7")
    assert snapshot(s) == before


def test_messalina_with_nobody_to_challenge_only_declines() -> None:
    s = messalina([40, 100], eliminated=[False, True])
    assert [str(a) for a in s.legal_actions()] == ["M:pass"]


def test_messalina_can_make_the_challenged_win() -> None:
    s = play(messalina([40, 110]), "M:1", "roll:6", "roll:2")
    assert s.is_terminal() and s.winners() == [1] and s.scores == [0, 150]


# --------------------------------------------------------------------- Nero


def test_nero_eliminates_and_the_return_needs_the_number() -> None:
    s = play(start([40, 30], turns_played=[0, 5]), "roll:3", "roll:2")
    assert s.eliminated == [True, False] and s.scores[0] == 40
    play(s, "roll:1", "roll:3")  # seat 1
    assert s.phase == "return" and s.current_player() == 0
    assert [str(a) for a in s.legal_actions()] == [f"N:{n}" for n in range(1, 7)]
    play(s, "N:4", "roll:1", "roll:2", "roll:3")  # no 4: still out
    assert s.eliminated[0] and s.seat == 1
    events = [e for e in s.events if e.kind == "return"]
    assert (events[-1].value, events[-1].text) == (4, "out")
    play(s, "roll:1", "roll:3")
    play(s, "N:5", "roll:1", "roll:5", "roll:5")  # back
    assert not s.eliminated[0] and s.seat == 1 and s.scores[0] == 40
    play(s, "roll:1", "roll:3")
    assert s.seat == 0 and s.phase == "roll"  # plays normally from the next turn


def test_the_return_always_rolls_three_times() -> None:
    s = start([40, 30], eliminated=[True, False])
    play(s, "N:2", "roll:2")
    assert s.phase == "roll" and s.seat == 0  # two more rolls even after a hit
    play(s, "roll:6", "roll:6")
    assert not s.eliminated[0]


def test_an_eliminated_player_on_150_does_not_win_until_back() -> None:
    s = start([150, 30], eliminated=[True, False], seat=1)
    play(s, "roll:1", "roll:3")
    assert not s.is_terminal()
    play(s, "N:3", "roll:3", "roll:1", "roll:1")
    assert s.is_terminal() and s.winners() == [0]  # back in the game on exactly 150


# --------------------------------------------------------------------- Marcus Aurelius


def test_marcus_aurelius_takes_the_next_players_two_rolls() -> None:
    s = play(start([40, 30, 20]), "roll:3", "roll:4")
    assert s.pending_marcus == [0] and s.scores[0] == 40
    play(s, "roll:6", "roll:5")  # seat 1: 6-5 Titus Livius
    assert s.scores == [40 - 11, 170, 20] and s.pending_marcus == []
    applied = [e for e in s.events if e.kind == "marcus-applied"]
    assert [(e.seat, e.other, e.value) for e in applied] == [(0, 1, 11)]


def test_marcus_aurelius_counts_only_the_first_pair() -> None:
    s = play(start([40, 30]), "roll:3", "roll:4", "roll:1", "roll:1", "roll:2", "roll:4")
    assert s.scores == [38, 40]


def test_marcus_aurelius_uses_the_ceiling_state_at_the_start_of_that_turn() -> None:
    s = play(start([180, 30]), "roll:3", "roll:4", "roll:2", "roll:2", "roll:1", "roll:1")
    assert s.scores[0] == 184  # above 150 when seat 1's turn starts: -4 becomes +4
    # above at the start of their own turn, back below by the start of the next one
    s = play(start([160, 30], turns_played=[2, 0]), "D:34", "roll:3", "roll:4")
    assert s.scores[0] == 110  # +50 inverted, Marcus Aurelius pending
    play(s, "roll:2", "roll:4")
    assert s.scores[0] == 104  # below 150 at the start of seat 1's turn: a plain -6


def test_marcus_aurelius_waits_for_an_opponent_who_rolls() -> None:
    # the next player skips (Caracalla): the player after them rolls instead
    s = play(start([40, 30, 20], skip_next=[False, True, False]), "roll:3", "roll:4")
    assert s.seat == 2
    play(s, "roll:1", "roll:2")  # seat 2's 1-2
    assert s.scores[0] == 37
    # the next player is out (Nero): their return rolls do not count
    s = play(start([40, 30, 20], eliminated=[False, True, False]), "roll:3", "roll:4")
    play(s, "N:1", "roll:1", "roll:2", "roll:3")  # seat 1 comes back
    assert s.scores[0] == 40 and s.pending_marcus == [0]
    play(s, "roll:2", "roll:4")  # seat 2
    assert s.scores[0] == 34


def test_marcus_aurelius_is_never_paid_to_oneself() -> None:
    s = play(start([40, 30], skip_next=[False, True]), "roll:3", "roll:4")
    assert s.seat == 0 and s.pending_marcus == [0]  # seat 1 skipped
    play(s, "roll:1", "roll:3")  # seat 0 again: its own rolls do not count
    assert s.scores[0] == 45 and s.pending_marcus == [0]
    play(s, "roll:2", "roll:2", "roll:1", "roll:1")  # seat 1: 2-2 then +2
    assert s.scores[0] == 41


def test_marcus_aurelius_lapses_when_the_game_ends() -> None:
    s = play(start([40, 30], last_round=1, seat=1), "roll:3", "roll:4")
    assert s.is_terminal() and s.pending_marcus == [1]


# --------------------------------------------------------------------- Caracalla


def test_caracalla_skips_the_next_turn() -> None:
    s = play(romano.new_game(2), "roll:5", "roll:1")
    assert s.skip_next == [True, False]
    play(s, "roll:1", "roll:3")  # seat 1
    assert s.seat == 1 and s.round == 2 and s.skip_next == [False, False]
    assert [e.seat for e in s.events if e.kind == "skip"] == [0]
    assert s.played == [1, 2]  # seat 0's skipped turn is not a played turn


def test_everyone_skipping_still_leaves_someone_to_play() -> None:
    s = start([0, 0, 0], skip_next=[True, True, False])
    assert s.seat == 2 and s.phase == "roll"


# --------------------------------------------------------------------- winning on 150


def test_exactly_150_wins_at_once() -> None:
    s = play(start([140, 30, 20]), "roll:2", "roll:4")
    assert s.is_terminal() and s.winners() == [0] and s.end_reason == "150"
    assert s.returns() == [1.0, 0.0, 0.0] and s.current_player() == romano.TERMINAL
    with pytest.raises(IllegalActionError, match="over"):
        s.apply("roll:1")


def test_several_players_on_150_share_the_victory() -> None:
    # seat 0 is above 150 on its third turn: the +50 lands as -50 (110), and
    # losing Messalina's challenge then gives +40 instead of -40.
    s = play(start([160, 110], turns_played=[2, 0]), "D:14", "roll:1", "roll:4")
    assert s.scores == [110, 110]
    play(s, "M:1", "roll:5", "roll:2")
    assert s.scores == [150, 150] and s.winners() == [0, 1]
    assert s.returns() == [0.5, 0.5]


def test_crossing_150_without_landing_does_not_win() -> None:
    s = play(start([140, 30]), "roll:2", "roll:3")
    assert not s.is_terminal() and s.scores[0] == 160


# --------------------------------------------------------------------- time limit


def test_time_limit_rounds_makes_that_round_the_last() -> None:
    s = romano.new_game(3, time_limit_rounds=1)
    play(s, "roll:4", "roll:2", "roll:2", "roll:3", "roll:5", "roll:5")
    assert s.is_terminal() and s.end_reason == "time"
    assert s.scores == [40, 20, 30] and s.winners() == [0]


def test_last_round_declared_mid_round_finishes_the_round() -> None:
    s = romano.new_game(3)
    play(s, "roll:4", "roll:2", "roll:2", "roll:3")  # seats 0 and 1 of round 1
    assert s.can_declare_last_round()
    s.apply("last-round")
    assert not s.can_declare_last_round() and s.is_last_round()
    with pytest.raises(IllegalActionError, match="already"):
        s.apply("last-round")
    play(s, "roll:5", "roll:5")  # seat 2 ends round 1
    assert s.is_terminal() and s.winners() == [0]


def test_last_round_declared_at_a_chance_node_mid_turn() -> None:
    s = play(romano.new_game(2), "roll:4")
    s.apply("last-round")
    play(s, "roll:2", "roll:2", "roll:3")
    assert s.is_terminal() and s.round == 1


def test_last_round_declared_between_rounds_plays_the_whole_next_round() -> None:
    s = play(romano.new_game(2), "roll:4", "roll:2", "roll:2", "roll:3")
    assert s.round == 2 and s.seat == 0
    s.apply("last-round")
    play(s, "roll:1", "roll:3")
    assert not s.is_terminal()
    play(s, "roll:1", "roll:3")
    assert s.is_terminal() and s.round == 2


def test_time_limit_closest_to_150_above_or_below_and_ties_share() -> None:
    s = start([140, 160, 100], last_round=1, seat=2)
    play(s, "roll:1", "roll:3")
    assert s.winners() == [0, 1] and s.returns() == [0.5, 0.5, 0.0]


def test_time_limit_excludes_eliminated_players() -> None:
    s = start([149, 100, 90], last_round=1, seat=2, eliminated=[True, False, False])
    play(s, "roll:1", "roll:3")  # seat 2: 95
    assert s.winners() == [1]


def test_time_limit_with_everyone_out_takes_the_closest_of_all() -> None:
    s = start([149, 100], last_round=1, seat=1, eliminated=[True, False])
    play(s, "roll:3", "roll:2")  # seat 1: Nero
    assert s.winners() == [0]


def test_150_during_the_last_round_ends_the_game_at_once() -> None:
    s = start([140, 30, 20], last_round=1)
    play(s, "roll:2", "roll:4")
    assert s.is_terminal() and s.end_reason == "150" and s.seat == 0
