"""Dado Romano's bots play like people: answers right at their level's rate, declarations
and Messalina's choice by what they would bring. Rates are checked statistically over
seeded draws, with tolerances of about three standard deviations."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

import alea.romano as romano
from alea.bots import ask, for_game
from alea.bots.romano import ACCURACY, RomanoBot, declaration_values
from alea.romano.state import State


def asking(seat_scores: list[int]) -> State:
    """Seat 0 answering a riddle (Iuvenalis, 1-2)."""
    s = romano.position(len(seat_scores), scores=seat_scores)
    s.apply("roll:1")
    s.apply("roll:2")
    return s


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_answers_are_right_at_the_levels_rate(level: str) -> None:
    bot = for_game("romano", level)
    rng = random.Random(f"answers-{level}")
    n, right = 3000, 0
    wrong_choices: Counter[int] = Counter()
    base = asking([0, 0])
    for k in range(n):
        s = base.clone()
        outcomes = s.chance_outcomes()
        s.apply(outcomes[k % len(outcomes)][0])  # every riddle of the bank in turn
        item = s.bank.get(s.item)
        choice = ask(bot, s, rng)
        if item.is_right(choice.values[0]):
            right += 1
        else:
            wrong_choices[(choice.values[0] - 1 - item.answer) % 4] += 1
    p = ACCURACY[level]
    tolerance = 3 * math.sqrt(p * (1 - p) / n)
    assert abs(right / n - p) < tolerance, (level, right / n)
    # A wrong answer is any of the three wrong choices, not always the same one.
    assert len(wrong_choices) == 3 and min(wrong_choices.values()) > (n - right) / 3 * 0.8


def test_the_levels_are_ordered_and_the_same_seed_gives_the_same_answers() -> None:
    assert ACCURACY["easy"] < ACCURACY["medium"] < ACCURACY["hard"]
    s = asking([0, 0])
    s.apply(s.chance_outcomes()[0][0])
    first = [ask(RomanoBot("medium"), s, random.Random(4)) for _ in range(5)]
    again = [ask(RomanoBot("medium"), s, random.Random(4)) for _ in range(5)]
    assert first == again


def declarations(scores: list[int], level: str, n: int) -> Counter[str]:
    s = romano.position(len(scores), scores=scores, turns_played=[2] + [0] * (len(scores) - 1))
    assert s.phase == "declare"
    bot, rng = RomanoBot(level), random.Random(f"declare-{level}-{scores}")
    return Counter(str(ask(bot, s, rng)) for _ in range(n))


def test_declarations_follow_what_the_pair_would_bring() -> None:
    # Each pair's value is the engine's play of the pair coming true; the pairs worth
    # more are chosen more often, and the bot does not declare uniformly.
    start = romano.position(2, scores=[0, 0], turns_played=[2, 0])
    legal = [str(a) for a in start.legal_actions()]
    values = dict(declaration_values(start, legal, ACCURACY["medium"]))
    ranked = sorted(values, key=values.__getitem__, reverse=True)
    counts = declarations([0, 0], "medium", 600)
    assert sum(counts[d] for d in ranked[:18]) > 0.9 * 600
    assert counts[ranked[0]] > counts[ranked[-1]]
    assert counts.most_common(1)[0][0] in ranked[:3]
    assert counts.most_common(1)[0][1] > 600 * 3 / 36  # far from 1 in 36
    # 100 + 50 for both right is 150 exactly, if the pair changes nothing after that: a
    # hard bot nearly always declares such a pair.
    near = declarations([100, 0], "hard", 200)
    top = near.most_common(1)[0][0]
    s = romano.position(2, scores=[100, 0], turns_played=[2, 0])
    for move in (top, f"roll:{top[2]}", f"roll:{top[3]}"):
        s.apply(move)
    assert s.scores[0] == 150 or s.is_terminal()


def test_an_easy_bot_spreads_its_declarations_more_than_a_hard_one() -> None:
    easy = declarations([40, 0], "easy", 300)
    hard = declarations([40, 0], "hard", 300)
    assert len(easy) > len(hard)
    assert easy.most_common(1)[0][1] < hard.most_common(1)[0][1]


def test_messalina_challenges_a_leader_and_spares_a_trailer() -> None:
    def choices(scores: list[int]) -> Counter[str]:
        s = romano.position(2, scores=scores, turns_played=[3, 3])
        s.apply("roll:1")
        s.apply("roll:4")
        assert s.phase == "challenge"
        bot, rng = RomanoBot("hard"), random.Random(9)
        return Counter(str(ask(bot, s, rng)) for _ in range(200))

    assert choices([10, 140])["M:1"] > 180  # a swap would bring 140
    assert choices([140, 10])["M:pass"] > 180  # a swap would cost everything


def test_a_paced_table_and_nero_have_nothing_to_weigh() -> None:
    s = romano.new_game(2, paced=True)
    assert str(ask(RomanoBot("easy"), s, random.Random(1))) == "throw"
    out = romano.position(2, eliminated=[True, False], turns_played=[4, 4])
    rng = random.Random(2)
    numbers = Counter(str(ask(RomanoBot("hard"), out, rng)) for _ in range(600))
    assert set(numbers) == {f"N:{n}" for n in range(1, 7)}


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_bots_play_whole_paced_games(level: str) -> None:
    rng = random.Random(level)
    s = romano.INFO.new_game(3, **romano.INFO.table_options)
    bots = [for_game("romano", level) for _ in range(3)]
    while not s.is_terminal():
        if len(s.history) == 600 and s.can_declare_time_up():
            s.apply("last-round")
        elif s.is_chance():
            s.apply(s.sample_chance(rng))
        else:
            s.apply(ask(bots[s.current_player()], s, rng))
    assert s.winners()


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        RomanoBot("expert")
