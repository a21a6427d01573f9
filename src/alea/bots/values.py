"""What cards and dice are worth to a bot: exact dice odds and projected end-game value.

Two kinds of numbers feed the greedy heuristic (:mod:`alea.bots.greedy`):

* **Dice odds**, exact for fair dice (computed once from
  :func:`alea.iacta.dice.roll_distribution`): the chance that ``d`` dice show
  some value at least ``c`` times (a Castrum set), a run of ``L`` consecutive
  values (a Senate straight), a given value at least ``k`` times (growing a
  set), and that the best ``k`` of ``d`` dice add up to at least ``s`` (a
  Temple group).
* **Card values**, from the end-game optimiser: a card is worth what it adds to
  :func:`projected`, which is the exact final score of the holdings
  (:func:`alea.iacta.scoring.best_arrangement`) plus a modest estimate of what
  they can still become in the rounds left: empty places that future
  patricians can fill, unplaced patricians that a future province can take,
  and Senate cards whose count (men, women, couples, colours...) grows.
  In the last round the potential is zero and a card is worth exactly what it
  adds to the final score.

Arrangement summaries are cached per holdings: holdings change only at an
evaluation, so a game asks the optimiser a few hundred times at most, and a
search asks it the same questions over and over.
"""

from __future__ import annotations

from functools import cache, lru_cache
from math import comb, exp
from typing import Final

from alea.iacta.cards import SENATE_CARDS
from alea.iacta.dice import roll_distribution, value_counts
from alea.iacta.scoring import Holdings, best_score

#: How much each Senate card's score tends to grow between the start of the
#: game and its end (by numeral), for valuing a card before its final count.
SENATE_GROWTH: Final = {
    1: 1.0,  # I: more places
    2: 2.0,  # II: more patricians placed
    3: 1.5,  # III: more Senate cards
    4: 1.5,  # IV: more Fortuna tiles
    5: 1.5,  # V: more couples
    6: 1.5,  # VI: more colours placed
    7: 1.5,  # VII: more place colours
    8: 2.0,  # VIII: more occupied province cards
    9: 2.0,  # IX: more women
    10: 2.0,  # X: more men
    11: 1.0,  # XI: extras beside couples
    12: 1.5,  # XII: a place to fill
    13: 1.5,  # XIII: a place to fill
}

#: Patrician value an empty place is expected to receive in a later round.
FILL_VALUE: Final = 2.2
#: Places a player can expect to fill per round still to come.
FILLS_PER_ROUND: Final = 1.0


# ------------------------------------------------------------------ dice odds


@cache
def p_set(dice: int, count: int) -> float:
    """Chance that ``dice`` fair dice show some value at least ``count`` times."""
    if count <= 0:
        return 1.0
    if count > dice:
        return 0.0
    return sum(p for o, p in roll_distribution(dice) if max(value_counts(o.dice)) >= count)


@cache
def p_value(dice: int, count: int) -> float:
    """Chance that ``dice`` fair dice show one given value at least ``count`` times."""
    if count <= 0:
        return 1.0
    if count > dice:
        return 0.0
    ways = sum(comb(dice, k) * int(5 ** (dice - k)) for k in range(count, dice + 1))
    return ways / int(6**dice)


def _longest_run(dice: tuple[int, ...]) -> int:
    best = run = 0
    counts = value_counts(dice)
    for v in range(1, 7):
        run = run + 1 if counts[v] else 0
        best = max(best, run)
    return best


@cache
def p_run(dice: int, length: int) -> float:
    """Chance that ``dice`` fair dice contain ``length`` consecutive values."""
    if length <= 0:
        return 1.0
    if length > min(dice, 6):
        return 0.0
    return sum(p for o, p in roll_distribution(dice) if _longest_run(o.dice) >= length)


def p_top_sum(dice: int, take: int, total: int) -> float:
    """Chance that the highest ``take`` of ``dice`` fair dice add up to at least ``total``.

    A total at most ``take`` (every roll reaches it) or above ``6 * take`` (none
    does) asks the same question as the nearest bound: clamped, so that the cache
    holds a few hundred entries instead of one for every total a search meets.
    """
    if take > 0:
        if total < take:
            total = take
        elif total > 6 * take + 1:
            total = 6 * take + 1
    return _p_top_sum(dice, take, total)


@cache
def _p_top_sum(dice: int, take: int, total: int) -> float:
    if take <= 0:
        return 1.0 if total <= 0 else 0.0
    if take > dice:
        return 0.0
    return sum(p for o, p in roll_distribution(dice) if sum(o.dice[-take:]) >= total)


@cache
def expected_top(known: tuple[int, ...], draws: int, keep: int, probs: tuple[float, ...]) -> float:
    """Expected sum of the best ``keep`` tiles among ``known`` and ``draws`` new ones.

    ``probs`` are the chances of a 1, 2 and 3 (rounded by the caller so that
    the cache stays small).
    """
    if keep <= 0:
        return 0.0
    dist: dict[tuple[int, ...], float] = {tuple(sorted(known, reverse=True)[:keep]): 1.0}
    for _ in range(draws):
        nxt: dict[tuple[int, ...], float] = {}
        for best, p in dist.items():
            for value, q in zip((1, 2, 3), probs, strict=True):
                if q <= 0:
                    continue
                key = tuple(sorted((*best, value), reverse=True)[:keep])
                nxt[key] = nxt.get(key, 0.0) + p * q
        dist = nxt
    return sum(sum(best) * p for best, p in dist.items())


#: :func:`poisson`'s answers by mean as given, then limit; emptied when it holds
#: ``_POISSON_SIZE`` means (a search meets many, a game far fewer).
_POISSON: dict[float, dict[int, tuple[float, ...]]] = {}
_POISSON_SIZE: Final = 1 << 14


def poisson(mean: float, limit: int) -> tuple[float, ...]:
    """P(X = 0..limit-1) for a Poisson count with ``mean`` (the rest is P(X >= limit)).

    ``mean`` is rounded to 0.001 for the table below; this cache, keyed by the mean
    as given, spares the rounding (a decimal conversion) on a repeated question. It is
    two plain dicts (by mean, then limit), not ``lru_cache``: the heuristic asks this
    for every prize it weighs, and a call through ``lru_cache`` (a key tuple built and
    hashed, the recency list updated) cost more than the look-ups.
    """
    by_limit = _POISSON.get(mean)
    if by_limit is None:
        if len(_POISSON) >= _POISSON_SIZE:
            _POISSON.clear()
        by_limit = _POISSON[mean] = {}
    found = by_limit.get(limit)
    if found is None:
        found = by_limit[limit] = _poisson(round(mean, 3), limit)
    return found


@lru_cache(maxsize=1 << 14)
def _poisson(mean: float, limit: int) -> tuple[float, ...]:
    out: list[float] = []
    p = exp(-mean)
    for k in range(limit):
        out.append(p)
        p *= mean / (k + 1)
    return tuple(out)


#: The most dice a player holds (its dice at the start of a round).
MAX_DICE: Final = 8

#: :func:`p_set`, :func:`p_value` and :func:`p_run` as tables by dice held, then count
#: (or run length) from 0 up to the last that can happen, filled by those functions:
#: the greedy heuristic asks them in its inner loops, where a list index costs far less
#: than a cached call (a key tuple built and hashed), and gives the very same numbers.
_SET_ODDS: Final = [[p_set(d, c) for c in range(d + 1)] for d in range(MAX_DICE + 1)]
_VALUE_ODDS: Final = [[p_value(d, c) for c in range(d + 1)] for d in range(MAX_DICE + 1)]
_RUN_ODDS: Final = [[p_run(d, n) for n in range(min(d, 6) + 1)] for d in range(MAX_DICE + 1)]


def set_odds(dice: int, count: int) -> float:
    """:func:`p_set`, read from its table."""
    if count <= 0:
        return 1.0
    if dice > MAX_DICE or dice < 0:
        return p_set(dice, count)
    row = _SET_ODDS[dice]
    return row[count] if count < len(row) else 0.0


def value_odds(dice: int, count: int) -> float:
    """:func:`p_value`, read from its table."""
    if count <= 0:
        return 1.0
    if dice > MAX_DICE or dice < 0:
        return p_value(dice, count)
    row = _VALUE_ODDS[dice]
    return row[count] if count < len(row) else 0.0


def run_odds(dice: int, length: int) -> float:
    """:func:`p_run`, read from its table."""
    if length <= 0:
        return 1.0
    if dice > MAX_DICE or dice < 0:
        return p_run(dice, length)
    row = _RUN_ODDS[dice]
    return row[length] if length < len(row) else 0.0


def expected_best(values: list[float], draws: int) -> float:
    """Expected best of ``draws`` items drawn without replacement from ``values``."""
    m = len(values)
    if m == 0 or draws <= 0:
        return 0.0
    draws = min(draws, m)
    ordered = sorted(values, reverse=True)
    total = comb(m, draws)
    return sum(v * comb(m - 1 - i, draws - 1) for i, v in enumerate(ordered)) / total


# --------------------------------------------------------------- card values


def summary(h: Holdings) -> tuple[int, int, int]:
    """Final score, tie-break (value of unplaced patricians) and empty patrician slots.

    The same numbers as :func:`alea.iacta.scoring.best_arrangement`, which also
    builds the places, re-scores them from the rules text and validates the
    holdings; a search asks this thousands of times a second about holdings
    its own playouts produced, so it uses :func:`~alea.iacta.scoring.best_score`
    (``tests/bots/test_values.py`` checks that both agree).
    """
    return _summary(h)


@lru_cache(maxsize=1 << 17)
def _summary(h: Holdings) -> tuple[int, int, int]:
    found = best_score(h)
    places = len(h.provinces) + sum(1 for c in h.senate if SENATE_CARDS[c].number >= 12)
    return found.score, found.tiebreak, 2 * places - found.placed


@lru_cache(maxsize=1 << 16)
def holdings(
    provinces: tuple[str, ...],
    patricians: tuple[str, ...],
    senate: tuple[str, ...],
    fortuna: tuple[int, ...],
) -> Holdings:
    """Canonical holdings (sorted, no tokens) so that the cache sees equal keys.

    Cached (the value is immutable): building a :class:`Holdings`, a plain Python
    class, costs tens of microseconds, and a search asks for the same holdings at
    nearly every simulated decision and at the end of every playout.
    """
    return Holdings(
        tuple(sorted(provinces)),
        tuple(sorted(patricians)),
        tuple(sorted(senate)),
        tuple(sorted(fortuna)),
        0,
    )


#: :func:`projected_of`'s answers by its arguments; emptied when full.
_PROJECTED: dict[
    tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[int, ...], int, int], float
] = {}
_PROJECTED_SIZE: Final = 1 << 16


def projected_of(
    provinces: tuple[str, ...],
    patricians: tuple[str, ...],
    senate: tuple[str, ...],
    fortuna: tuple[int, ...],
    rounds_after: int,
    rounds: int,
) -> float:
    """:func:`projected` of :func:`holdings` of these cards, cached by the cards as given.

    IS-MCTS values every player at the end of every playout: keyed by plain
    tuples, a repeated question skips building and hashing a :class:`Holdings`.
    The cache is a plain dict (looked up natively by the compiled search, where
    ``lru_cache`` is a call through Python's calling convention).
    """
    key = (provinces, patricians, senate, fortuna, rounds_after, rounds)
    found = _PROJECTED.get(key)
    if found is None:
        found = projected(holdings(provinces, patricians, senate, fortuna), rounds_after, rounds)
        if len(_PROJECTED) >= _PROJECTED_SIZE:
            _PROJECTED.clear()
        _PROJECTED[key] = found
    return found


def projected(h: Holdings, rounds_after: int, rounds: int) -> float:
    """Final score of ``h`` plus what it can still become in ``rounds_after`` rounds.

    Re-roll tokens are left out: callers value them linearly, because their
    ``⌊tokens / 2⌋`` would make every token alternately worth 0 and 1.
    """
    score, tiebreak, slots = _summary(h)
    unplaced = tiebreak
    value = score + 0.01 * tiebreak
    if rounds_after <= 0:
        return value
    value += FILL_VALUE * min(slots, FILLS_PER_ROUND * rounds_after)
    value += unplaced * min(0.5, 0.15 * rounds_after)
    growth = rounds_after / rounds
    value += growth * sum(SENATE_GROWTH[SENATE_CARDS[c].number] for c in h.senate)
    return value


def with_card(h: Holdings, kind: str, card: str) -> Holdings:
    """``h`` with one more province (``P``), patrician (``N``) or Senate card (``K``)."""
    if kind == "P":
        return Holdings(tuple(sorted((*h.provinces, card))), h.patricians, h.senate, h.fortuna, 0)
    if kind == "N":
        return Holdings(h.provinces, tuple(sorted((*h.patricians, card))), h.senate, h.fortuna, 0)
    return Holdings(h.provinces, h.patricians, tuple(sorted((*h.senate, card))), h.fortuna, 0)


@lru_cache(maxsize=1 << 16)
def card_values(
    h: Holdings, kind: str, cards: tuple[str, ...], rounds_after: int, rounds: int
) -> dict[str, float]:
    """What each of ``cards`` adds to :func:`projected` of ``h`` (``kind``: P, N or K).

    Cached: within a round the same question comes back at every decision, and
    each card's value is cached on its own, because the next player asks about
    the same cards less the one just taken. Callers must not modify the returned
    dict.
    """
    return {card: _card_value(h, kind, card, rounds_after, rounds) for card in dict.fromkeys(cards)}


@lru_cache(maxsize=1 << 15)
def card_values_of(
    provinces: tuple[str, ...],
    patricians: tuple[str, ...],
    senate: tuple[str, ...],
    fortuna: tuple[int, ...],
    kind: str,
    cards: tuple[str, ...],
    rounds_after: int,
    rounds: int,
) -> dict[str, float]:
    """:func:`card_values` of :func:`holdings` of these cards, cached by the tuples as given.

    Every evaluation choice of a playout asks it: keyed by plain tuples, a repeated
    question skips hashing a :class:`Holdings` (a plain Python class, hashed by
    Python code). Callers must not modify the returned dict.
    """
    h = holdings(provinces, patricians, senate, fortuna)
    return card_values(h, kind, cards, rounds_after, rounds)


@lru_cache(maxsize=1 << 16)
def _card_value(h: Holdings, kind: str, card: str, rounds_after: int, rounds: int) -> float:
    """What ``card`` adds to :func:`projected` of ``h`` (one entry of :func:`card_values`)."""
    base = projected(h, rounds_after, rounds)
    return projected(with_card(h, kind, card), rounds_after, rounds) - base
