"""Exactness of the scoring optimiser against a plain brute force.

The brute force below is written from RULES.md §5 alone and shares no code
with :mod:`alea.iacta.scoring` except the card tables: it tries every
assignment of every patrician to every place (or to no place), keeps the legal
ones, scores them, and for Senate XI tries every way of putting unplaced
patricians beside couples. It is slow, so the random holdings are small — but
they are drawn from a few neighbouring colours so that wild, free and border
provinces, couples and Senate cards keep colliding.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from alea.iacta import cards
from alea.iacta.scoring import (
    Holdings,
    best_arrangement,
    best_score,
    evaluate_arrangement,
    final_score,
)

COLOURS = cards.COLOURS
# Senate cards that depend on the arrangement come up more often than the rest.
SCORING_CARDS = ["II", "V", "VI", "VII", "VIII", "IX", "X", "XI"]
OTHER_CARDS = ["I", "III", "IV"]


# ---------------------------------------------------------------- brute force


def _place_points(card: str, group: list[str]) -> int:
    values = sum(cards.PATRICIANS[p].value for p in group)
    if card == "grey0":
        return values if group else -1
    if card == "XIII":
        return 1 + values if group else 0
    if card.startswith("XII-"):
        colours = {cards.PATRICIANS[p].colour for p in group}
        return 3 + values if len(colours) == 2 else values
    value = cards.PROVINCES[card].value
    return value + values if group else value - 1


def _fits(card: str, group: list[str], patrician: str) -> bool:
    info = cards.PATRICIANS[patrician]
    if any(cards.PATRICIANS[p].sex == info.sex for p in group):
        return False  # one man and one woman at most
    if card in ("grey0", "XIII"):
        return all(cards.PATRICIANS[p].colour == info.colour for p in group)
    if card.startswith("XII-"):
        return info.colour in card[4:].split("/")
    return cards.PROVINCES[card].colour == info.colour


def _score(
    h: Holdings, places: list[str], groups: list[list[str]], unplaced: list[str]
) -> tuple[int, int]:
    """Best (score, tiebreak) of one assignment, trying every XI extra choice."""
    placed = [p for g in groups for p in g]
    couples = [i for i, g in enumerate(groups) if len(g) == 2]
    total = sum(_place_points(c, g) for c, g in zip(places, groups, strict=True))
    place_colours: set[str] = set()
    for card, group in zip(places, groups, strict=True):
        if card in ("grey0", "XIII"):
            place_colours.add(cards.PATRICIANS[group[0]].colour if group else "grey")
        elif card.startswith("XII-"):
            place_colours.update(card[4:].split("/"))
        else:
            place_colours.add(cards.PROVINCES[card].colour)
    for card in h.senate:
        if card == "I":
            total += 1 + len(places) // 2
        elif card == "II":
            total += len(placed) // 2
        elif card == "III":
            total += 1 + len(h.senate)
        elif card == "IV":
            total += 1 + 2 * (len(h.fortuna) // 3)
        elif card == "V":
            total += 1 + len(couples)
        elif card == "VI":
            total += len({cards.PATRICIANS[p].colour for p in placed})
        elif card == "VII":
            total += len(place_colours)
        elif card == "VIII":
            total += sum(
                1
                for c, g in zip(places, groups, strict=True)
                if c in cards.PROVINCES and c != "grey0" and g
            )
        elif card == "IX":
            total += sum(cards.PATRICIANS[p].sex == "w" for p in placed)
        elif card == "X":
            total += sum(cards.PATRICIANS[p].sex == "m" for p in placed)
    total += sum(h.fortuna) + h.tokens // 2
    best = (-(10**9), 0)

    def extras(k: int, pool: list[str], gained: int) -> None:
        nonlocal best
        if k == len(couples):
            tb = sum(cards.PATRICIANS[p].value for p in pool)
            best = max(best, (total + gained, tb))
            return
        extras(k + 1, pool, gained)  # no extra beside this couple
        colours = {cards.PATRICIANS[p].colour for p in groups[couples[k]]}
        for i, p in enumerate(pool):
            if cards.PATRICIANS[p].colour in colours:
                extras(k + 1, pool[:i] + pool[i + 1 :], gained + cards.PATRICIANS[p].value)

    if "XI" in h.senate:
        extras(0, list(unplaced), 0)
    else:
        extras(len(couples), list(unplaced), 0)
    return best


def brute_force(h: Holdings) -> tuple[int, int]:
    """Max (score, tiebreak) over every legal arrangement."""
    places = list(h.provinces) + [s for s in h.senate if s == "XIII" or s.startswith("XII-")]
    groups: list[list[str]] = [[] for _ in places]
    unplaced: list[str] = []
    best = (-(10**9), 0)

    def go(i: int) -> None:
        nonlocal best
        if i == len(h.patricians):
            best = max(best, _score(h, places, groups, unplaced))
            return
        p = h.patricians[i]
        unplaced.append(p)
        go(i + 1)
        unplaced.pop()
        for k, card in enumerate(places):
            if _fits(card, groups[k], p):
                groups[k].append(p)
                go(i + 1)
                groups[k].pop()

    go(0)
    return best


# ------------------------------------------------------------ random holdings


def _assignments(h: Holdings) -> int:
    """How many assignments the brute force may visit (before capacity checks)."""
    places = list(h.provinces) + [s for s in h.senate if s == "XIII" or s.startswith("XII-")]
    count = 1
    for p in h.patricians:
        count *= 1 + sum(
            card in ("grey0", "XIII")
            or (card.startswith("XII-") and cards.PATRICIANS[p].colour in card[4:].split("/"))
            or (
                card in cards.PROVINCES
                and cards.PROVINCES[card].colour == cards.PATRICIANS[p].colour
            )
            for card in places
        )
    return count


def random_holdings(rng: random.Random, limit: int = 12_000) -> Holdings:
    """Small holdings the brute force can finish quickly (see :func:`_draw`)."""
    while True:
        h = _draw(rng)
        if _assignments(h) <= limit:
            return h


def _draw(rng: random.Random) -> Holdings:
    """Small holdings concentrated on 1-3 neighbouring colours (sometimes all six)."""
    if rng.random() < 0.1:
        window = list(COLOURS)
    else:
        start = rng.randrange(6)
        window = [COLOURS[(start + i) % 6] for i in range(rng.randint(1, 3))]
    provinces = [f"{c}{v}" for c in window for v in (1, 2, 3, 4)]
    patricians = [f"{c}{s}{v}" for c in window for s in "mw" for v in (1, 2, 3)]
    borders = [
        card
        for card, pair in zip(cards.BORDER_CARDS, cards.BORDER_PAIRS, strict=True)
        if pair[0] in window or pair[1] in window
    ]
    n_pat = rng.randint(0, 7)
    senate: list[str] = []
    senate += rng.sample(borders, rng.randint(0, min(3, len(borders))))
    if len(window) == 6 and rng.random() < 0.3:
        senate = list(cards.BORDER_CARDS)  # the whole ring: no place to cut it
        n_pat = min(n_pat, 5)
    senate += ["XIII"] * rng.choice((0, 0, 1, 1, 2))
    senate += rng.sample(SCORING_CARDS, rng.randint(0, 4))
    senate += rng.sample(OTHER_CARDS, rng.choice((0, 0, 1)))
    chosen_provinces = rng.sample(provinces, rng.randint(0, min(3, len(provinces))))
    if rng.random() < 0.4:
        chosen_provinces.append("grey0")
    n_places = len(chosen_provinces) + sum(s == "XIII" or s.startswith("XII-") for s in senate)
    if n_places >= 5:
        n_pat = min(n_pat, 6)
    rng.shuffle(senate)
    fortuna = [rng.choice((1, 2, 3)) for _ in range(rng.randint(0, 4))]
    return Holdings(
        provinces=tuple(chosen_provinces),
        patricians=tuple(rng.sample(patricians, min(n_pat, len(patricians)))),
        senate=tuple(senate),
        fortuna=tuple(fortuna),
        tokens=rng.randint(0, 5),
    )


def _cases(seed: int, n: int) -> Iterator[Holdings]:
    rng = random.Random(seed)
    for _ in range(n):
        yield random_holdings(rng)


@pytest.mark.parametrize("seed", range(20))
def test_optimiser_matches_brute_force(seed: int) -> None:
    for h in _cases(seed, 150):
        arrangement = best_arrangement(h)
        expected = brute_force(h)
        assert (arrangement.score, arrangement.tiebreak) == expected, h
        # The reported places really are an arrangement worth that much.
        replay = evaluate_arrangement(
            h, [(p.card, p.patricians, p.extra) for p in arrangement.places]
        )
        assert (replay.score, replay.tiebreak) == expected
        placed = sum(len(p.patricians) for p in arrangement.places)
        assert best_score(h) == (*expected, placed)
        # The engine's final scores: the same optimum, without holdings or back-pointers.
        assert final_score(h.provinces, h.patricians, h.senate, h.fortuna, h.tokens) == expected


def test_holdings_order_does_not_change_the_result() -> None:
    rng = random.Random(99)
    for h in _cases(1234, 200):
        shuffled = Holdings(
            tuple(rng.sample(h.provinces, len(h.provinces))),
            tuple(rng.sample(h.patricians, len(h.patricians))),
            tuple(rng.sample(h.senate, len(h.senate))),
            tuple(rng.sample(h.fortuna, len(h.fortuna))),
            h.tokens,
        )
        assert (
            best_arrangement(h).to_json()["places"]
            == best_arrangement(shuffled).to_json()["places"]
        )


def test_brute_force_sees_the_rules() -> None:
    """The reference itself gets a few hand-checked answers right."""
    # A two-colour couple in a border province: 3 + 2 + 3.
    h = Holdings(patricians=("redm2", "orangew3"), senate=("XII-red/orange",))
    assert brute_force(h) == (8, 0)
    # Same colour: no 3 bonus; the wild province then takes the other patrician.
    h = Holdings(provinces=("grey0",), patricians=("redm2", "redw3"), senate=("XII-red/orange",))
    assert brute_force(h) == (5, 0)
    # XI: the unplaced red man goes beside the red couple and leaves the tie-break.
    h = Holdings(provinces=("red1",), patricians=("redm2", "redw3", "redm1"), senate=("XI",))
    assert brute_force(h) == (1 + 5 + 1, 0)


# ----------------------------------------------- large holdings: local search


def _local_optimum(h: Holdings, rng: random.Random) -> tuple[int, int]:
    """A local optimum of random moves (one patrician to another place or out).

    On holdings far too large for the brute force this can only find a lower
    bound, so it checks the other direction: the optimiser is never beaten.
    """
    places = list(h.provinces) + [s for s in h.senate if s == "XIII" or s.startswith("XII-")]
    groups: list[list[str]] = [[] for _ in places]
    unplaced = list(h.patricians)
    rng.shuffle(unplaced)
    for p in list(unplaced):  # a random legal start
        spots = [k for k, card in enumerate(places) if _fits(card, groups[k], p)]
        if spots and rng.random() < 0.7:
            groups[rng.choice(spots)].append(p)
            unplaced.remove(p)
    current = _score(h, places, groups, unplaced)
    improved = True
    while improved:
        improved = False
        for p in list(h.patricians):
            home = next((k for k, g in enumerate(groups) if p in g), -1)
            (groups[home] if home >= 0 else unplaced).remove(p)
            options = [-1] + [k for k, card in enumerate(places) if _fits(card, groups[k], p)]
            best_k, best_value = home, (-(10**9), 0)
            for k in options:
                (groups[k] if k >= 0 else unplaced).append(p)
                value = _score(h, places, groups, unplaced)
                (groups[k] if k >= 0 else unplaced).remove(p)
                if value > best_value:
                    best_k, best_value = k, value
            (groups[best_k] if best_k >= 0 else unplaced).append(p)
            if best_value > current:
                current, improved = best_value, True
    return current


def test_optimiser_is_never_beaten_on_large_holdings() -> None:
    """Game-sized holdings (XI left out: its extras make the reference exponential)."""
    rng = random.Random(77)
    coloured = [p for p in cards.PROVINCES if p != "grey0"]
    for _ in range(15):
        flexible = rng.sample([*cards.BORDER_CARDS, "XIII", "XIII"], rng.randint(1, 4))
        senate = flexible + rng.sample(["II", "V", "VI", "VII", "VIII", "IX", "X"], 2)
        h = Holdings(
            provinces=("grey0", *rng.sample(coloured, rng.randint(4, 9))),
            patricians=tuple(rng.sample(list(cards.PATRICIANS), rng.randint(8, 14))),
            senate=tuple(senate),
        )
        a = best_arrangement(h)
        assert final_score(h.provinces, h.patricians, h.senate, h.fortuna, h.tokens) == (
            a.score,
            a.tiebreak,
        )
        for _ in range(3):
            assert _local_optimum(h, rng) <= (a.score, a.tiebreak), h
