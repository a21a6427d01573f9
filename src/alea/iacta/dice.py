"""Dice multisets: the sub-multisets of a roll and the probabilities of rolls.

A roll is a sorted tuple of 1 to 8 values. There are only 3,003 such
multisets, so everything asked of one (its distinct sub-multisets, the
probability of rolling it) is computed once and cached for the process: the
move generator then does dictionary look-ups instead of combinatorics.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from math import factorial

from alea.iacta.notation import Outcome, roll_outcome


@cache
def submultisets(roll: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct non-empty sub-multiset of ``roll`` (each sorted), shortest first."""
    counts: dict[int, int] = {}
    for v in roll:
        counts[v] = counts.get(v, 0) + 1
    subsets: list[tuple[int, ...]] = [()]
    for value, count in counts.items():
        subsets = [s + (value,) * k for s in subsets for k in range(count + 1)]
    subsets.remove(())
    return tuple(sorted((tuple(sorted(s)) for s in subsets), key=lambda s: (len(s), s)))


@cache
def submultisets_by_size(
    roll: tuple[int, ...], size: int
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Distinct sub-multisets of ``roll`` with exactly ``size`` dice, each with its pip sum."""
    return tuple((s, sum(s)) for s in submultisets(roll) if len(s) == size)


@cache
def value_counts(roll: tuple[int, ...]) -> tuple[int, ...]:
    """How many dice of each value 1–6 the roll has (index 0 unused)."""
    counts = [0] * 7
    for v in roll:
        counts[v] += 1
    return tuple(counts)


@cache
def value_mask(roll: tuple[int, ...]) -> int:
    """The distinct values of ``roll`` as a bit mask (bit v set when v was rolled)."""
    mask = 0
    for v in roll:
        mask |= 1 << v
    return mask


def remove_dice(roll: tuple[int, ...], dice: tuple[int, ...]) -> tuple[int, ...]:
    """``roll`` without ``dice`` (a sub-multiset of it); both sorted."""
    rest = list(roll)
    for v in dice:
        rest.remove(v)
    return tuple(rest)


def is_submultiset(dice: tuple[int, ...], roll: tuple[int, ...]) -> bool:
    """Whether every die of ``dice`` can be taken from ``roll``."""
    need = value_counts(tuple(sorted(dice)))
    have = value_counts(roll)
    return all(need[v] <= have[v] for v in range(1, 7))


@cache
def roll_distribution(count: int) -> tuple[tuple[Outcome, float], ...]:
    """Every outcome of rolling ``count`` fair dice, with its probability."""
    total = 6**count
    result: list[tuple[Outcome, float]] = []
    for dice in combinations_with_replacement(range(1, 7), count):
        ways = factorial(count)
        for c in value_counts(dice)[1:]:
            ways //= factorial(c)
        result.append((roll_outcome(dice), ways / total))
    return tuple(result)


@cache
def roll_sampler(count: int) -> tuple[tuple[Outcome, ...], tuple[float, ...]]:
    """The outcomes of rolling ``count`` dice and their cumulative probabilities.

    Sampling is then one uniform number and a binary search: the same
    distribution as rolling the dice one by one, at a fraction of the cost.
    The last cumulative value is forced to exactly 1 so no draw falls off the end.
    """
    outcomes = tuple(o for o, _ in roll_distribution(count))
    cumulative: list[float] = []
    total = 0.0
    for _, probability in roll_distribution(count):
        total += probability
        cumulative.append(total)
    cumulative[-1] = 1.0
    return outcomes, tuple(cumulative)
