"""Dice multisets: the sub-multisets of a roll and the probabilities of rolls.

A roll is a sorted tuple of 1 to 8 values. There are only 3,003 such
multisets, so everything asked of one (its distinct sub-multisets, the
probability of rolling it) is computed once and cached for the process: the
move generator then does dictionary look-ups instead of combinatorics.
"""

from __future__ import annotations

from bisect import bisect
from functools import cache
from itertools import combinations_with_replacement
from math import factorial
from typing import Final

from alea.iacta.notation import Action, Outcome, roll_outcome

# The memos are explicit dicts rather than functools.cache: a compiled caller then looks
# an answer up without a Python-level call (docs/engine.md, "Compiled engine").
_SUBMULTISETS: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}
_BY_SIZE: dict[tuple[tuple[int, ...], int], tuple[tuple[tuple[int, ...], int], ...]] = {}
_COUNTS: dict[tuple[int, ...], tuple[int, ...]] = {}
_MASKS: dict[tuple[int, ...], int] = {}


def submultisets(roll: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct non-empty sub-multiset of ``roll`` (each sorted), shortest first."""
    found = _SUBMULTISETS.get(roll)
    if found is None:
        found = _submultisets(roll)
        _SUBMULTISETS[roll] = found
    return found


def _submultisets(roll: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    counts: dict[int, int] = {}
    for v in roll:
        counts[v] = counts.get(v, 0) + 1
    subsets: list[tuple[int, ...]] = [()]
    for value, count in counts.items():
        subsets = [s + (value,) * k for s in subsets for k in range(count + 1)]
    subsets.remove(())
    return tuple(sorted((tuple(sorted(s)) for s in subsets), key=lambda s: (len(s), s)))


def submultisets_by_size(
    roll: tuple[int, ...], size: int
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Distinct sub-multisets of ``roll`` with exactly ``size`` dice, each with its pip sum."""
    key = (roll, size)
    found = _BY_SIZE.get(key)
    if found is None:
        found = tuple((s, sum(s)) for s in submultisets(roll) if len(s) == size)
        _BY_SIZE[key] = found
    return found


def value_counts(roll: tuple[int, ...]) -> tuple[int, ...]:
    """How many dice of each value 1–6 the roll has (index 0 unused)."""
    found = _COUNTS.get(roll)
    if found is None:
        counts = [0, 0, 0, 0, 0, 0, 0]
        for v in roll:
            counts[v] += 1
        found = tuple(counts)
        _COUNTS[roll] = found
    return found


def value_mask(roll: tuple[int, ...]) -> int:
    """The distinct values of ``roll`` as a bit mask (bit v set when v was rolled)."""
    found = _MASKS.get(roll)
    if found is None:
        found = 0
        for v in roll:
            found |= 1 << v
        _MASKS[roll] = found
    return found


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


#: By number of dice (0 to 8): a list, indexed without hashing.
Sampler = tuple[tuple["Roll", ...], tuple[float, ...], tuple[int, ...]]
_SAMPLERS: list[Sampler | None] = [None] * 9


def roll_sampler(count: int) -> Sampler:
    """The :class:`Roll` records of every roll of ``count`` dice, their cumulative
    probabilities, in :func:`roll_distribution` order, and a guide to them.

    Sampling is then one uniform number and a search: the same distribution as rolling
    the dice one by one, at a fraction of the cost (:func:`draw`). The last cumulative
    value is forced to exactly 1 so no draw falls off the end. The record carries its
    outcome (``Roll.outcome``) and travels with it into the state.
    """
    if not 0 <= count <= 8:
        return _roll_sampler(count)
    found = _SAMPLERS[count]
    if found is None:
        found = _SAMPLERS[count] = _roll_sampler(count)
    return found


def _roll_sampler(count: int) -> Sampler:
    records = tuple(roll_info(o.dice) for o, _ in roll_distribution(count))
    cumulative: list[float] = []
    total = 0.0
    for _, probability in roll_distribution(count):
        total += probability
        cumulative.append(total)
    cumulative[-1] = 1.0
    size = len(records)
    guide = tuple(bisect(cumulative, k / size) for k in range(size))
    return records, tuple(cumulative), guide


def draw(sampler: Sampler, u: float) -> Roll:
    """The record ``bisect(cumulative, u)`` picks, for ``0 <= u < 1``, in a few steps.

    ``guide[k]`` is where ``k / size`` falls, so the search starts at most a step or two
    from the answer (a step back first, should ``u * size`` have rounded up): no binary
    search over a thousand floats, and no call out of compiled code. Exactly the same
    pick as the binary search, so every seeded game is unchanged.
    """
    records, cumulative, guide = sampler
    size = len(guide)
    k = int(u * size)
    if k >= size:
        k = size - 1
    i = guide[k]
    while i > 0 and cumulative[i - 1] > u:
        i -= 1
    while cumulative[i] <= u:
        i += 1
    return records[i]


#: ``Roll.forum_memo`` has one slot per :func:`alea.iacta.forum` key (limit 1-7, two pairs).
FORUM_KEYS: Final = 32
#: ``Roll.temple_actions`` has one slot per number of dice a Temple placement may need (1-8).
TEMPLE_COUNTS: Final = 9


class Roll:
    """One distinct roll and what the placement rules ask of it, computed once per process.

    The building modules keep their per-roll answers on it, in lists indexed by small
    integers (a list index, not a dict look-up, on every legal list). The record of the
    roll just rolled travels with the state (``State.apply`` finds it by the outcome's
    text in one look-up), so a legal list looks nothing up by the roll's tuple.
    """

    __slots__ = (
        "castrum_all",
        "counts",
        "dice",
        "forum_memo",
        "groups",
        "latrine",
        "mask",
        "outcome",
        "rerolls",
        "temple_actions",
        "temple_totals",
    )

    def __init__(self, dice: tuple[int, ...]) -> None:
        self.dice = dice
        counts = value_counts(dice)
        self.counts = counts
        #: The roll as ``(value, count)`` pairs, by value.
        self.groups: tuple[tuple[int, int], ...] = tuple(
            (value, counts[value]) for value in range(1, 7) if counts[value]
        )
        self.mask = value_mask(dice)
        #: The shared ``roll:`` outcome that rolls these dice.
        self.outcome: Outcome = roll_outcome(dice)
        #: By number of dice (None until asked): each Temple placement of that many dice, in
        #: :func:`submultisets` order, and in ``temple_totals`` its pip sum. A legal list
        #: filters them by the least sum the Temple asks (:func:`alea.iacta.temple.options_for`)
        #: instead of memoising each filter: tens of thousands of memoised answers, each a
        #: tuple of actions the cyclic garbage collector tracks for ever, cost more (in
        #: misses, memory and collections) than the filter of a few dozen entries.
        self.temple_actions: list[tuple[Action, ...] | None] = [None] * TEMPLE_COUNTS
        self.temple_totals: list[tuple[int, ...]] = [()] * TEMPLE_COUNTS
        #: The Forum's placements by its key (:func:`alea.iacta.forum.options_for`).
        self.forum_memo: list[tuple[Action, ...] | None] = [None] * FORUM_KEYS
        #: Every Castrum set the roll can form in an empty Castrum (None until asked).
        self.castrum_all: tuple[Action, ...] | None = None
        #: The forced Latrine placements (None until asked).
        self.latrine: tuple[Action, ...] | None = None
        #: Every re-roll of the roll, in :func:`submultisets` order (None until asked; the
        #: state fills it, since the ``R:`` actions are the round flow's, not a building's).
        self.rerolls: tuple[Action, ...] | None = None


_ROLL_INFO: dict[tuple[int, ...], Roll] = {}
#: The same records by their outcome's notation (``"roll:1356"``): what ``State.apply`` is
#: handed. Filled with ``_ROLL_INFO``.
_ROLL_BY_OUTCOME: dict[str, Roll] = {}


def roll_info(dice: tuple[int, ...]) -> Roll:
    """The :class:`Roll` record of ``dice`` (a sorted roll)."""
    found = _ROLL_INFO.get(dice)
    if found is None:
        found = _ROLL_INFO[dice] = Roll(dice)
        _ROLL_BY_OUTCOME[found.outcome] = found
    return found


def rolled(outcome: str) -> Roll | None:
    """The :class:`Roll` record an outcome (or its notation) rolls, or None if it is not
    a roll the samplers made (then the caller parses it)."""
    return _ROLL_BY_OUTCOME.get(outcome)
