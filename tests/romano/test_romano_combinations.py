"""Every one of the 36 combinations (RULES.md B4), normally and under the 150 ceiling.

Each case starts seat 0's first turn of a 2-player game with seat 0 on 40
points (or on 180, above the ceiling, for the inverted case) and seat 1 on 30,
rolls the pair, plays the follow-up moves and checks seat 0's score.
"Set to" effects are checked to be the same in both cases (B3).
"""

from __future__ import annotations

import pytest
from romano_helpers import answer, play, start

from alea.romano import FIGURES
from alea.romano.state import State

BASE, ABOVE, OPPONENT = 40, 180, 30

# pair -> (follow-up moves, seat 0's score from 40, seat 0's score from 180).
# "RIGHT"/"WRONG" draw the first riddle/question available and answer it so.
CASES: dict[str, tuple[list[str], int, int]] = {
    "1-1": (["roll:2", "roll:4"], 50, 170),  # new combination 2-4 Tacitus +10
    "1-2": (["RIGHT"], 50, 170),
    "1-3": ([], 45, 175),
    "1-4": (["M:1", "roll:3", "roll:3"], 60, 160),  # tie: the challenged gives 20
    "1-5": (["roll:3"], 45, 175),  # new combination 1-3 +5
    "1-6": (["roll:1", "roll:2", "roll:3"], 46, 174),
    "2-1": ([], 35, 185),
    "2-2": (["roll:6", "roll:5"], 51, 169),
    "2-3": ([], 60, 160),
    "2-4": ([], 50, 170),
    "2-5": (["RIGHT"], 60, 160),
    "2-6": ([], 0, 0),
    "3-1": (["roll:4"], 64, 156),
    "3-2": ([], 40, 180),
    "3-3": ([], 30, 190),
    "3-4": (["roll:2", "roll:4"], 34, 186),  # seat 1's next rolls: 2+4
    "3-5": (["WRONG"], 0, 0),
    "3-6": ([], 37, 183),
    "4-1": (["roll:2"], 38, 182),
    "4-2": ([], 80, 140),
    "4-3": ([], 44, 176),
    "4-4": (["RIGHT"], 60, 90),
    "4-5": (["WRONG"], 0, 0),
    "4-6": ([], 92, -12),  # (s + 6) * 2; above: the change s + 12 is inverted
    "5-1": ([], 40, 180),
    "5-2": ([], 50, 170),
    "5-3": ([], 32, 188),
    "5-4": ([], 20, 270),  # halved; above: the change -90 is inverted
    "5-5": ([], 70, 150),  # from 180, -30 lands on exactly 150: a win
    "5-6": (["RIGHT"], 50, 170),
    "6-1": (["RIGHT"], 50, 170),
    "6-2": ([], 32, 188),
    "6-3": (["RIGHT"], 55, 165),
    "6-4": ([], 149, 149),
    "6-5": ([], 170, 170),
    "6-6": (["RIGHT"], 55, 165),
}


def run(pair: str, score: int) -> State:
    s = start([score, OPPONENT])
    a, b = pair.split("-")
    play(s, f"roll:{a}", f"roll:{b}")
    for move in CASES[pair][0]:
        if move in ("RIGHT", "WRONG"):
            answer(s, move == "RIGHT")
        else:
            s.apply(move)
    return s


def test_every_combination_has_a_case() -> None:
    assert set(CASES) == set(FIGURES)
    assert len(FIGURES) == 36


@pytest.mark.parametrize("pair", sorted(CASES))
def test_combination(pair: str) -> None:
    s = run(pair, BASE)
    assert s.scores[0] == CASES[pair][1]
    assert FIGURES[pair].pair in [e.cause for e in s.events if e.kind == "figure"]


@pytest.mark.parametrize("pair", sorted(CASES))
def test_combination_above_the_ceiling(pair: str) -> None:
    s = run(pair, ABOVE)
    assert s.scores[0] == CASES[pair][2]
    if FIGURES[pair].kind == "set":
        assert CASES[pair][1] == CASES[pair][2]  # "set to" ignores the ceiling


def test_turn_passes_after_a_simple_combination() -> None:
    s = run("1-3", BASE)
    assert (s.seat, s.phase, s.current_player()) == (1, "roll", -1)


def test_set_effects_are_never_inverted() -> None:
    for pair, value in (("2-6", 0), ("6-4", 149), ("6-5", 170)):
        for score in (BASE, ABOVE, -20):
            assert run(pair, score).scores[0] == value


def test_riddle_wrong_without_penalty_changes_nothing() -> None:
    for pair in ("1-2", "2-5", "6-1", "6-6", "6-3"):
        s = start([BASE, OPPONENT])
        play(s, f"roll:{pair[0]}", f"roll:{pair[2]}")
        answer(s, False)
        assert s.scores[0] == BASE


def test_riddle_right_without_consequence_for_agrippina_and_commodus() -> None:
    for pair in ("4-5", "3-5"):
        s = start([BASE, OPPONENT])
        play(s, f"roll:{pair[0]}", f"roll:{pair[2]}")
        answer(s, True)
        assert s.scores[0] == BASE


def test_porcius_cato_wrong_costs_two_and_is_inverted_above() -> None:
    for score, expected in ((BASE, 38), (ABOVE, 182)):
        s = start([score, OPPONENT])
        play(s, "roll:5", "roll:6")
        answer(s, False)
        assert s.scores[0] == expected


def test_tiberius_high_roll_gains() -> None:
    for roll, expected, expected_above in ((4, 44, 176), (6, 46, 174), (1, 39, 181)):
        assert play(start([BASE, OPPONENT]), "roll:4", "roll:1", f"roll:{roll}").scores[0] == (
            expected
        )
        above = play(start([ABOVE, OPPONENT]), "roll:4", "roll:1", f"roll:{roll}")
        assert above.scores[0] == expected_above


def test_titus_half_is_rounded_down_and_crassus_toward_zero() -> None:
    s = start([41, OPPONENT])
    play(s, "roll:4", "roll:4")
    answer(s, True)
    assert s.scores[0] == 61  # 41 + 20
    s = start([-7, OPPONENT])
    play(s, "roll:4", "roll:4")
    answer(s, True)
    assert s.scores[0] == -11  # -7 + floor(-3.5)
    assert play(start([-7, OPPONENT]), "roll:5", "roll:4").scores[0] == -3
    assert play(start([7, OPPONENT]), "roll:5", "roll:4").scores[0] == 3


def test_vergilius_negative_score() -> None:
    assert play(start([-10, OPPONENT]), "roll:4", "roll:6").scores[0] == -8


def test_chains_of_roll_again() -> None:
    s = play(start([BASE, OPPONENT]), "roll:1", "roll:1", "roll:1", "roll:1", "roll:1", "roll:5")
    assert s.seat == 0 and s.phase == "roll"  # 1-1, 1-1, 1-5: the second die again
    play(s, "roll:5", "roll:3")  # 1-5 again, then 1-3
    assert s.scores[0] == 45
    figures = [e.cause for e in s.events if e.kind == "figure"]
    assert figures == ["1-1", "1-1", "1-5", "1-5", "1-3"]


def test_above_150_to_exactly_150_wins() -> None:
    s = run("5-5", ABOVE)
    assert s.is_terminal() and s.winners() == [0] and s.end_reason == "150"


def test_scores_may_go_below_zero() -> None:
    assert play(start([3, OPPONENT]), "roll:3", "roll:3").scores[0] == -7
