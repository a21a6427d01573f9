"""The bots' valuation helpers agree with the engine and with exact dice odds."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import product

import pytest

import alea.iacta as iacta
from alea.bots import values
from alea.iacta.scoring import Holdings, best_arrangement


def _final_holdings(seed: int, players: int = 4) -> list[Holdings]:
    rng = random.Random(seed)
    state = iacta.new_game(players)
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return [state.holdings(s) for s in range(players)]


def test_summary_matches_best_arrangement() -> None:
    for seed in range(12):
        for h in _final_holdings(seed, 4 + seed % 2):
            a = best_arrangement(h)
            score, tiebreak, slots = values.summary(h)
            assert (score, tiebreak) == (a.score, a.tiebreak)
            assert slots == sum(2 - len(p.patricians) for p in a.places)


def test_projected_is_the_score_in_the_last_round() -> None:
    h = Holdings(("red4", "grey0"), ("redm2", "redw3", "bluew1"), ("V",), (2, 3), 0)
    assert values.projected(h, 0, 5) == pytest.approx(best_arrangement(h).score)
    assert values.projected(h, 3, 5) > values.projected(h, 0, 5)


def _brute(dice: int, test: Callable[[tuple[int, ...]], bool]) -> float:
    hits = sum(1 for roll in product(range(1, 7), repeat=dice) if test(roll))
    return hits / float(6**dice)


def _has_set(c: int) -> Callable[[tuple[int, ...]], bool]:
    return lambda r: max(r.count(v) for v in range(1, 7)) >= c


def _has_sixes(c: int) -> Callable[[tuple[int, ...]], bool]:
    return lambda r: r.count(6) >= c


def _has_run(c: int) -> Callable[[tuple[int, ...]], bool]:
    return lambda r: any(all(v + k in r for k in range(c)) for v in range(1, 7))


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
def test_dice_odds_are_exact(dice: int) -> None:
    for c in range(1, 5):
        assert values.p_set(dice, c) == pytest.approx(_brute(dice, _has_set(c)))
        assert values.p_value(dice, c) == pytest.approx(_brute(dice, _has_sixes(c)))
        assert values.p_run(dice, c) == pytest.approx(_brute(dice, _has_run(c)))
    assert values.p_top_sum(dice, 1, 6) == pytest.approx(_brute(dice, lambda r: 6 in r))


def test_expected_best_and_top() -> None:
    assert values.expected_best([1.0, 2.0, 3.0], 3) == pytest.approx(3.0)
    assert values.expected_best([1.0, 2.0, 3.0], 1) == pytest.approx(2.0)
    assert values.expected_best([1.0, 2.0, 3.0], 2) == pytest.approx((2 + 3 + 3) / 3)
    assert values.expected_top((), 1, 1, (0.0, 1.0, 0.0)) == pytest.approx(2.0)
    assert values.expected_top((3,), 1, 2, (0.5, 0.0, 0.5)) == pytest.approx(3 + 2)
    assert sum(values.poisson(1.5, 40)) == pytest.approx(1.0)


def test_odds_tables_give_the_functions_numbers() -> None:
    """The heuristic's table look-ups are p_set, p_value and p_run, bit for bit,
    for any dice and count (beyond the tables too)."""
    pairs = [
        (values.set_odds, values.p_set),
        (values.value_odds, values.p_value),
        (values.run_odds, values.p_run),
    ]
    for table, exact in pairs:
        for dice in range(values.MAX_DICE + 3):
            for count in range(-1, values.MAX_DICE + 4):
                assert table(dice, count) == exact(dice, count), (exact.__name__, dice, count)


def test_poisson_is_the_rounded_table_and_survives_being_emptied() -> None:
    """Cached by the mean as given: the same weights as rounding first, before and after
    the cache is emptied (it is, when full)."""
    means = [0.0, 0.0004, 0.0005, 1.2345, 1.2355, 2.5, 7.25]
    first = {(m, n): values.poisson(m, n) for m in means for n in range(1, 6)}
    for (m, n), weights in first.items():
        assert weights == values._poisson(round(m, 3), n)
        assert len(weights) == n
    values._POISSON.clear()
    for (m, n), weights in first.items():
        assert values.poisson(m, n) == weights
