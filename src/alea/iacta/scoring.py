"""End-game scoring (RULES.md §5): what a player holds, and the best arrangement.

At the end of the game each player places their patricians into their
provinces so as to score the most; the engine always finds that best
arrangement (it is not a decision anyone makes at the table)::

    >>> h = Holdings(provinces=("red4", "grey0"), patricians=("redm2", "redw3", "bluew1"),
    ...              senate=("V",), fortuna=(2, 3), tokens=5)
    >>> a = best_arrangement(h)
    >>> a.score, a.tiebreak
    (19, 0)
    >>> [(p.card, p.patricians, p.points) for p in a.places]
    [('red4', ('redm2', 'redw3'), 9), ('grey0', ('bluew1',), 1)]

The search itself lives in :mod:`alea.iacta.scoring_solver`; this module holds
the public values (:class:`Arrangement` and its parts; :class:`Holdings` and its
validation against the contents of the box live in :mod:`alea.iacta.holdings`
and are exported here too), and :func:`evaluate_arrangement`, which
scores any concrete arrangement from the rules text alone. The optimiser's
result is always re-scored by :func:`evaluate_arrangement`, so the numbers a
player sees come from the straightforward reading of the rules, and a
disagreement with the optimiser would fail loudly instead of misreporting.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, NamedTuple, TypeVar

from alea.iacta import cards
from alea.iacta.holdings import (
    Holdings,
    HoldingsError,
    check_box,
)
from alea.iacta.scoring_solver import (
    FLEX_COUPLE,
    FLEX_MAN,
    FLEX_WOMAN,
    SHIFT,
    CardCounts,
    Problem,
    Solution,
    solve,
    solve_value,
)

__all__ = [
    "Arrangement",
    "BestScore",
    "Breakdown",
    "Holdings",
    "HoldingsError",
    "Place",
    "SenatePoints",
    "Standing",
    "best_arrangement",
    "best_score",
    "check_box",
    "evaluate_arrangement",
    "final_score",
    "ranking",
]

_COLOUR_INDEX: Final = {colour: i for i, colour in enumerate(cards.COLOURS)}
_K = TypeVar("_K")


# ------------------------------------------------------------------ arrangement


@dataclass(frozen=True)
class Place:
    """One place of an arrangement and what it scores (RULES.md §5.1).

    ``kind`` is ``"province"``, ``"wild"``, ``"free"`` or ``"border"``;
    ``patricians`` has at most one man and one woman (man first); ``extra`` is
    the XI patrician beside the couple, if any (it scores under XI, not here).
    ``base`` is the card's own part of ``points`` (value, value − 1, −1, 0, 1
    or 3); ``points = base + values of patricians``.
    """

    card: str
    kind: str
    patricians: tuple[str, ...]
    extra: str | None
    base: int
    points: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict of every field."""
        return {
            "card": self.card,
            "kind": self.kind,
            "patricians": list(self.patricians),
            "extra": self.extra,
            "base": self.base,
            "points": self.points,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class SenatePoints:
    """What one Senate card scores, and why. XII/XIII give their place's ``base``."""

    card: str
    points: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict of every field."""
        return {"card": self.card, "points": self.points, "reason": self.reason}


@dataclass(frozen=True)
class Breakdown:
    """The final score split the way the rule book adds it up.

    ``province_cards`` is the card part of province cards and the wild
    province (the rule book's "A"); ``patricians`` the values of placed
    patricians ("B"); ``senate`` each Senate card ("C": XII and XIII give the
    card part of their place, XI the values of its extras); ``fortuna`` the
    tile values ("D"); ``tokens`` half the re-roll tokens, rounded down ("E").
    ``places`` repeats each place's points in :attr:`Arrangement.places` order.
    """

    places: tuple[tuple[str, int], ...]
    province_cards: int
    patricians: int
    senate: tuple[SenatePoints, ...]
    fortuna: int
    tokens: int

    @property
    def senate_total(self) -> int:
        """Sum of all Senate cards."""
        return sum(s.points for s in self.senate)

    @property
    def total(self) -> int:
        """The final score (RULES.md §5.3)."""
        return (
            self.province_cards + self.patricians + self.senate_total + self.fortuna + self.tokens
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict, totals included."""
        return {
            "places": [{"card": card, "points": points} for card, points in self.places],
            "province_cards": self.province_cards,
            "patricians": self.patricians,
            "senate": [s.to_json() for s in self.senate],
            "senate_total": self.senate_total,
            "fortuna": self.fortuna,
            "tokens": self.tokens,
            "total": self.total,
        }


@dataclass(frozen=True)
class Arrangement:
    """A scored arrangement: where every patrician goes, and what it all scores.

    ``score`` is the final score (RULES.md §5.3); ``tiebreak`` the total value
    of the unplaced patricians (XI extras are not unplaced).
    """

    holdings: Holdings
    score: int
    tiebreak: int
    places: tuple[Place, ...]
    unplaced: tuple[str, ...]
    breakdown: Breakdown
    warnings: tuple[str, ...] = field(default=())

    @property
    def extras(self) -> tuple[str, ...]:
        """The XI extras, in place order."""
        return tuple(p.extra for p in self.places if p.extra is not None)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict of the holdings, the places, the breakdown and the totals."""
        return {
            "score": self.score,
            "tiebreak": self.tiebreak,
            "places": [p.to_json() for p in self.places],
            "unplaced": list(self.unplaced),
            "breakdown": self.breakdown.to_json(),
            "holdings": self.holdings.to_json(),
            "warnings": list(self.warnings),
        }


# ------------------------------------------------------------------- evaluation


def _count(items: Iterable[_K]) -> dict[_K, int]:
    """How many times each item occurs: a plain dict (a ``Counter`` runs Python-level code
    on every call, which the compiled build pays for at every score)."""
    found: dict[_K, int] = {}
    for item in items:
        found[item] = found.get(item, 0) + 1
    return found


def _place_kind(card: str) -> str:
    if card == cards.WILD_PROVINCE:
        return "wild"
    if card == cards.FREE_PROVINCE:
        return "free"
    if card in cards.PROVINCES:
        return "province"
    if card in cards.SENATE_CARDS and cards.SENATE_CARDS[card].number == 12:
        return "border"
    raise ValueError(f"{card!r} is not a place")


def _names(patricians: Sequence[str]) -> str:
    return " + ".join(f"{p} ({cards.PATRICIANS[p].value})" for p in patricians)


def _values(patricians: Sequence[str]) -> str:
    return "+".join(str(cards.PATRICIANS[p].value) for p in patricians)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _score_place(card: str, patricians: Sequence[str]) -> tuple[int, str]:
    """Card part of a place's points and the reason, for a legal filling."""
    kind = _place_kind(card)
    who = "patricians " + _values(patricians)
    if kind == "province":
        value = cards.PROVINCES[card].value
        if not patricians:
            return value - 1, f"empty: value {value} - 1"
        return value, f"card {value} + {who}"
    if kind == "wild":
        if not patricians:
            return -1, "empty wild province: -1"
        return 0, f"wild 0 + {who}"
    if kind == "free":
        if not patricians:
            return 0, "empty free province: 0"
        return 1, f"free 1 + {who}"
    if not patricians:
        return 0, "empty border province: 0"
    colours = {cards.PATRICIANS[p].colour for p in patricians}
    if len(colours) == 2:
        return 3, f"one of each colour: 3 + {who}"
    return 0, f"not one of each colour: 0 + {who}"


def evaluate_arrangement(
    holdings: Holdings,
    places: Sequence[tuple[str, Sequence[str], str | None]],
) -> Arrangement:
    """Score one concrete arrangement straight from the rules text.

    ``places`` lists every place the player owns — each province card, each
    free (XIII) and border (XII) province — as ``(card, patricians, extra)``,
    where ``extra`` is the XI patrician beside a couple (or ``None``). Every
    held patrician not listed is unplaced. Raises :class:`ValueError` if the
    arrangement breaks a rule (a wrong colour, two men in one place, a place
    missing, an extra without a couple or without XI, ...).
    """
    place_cards = _count(card for card, _, _ in places)
    owned = _count(holdings.provinces)
    for s in holdings.senate:
        if cards.SENATE_CARDS[s].number in (12, 13):
            owned[s] = owned.get(s, 0) + 1
    if place_cards != owned:
        raise ValueError(f"places {sorted(place_cards)} do not match those owned {sorted(owned)}")
    held = _count(holdings.patricians)
    used: dict[str, int] = {}
    has_xi = "XI" in holdings.senate
    result: list[Place] = []
    placed: list[str] = []
    couples = 0
    extras_value = 0
    extras: list[str] = []
    occupied_cards: list[str] = []
    place_colours: set[str] = set()
    for card, group, extra in places:
        group = tuple(group)
        kind = _place_kind(card)
        sexes = [cards.PATRICIANS[p].sex for p in group]
        colours = [cards.PATRICIANS[p].colour for p in group]
        if sexes.count("m") > 1 or sexes.count("w") > 1:
            raise ValueError(f"{card}: a place holds at most one man and one woman")
        if kind == "province":
            allowed = {cards.PROVINCES[card].colour}
        elif kind == "border":
            allowed = set(cards.SENATE_CARDS[card].colours)
        else:
            allowed = set(colours[:1]) or set(cards.COLOURS)
        if kind in ("wild", "free") and len(set(colours)) > 1:
            raise ValueError(f"{card}: both patricians must be of one colour")
        if any(c not in allowed for c in colours):
            raise ValueError(f"{card}: {', '.join(group)} may not go there")
        if kind == "province":
            place_colours.add(cards.PROVINCES[card].colour)
            if group:
                occupied_cards.append(card)
        elif kind == "border":
            place_colours.update(cards.SENATE_CARDS[card].colours)
        else:
            place_colours.add(colours[0] if group else cards.GREY)
        is_couple = len(group) == 2
        couples += is_couple
        if extra is not None:
            if not has_xi:
                raise ValueError(f"{card}: an extra patrician needs Senate card XI")
            if not is_couple:
                raise ValueError(f"{card}: an XI extra goes only beside a couple")
            if cards.PATRICIANS[extra].colour not in colours:
                raise ValueError(f"{card}: the extra {extra} is not of the couple's colour")
            extras_value += cards.PATRICIANS[extra].value
            extras.append(extra)
        for p in (*group, *((extra,) if extra else ())):
            used[p] = used.get(p, 0) + 1
            if used[p] > held.get(p, 0):
                raise ValueError(f"{p} is not held, or used twice")
        placed.extend(group)
        base, reason = _score_place(card, group)
        points = base + sum(cards.PATRICIANS[p].value for p in group)
        if extra is not None:
            reason += f"; XI extra {extra} scores under XI"
        result.append(Place(card, kind, group, extra, base, points, reason))
    left = dict(used)
    unplaced_list = []
    for p in holdings.patricians:
        if left.get(p, 0):
            left[p] -= 1
        else:
            unplaced_list.append(p)
    unplaced = tuple(sorted(unplaced_list, key=_sort_key_patrician))
    placed_info = [cards.PATRICIANS[p] for p in placed]
    n_places = len(places)
    senate: list[SenatePoints] = []
    free_places = iter([p for p in result if p.kind == "free"])
    border_places = {p.card: p for p in result if p.kind == "border"}
    for card in sorted(holdings.senate, key=_sort_key_senate):
        number = cards.SENATE_CARDS[card].number
        if number == 1:
            points, why = 1 + n_places // 2, f"1 + {n_places} places owned // 2"
        elif number == 2:
            points, why = len(placed) // 2, f"{len(placed)} placed // 2"
        elif number == 3:
            n = len(holdings.senate)
            points, why = 1 + n, f"1 + {n} Senate cards"
        elif number == 4:
            n = len(holdings.fortuna)
            points, why = 1 + 2 * (n // 3), f"1 + 2 x ({n} Fortuna tiles // 3)"
        elif number == 5:
            points, why = 1 + couples, f"1 + {_plural(couples, 'couple')}"
        elif number == 6:
            found = sorted({i.colour for i in placed_info}, key=_COLOUR_INDEX.__getitem__)
            points, why = len(found), "colours placed: " + (", ".join(found) or "none")
        elif number == 7:
            ordered = sorted(place_colours, key=lambda c: _COLOUR_INDEX.get(c, 6))
            points, why = len(ordered), "colours of places: " + (", ".join(ordered) or "none")
        elif number == 8:
            points = len(occupied_cards)
            why = "province cards with a patrician: " + (", ".join(occupied_cards) or "none")
        elif number == 9:
            points = sum(i.sex == "w" for i in placed_info)
            why = f"{_plural(points, 'woman')} placed".replace("womans", "women")
        elif number == 10:
            points = sum(i.sex == "m" for i in placed_info)
            why = f"{_plural(points, 'man')} placed".replace("mans", "men")
        elif number == 11:
            points = extras_value
            why = (
                "beside couples: " + _names(extras)
                if extras
                else "no unplaced patrician of a couple's colour"
                if couples
                else "no couple"
            )
        elif number == 12:
            place = border_places[card]
            points, why = place.base, place.reason.split(" + patricians")[0]
        else:
            place = next(free_places)
            points, why = place.base, place.reason.split(" + patricians")[0]
        senate.append(SenatePoints(card, points, why))
    breakdown = Breakdown(
        places=tuple((p.card, p.points) for p in result),
        province_cards=sum(p.base for p in result if p.kind in ("province", "wild")),
        patricians=sum(i.value for i in placed_info),
        senate=tuple(senate),
        fortuna=sum(holdings.fortuna),
        tokens=holdings.tokens // 2,
    )
    tiebreak = sum(cards.PATRICIANS[p].value for p in unplaced)
    return Arrangement(holdings, breakdown.total, tiebreak, tuple(result), unplaced, breakdown)


# ---------------------------------------------------------------- optimisation


def _sort_key_province(card: str) -> tuple[int, int]:
    info = cards.PROVINCES[card]
    return (_COLOUR_INDEX.get(info.colour, 6), info.value)


def _sort_key_senate(card: str) -> tuple[int, int]:
    info = cards.SENATE_CARDS[card]
    colour = _COLOUR_INDEX[info.colours[0]] if info.colours else -1
    return (info.number, colour)


def _sort_key_patrician(card: str) -> tuple[int, str, int]:
    info = cards.PATRICIANS[card]
    return (_COLOUR_INDEX[info.colour], info.sex, info.value)


def _senate_numbers(senate: Sequence[str]) -> list[int]:
    """How many Senate cards of each number 0..13 (index = number) ``senate`` holds."""
    n = [0] * 14
    for s in senate:
        n[cards.SENATE_CARDS[s].number] += 1
    return n


#: Per patrician: (is a man, ring colour index, value); per province card: its ring colour
#: index, or -1 for the grey wild province. Read once per card by :func:`_problem`, which
#: every score of every playout runs, instead of three attribute reads and a colour look-up.
_PATRICIAN_SLOT: Final = {
    name: (info.sex == "m", _COLOUR_INDEX[info.colour], info.value)
    for name, info in cards.PATRICIANS.items()
}
_PROVINCE_COLOUR: Final = {
    name: -1 if info.colour == cards.GREY else _COLOUR_INDEX[info.colour]
    for name, info in cards.PROVINCES.items()
}
_PROVINCE_VALUE: Final = {name: info.value for name, info in cards.PROVINCES.items()}


def _problem(holdings: Holdings) -> Problem:
    return _problem_of(holdings.provinces, holdings.patricians, holdings.senate)


def _problem_of(
    provinces_held: Sequence[str], patricians: Sequence[str], senate_held: Sequence[str]
) -> Problem:
    """:func:`_problem` from the cards themselves (the engine's final scores build no
    :class:`Holdings`: it is a plain Python class, slow to make from compiled code)."""
    men: list[list[int]] = [[] for _ in range(6)]
    women: list[list[int]] = [[] for _ in range(6)]
    for p in patricians:
        is_man, colour_index, value = _PATRICIAN_SLOT[p]
        (men if is_man else women)[colour_index].append(value)
    provinces = [0] * 6
    flex = 0
    for card in provinces_held:
        colour_index = _PROVINCE_COLOUR[card]
        if colour_index < 0:
            flex += 1
        else:
            provinces[colour_index] += 1
    borders = [False] * 6
    n = _senate_numbers(senate_held)
    for s in senate_held:
        senate = cards.SENATE_CARDS[s]
        if senate.number == 12:
            borders[cards.BORDER_CARDS.index(s)] = True
    flex += n[13]
    covered = tuple(provinces[c] > 0 or borders[c] or borders[(c - 1) % 6] for c in range(6))
    counts = CardCounts(n[2], n[5], n[6], n[7], n[8], n[9], n[10], n[11] > 0)
    return Problem(
        tuple(tuple(sorted(v)) for v in men),
        tuple(tuple(sorted(v)) for v in women),
        tuple(provinces),
        covered,
        tuple(borders),
        flex,
        counts,
    )


def _constant_score(holdings: Holdings, problem: Problem) -> int:
    """Every point that does not depend on the arrangement (or is its baseline)."""
    return _constant_score_of(
        holdings.provinces, holdings.senate, holdings.fortuna, holdings.tokens, problem
    )


def _constant_score_of(
    provinces: Sequence[str],
    senate: Sequence[str],
    fortuna: Sequence[int],
    tokens: int,
    problem: Problem,
) -> int:
    """:func:`_constant_score` from the cards themselves (see :func:`_problem_of`)."""
    score = sum(fortuna) + tokens // 2
    for card in provinces:
        score += _PROVINCE_VALUE[card] - 1  # empty baseline; occupied adds 1
    n = _senate_numbers(senate)
    n_places = len(provinces) + n[12] + n[13]
    score += n[1] * (1 + n_places // 2)
    score += n[3] * (1 + len(senate))
    score += n[4] * (1 + 2 * (len(fortuna) // 3))
    score += n[5]  # V: 1 + couples (the solver counts the couples)
    score += n[7] * sum(problem.covered)
    # Empty baselines: the wild province -1 (above), free and border provinces 0.
    return score


def best_arrangement(holdings: Holdings) -> Arrangement:
    """The arrangement with the highest final score, then the highest tie-break.

    RULES.md §5.3: maximise the final score; among equal scores maximise the
    total value of the unplaced patricians. Among arrangements equal on both,
    the choice is deterministic and independent of the order of the holdings.
    Raises :class:`HoldingsError` for holdings the box cannot produce.
    """
    warnings = holdings.validate()
    problem = _problem(holdings)
    solution = solve(problem)
    score_part, tiebreak = divmod(solution.value, SHIFT)
    score = _constant_score(holdings, problem) + score_part
    places = _build_places(holdings, problem, solution)
    arrangement = evaluate_arrangement(holdings, places)
    if (arrangement.score, arrangement.tiebreak) != (score, tiebreak):
        raise AssertionError(
            f"scoring optimiser disagrees with the rules evaluation for {holdings}: "
            f"{(score, tiebreak)} != {(arrangement.score, arrangement.tiebreak)}"
        )
    if warnings:
        arrangement = replace(arrangement, warnings=tuple(warnings))
    return arrangement


class BestScore(NamedTuple):
    """The optimum's numbers only (see :func:`best_score`)."""

    score: int
    tiebreak: int
    placed: int  # patricians placed in places (XI extras not included)


def best_score(holdings: Holdings) -> BestScore:
    """Score and tie-break of :func:`best_arrangement`, without the arrangement.

    For searches that ask about thousands of holdings they built themselves:
    it skips validation, building the places and re-scoring them, so it is
    several times faster, and the holdings must be legal (unchecked).
    """
    problem = _problem(holdings)
    solution = solve(problem)
    score_part, tiebreak = divmod(solution.value, SHIFT)
    placed = sum(d.men_placed + d.women_placed for d in solution.details)
    return BestScore(_constant_score(holdings, problem) + score_part, tiebreak, placed)


def final_score(
    provinces: Sequence[str],
    patricians: Sequence[str],
    senate: Sequence[str],
    fortuna: Sequence[int],
    tokens: int,
) -> tuple[int, int]:
    """``(score, tiebreak)`` of :func:`best_arrangement` for these cards, and nothing else.

    The engine's final scores (:meth:`alea.iacta.State.returns`, ``winners``), which every
    random playout asks for: no :class:`Holdings` is built, and the solver's walk keeps no
    back-pointers (:func:`~alea.iacta.scoring_solver.solve_value`), since only the optimum's
    value is wanted. The cards must be a real player's (unchecked).
    """
    problem = _problem_of(provinces, patricians, senate)
    score_part, tiebreak = divmod(solve_value(problem), SHIFT)
    return _constant_score_of(provinces, senate, fortuna, tokens, problem) + score_part, tiebreak


def _build_places(
    holdings: Holdings, problem: Problem, solution: Solution
) -> list[tuple[str, tuple[str, ...], str | None]]:
    """Turn the solver's counts into concrete places, deterministically."""
    # Per colour: placed men/women (highest first) and unplaced (lowest).
    by_colour: list[dict[str, list[str]]] = [{"m": [], "w": []} for _ in range(6)]
    for p in sorted(set(holdings.patricians), key=_sort_key_patrician):
        info = cards.PATRICIANS[p]
        by_colour[_COLOUR_INDEX[info.colour]][info.sex].append(p)  # ascending value
    placed: list[dict[str, list[str]]] = []
    unplaced: list[list[str]] = []
    for colour in range(6):
        detail = solution.details[colour]
        men = by_colour[colour]["m"]
        women = by_colour[colour]["w"]
        n_men_out = len(men) - detail.men_placed
        n_women_out = len(women) - detail.women_placed
        placed.append({"m": men[n_men_out:][::-1], "w": women[n_women_out:][::-1]})
        unplaced.append(men[:n_men_out] + women[:n_women_out])

    # Flexible places take their patricians first (the lowest of those placed),
    # leaving the highest for the province cards.
    def take(colour: int, sex: str) -> str:
        return placed[colour][sex].pop()

    places: list[tuple[str, list[str], int]] = []  # card, patricians, extra colour
    couples_by_colour: list[list[int]] = [[] for _ in range(6)]
    flex_cards = [c for c in holdings.provinces if c == cards.WILD_PROVINCE]
    flex_cards += [s for s in holdings.senate if s == cards.FREE_PROVINCE]
    flex_fill: list[tuple[str, list[str], int]] = []
    for (colour, kind), card in zip(solution.flex, flex_cards, strict=False):
        if kind == FLEX_MAN:
            group = [take(colour, "m")]
        elif kind == FLEX_WOMAN:
            group = [take(colour, "w")]
        else:
            assert kind == FLEX_COUPLE
            group = [take(colour, "m"), take(colour, "w")]
        flex_fill.append((card, group, colour))
    for card in flex_cards[len(solution.flex) :]:
        flex_fill.append((card, [], -1))
    border_fill: list[tuple[str, list[str], int]] = []
    for index, option in solution.borders:
        pair = (index, (index + 1) % 6)
        group = [take(pair[side], sex) for side, sex in option.slots]
        group.sort(key=lambda p: cards.PATRICIANS[p].sex)  # man first
        if len(group) == 2 and option.extra_side >= 0:
            extra_colour = pair[option.extra_side]  # a two-colour couple: as chosen
        elif len(group) == 2 and option.slots[0][0] == option.slots[1][0]:
            extra_colour = pair[option.slots[0][0]]  # a couple of one colour
        else:
            extra_colour = -1  # no couple, or a two-colour couple without XI
        border_fill.append((cards.BORDER_CARDS[index], group, extra_colour))
    province_fill: list[tuple[str, list[str], int]] = []
    coloured = sorted(
        (c for c in holdings.provinces if c != cards.WILD_PROVINCE), key=_sort_key_province
    )
    for colour in range(6):
        detail = solution.details[colour]
        mine = [c for c in coloured if _COLOUR_INDEX[cards.PROVINCES[c].colour] == colour]
        mine.sort(key=lambda c: -cards.PROVINCES[c].value)  # highest first get patricians
        men = placed[colour]["m"]  # what is left is for province cards, highest first
        women = placed[colour]["w"]
        couples = detail.couples_in_provinces
        groups: list[list[str]] = [[men[i], women[i]] for i in range(couples)]
        groups += [[m] for m in men[couples:]]
        groups += [[w] for w in women[couples:]]
        for i, card in enumerate(mine):
            group = groups[i] if i < len(groups) else []
            province_fill.append((card, group, colour if len(group) == 2 else -1))
    province_fill.sort(key=lambda item: _sort_key_province(item[0]))
    places = province_fill + flex_fill + border_fill
    for i, (_, group, extra_colour) in enumerate(places):
        if len(group) == 2 and extra_colour >= 0:
            couples_by_colour[extra_colour].append(i)
    extras: dict[int, str] = {}
    if problem.counts.xi:
        for colour in range(6):
            pool = sorted(unplaced[colour], key=lambda p: -cards.PATRICIANS[p].value)
            for i, p in zip(couples_by_colour[colour], pool, strict=False):
                extras[i] = p
    return [(card, tuple(group), extras.get(i)) for i, (card, group, _) in enumerate(places)]


# --------------------------------------------------------------------- ranking


class Standing(NamedTuple):
    """One player's place in the final ranking (RULES.md §5.3)."""

    rank: int
    name: str
    arrangement: Arrangement
    shared: bool  # tied on score and tie-break with another player

    def to_json(self) -> dict[str, Any]:
        """The standing as the scorers report it (``alea score --json``, ``POST /api/score``)."""
        return {
            "rank": self.rank,
            "name": self.name,
            "score": self.arrangement.score,
            "tiebreak": self.arrangement.tiebreak,
            "shared": self.shared,
        }


def ranking(results: Mapping[str, Arrangement]) -> list[Standing]:
    """Players ordered by score, then by unplaced patricians' value (RULES.md §5.3).

    Players equal on both share a rank (and, at rank 1, the victory); the next
    rank skips accordingly (1, 1, 3). Equal players keep their input order.
    """
    keyed = sorted(
        enumerate(results.items()),
        key=lambda item: (-item[1][1].score, -item[1][1].tiebreak, item[0]),
    )
    keys = [(a.score, a.tiebreak) for _, (_, a) in keyed]
    standings = []
    for position, (_, (name, arrangement)) in enumerate(keyed):
        key = keys[position]
        rank = keys.index(key) + 1
        shared = keys.count(key) > 1
        standings.append(Standing(rank, name, arrangement, shared))
    return standings
