"""The exact end-game optimiser behind :func:`alea.iacta.scoring.best_arrangement`.

Why this shape
--------------
Most of RULES.md §5 decomposes by colour: a province card only takes its own
colour, and VI, VIII, IX, X and the XI extras are all sums of per-colour terms.
Only four things tie the colours together:

* the *flexible places*: the wild province and free provinces (each takes a
  man and/or a woman of any one colour) and border provinces (each joins two
  neighbouring colours of the ring);
* Senate II, which rounds the total number of placed patricians down to an
  even number (handled by carrying the parity of that total);
* Senate VII, which counts the colour of an occupied wild or free province and
  *grey* for an empty one;
* an XI extra beside a two-colour couple, which may come from either colour.

Wild and free provinces score exactly alike relative to being empty (+1 plus
the patricians' values) and count alike for every Senate card, so they are
interchangeable *flex* places: only how many go to each colour, and whether
each gets a man, a woman or a couple, matters.

So the solver is a dynamic programme that walks the colour ring once. Its state
between colour ``c`` and ``c + 1`` is what the border province ``c/c+1`` (if
held) demands of colour ``c + 1``, how many flex places are already used, and
the parity of the number of patricians placed so far. Each colour is then an
independent tiny problem (:func:`colour_best`) asked "with ``a`` men and ``b``
women of yours demanded by flexible places, and ``x`` couples elsewhere that
may take an XI extra of your colour, what is your best contribution?", which
is solved exactly by enumerating counts. When all six border provinces are
held the ring has no place to cut, so the option of the last border is fixed
up front for each of its (at most 13) options.

Inside one colour the *which* of a choice never matters, only the *how many*:
with the number of men and women placed fixed, the patricians left unplaced
are best taken as the lowest of each sex (XI extras are then the highest of
those), and the score then determines the tie-break exactly (placed values
plus XI extras plus the unplaced rest always add up to the colour's total). So
each count tuple has one value, and the enumeration is exact.

Scores and tie-breaks are packed in one integer ``score * 256 + tiebreak``
(the tie-break never exceeds 72), which orders exactly like the pair and adds
componentwise, so the whole search compares plain integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Final, NamedTuple

#: Packing factor: a value is ``score * SHIFT + tiebreak``.
SHIFT: Final = 256
#: Value of an infeasible choice (far below any real packed value).
NEG: Final = -(1 << 40)

# A demand on one colour is packed as ``a + 8 * b + 64 * x``: ``a`` men and
# ``b`` women that flexible places need, ``x`` couples that may take an XI
# extra of this colour. Each field stays below its base (at most 2 borders and
# 3 flex places touch one colour), so packed demands add like vectors.
_B: Final = 8
_X: Final = 64

#: Flex place contents, as the (men, women, couple) they ask of their colour.
FLEX_MAN: Final = 0
FLEX_WOMAN: Final = 1
FLEX_COUPLE: Final = 2


class CardCounts(NamedTuple):
    """How many of each arrangement-dependent Senate card a player holds."""

    ii: int
    v: int
    vi: int
    vii: int
    viii: int
    ix: int
    x: int
    xi: bool


class ColourDetail(NamedTuple):
    """The counts that realise one colour's best value (for rebuilding places)."""

    men_placed: int
    women_placed: int
    couples_in_provinces: int


class BorderOption(NamedTuple):
    """One way to fill a border province ``left/right`` (left = ring index)."""

    left: int  # packed demand on the left colour
    right: int  # packed demand on the right colour
    points: int  # card points beyond the patricians' values, incl. Senate V
    slots: tuple[tuple[int, str], ...]  # (0 = left / 1 = right, "m" | "w")
    extra_side: int  # side giving the XI extra of a two-colour couple, or -1


#: Feasible choices of one colour at one demand: ``(j, rho, value, kinds)`` for
#: ``j`` flex places of kinds ``kinds`` and ``rho`` the parity placed; by ``j``.
Entries = tuple[tuple[int, int, int, tuple[int, ...]], ...]
#: DP state: (demand on this colour from the previous border, flex used, parity), packed
#: in one int by :func:`_state_key` so that the walk's dicts hash ints, not tuples.
State = int
#: One :func:`colour_best` answer: ``((even, detail), (odd, detail))``.
ColourAnswer = tuple[tuple[int, int], tuple[int, int]]
#: :func:`colour_best`'s answers for one colour's holdings, by packed demand.
ColourTable = dict[int, ColourAnswer]
#: A back-pointer of the walk: the state before, the border option chosen, the demand on
#: this colour from borders (before its flex places), the parity of this colour's
#: patricians placed, and the FLEX_* kinds of the flex places given to it. A plain tuple:
#: building a NamedTuple for every improvement cost more than the search around it.
StepTuple = tuple[State, BorderOption, int, int, tuple[int, ...]]


def _state_key(incoming: int, used: int, parity: int) -> int:
    """A walk state as one int: a border's demand is below 128, flex places below 128."""
    return incoming << 8 | used << 1 | parity


class Problem(NamedTuple):
    """The holdings reduced to what the optimiser needs (all per ring colour)."""

    men: tuple[tuple[int, ...], ...]  # per colour, values ascending
    women: tuple[tuple[int, ...], ...]
    provinces: tuple[int, ...]  # per colour, number of coloured province cards
    covered: tuple[bool, ...]  # colour already counted by VII (card or border)
    borders: tuple[bool, ...]  # border i joins colour i and i + 1
    flex: int  # wild province + free provinces
    counts: CardCounts


class Solution(NamedTuple):
    """The optimum found, as choices the caller turns into concrete places."""

    value: int  # packed (score, tiebreak) of the variable part only
    details: tuple[ColourDetail, ...]  # per colour
    flex: tuple[tuple[int, int], ...]  # (colour, FLEX_*) per occupied flex place
    borders: tuple[tuple[int, BorderOption], ...]  # (border index, chosen option)


def _pack_detail(men_placed: int, women_placed: int, couples: int) -> int:
    """A :class:`ColourDetail` as one int (each count is below 256), for the memo."""
    return men_placed | women_placed << 8 | couples << 16


def _unpack_detail(packed: int) -> ColourDetail | None:
    """The :class:`ColourDetail` :func:`_pack_detail` packed (None for -1: infeasible)."""
    if packed < 0:
        return None
    return ColourDetail(packed & 255, packed >> 8 & 255, packed >> 16)


def _pack(a: int, b: int, x: int) -> int:
    return a + _B * b + _X * x


def _kind_demand(kind: int, xi: bool) -> int:
    """What one flex place of ``kind`` demands of its colour."""
    if kind == FLEX_MAN:
        return _pack(1, 0, 0)
    if kind == FLEX_WOMAN:
        return _pack(0, 1, 0)
    return _pack(1, 1, 1 if xi else 0)


@lru_cache(maxsize=64)
def border_options(counts: CardCounts) -> tuple[BorderOption, ...]:
    """Every distinct way to fill one border province (RULES.md §5.1).

    A couple of two colours scores 3 and may take its XI extra from either
    colour, which is why it appears once per side when XI is held.
    """
    xi = 1 if counts.xi else 0
    couple_v = counts.v
    options = [
        BorderOption(0, 0, 0, (), -1),
        BorderOption(_pack(1, 0, 0), 0, 0, ((0, "m"),), -1),
        BorderOption(_pack(0, 1, 0), 0, 0, ((0, "w"),), -1),
        BorderOption(0, _pack(1, 0, 0), 0, ((1, "m"),), -1),
        BorderOption(0, _pack(0, 1, 0), 0, ((1, "w"),), -1),
        BorderOption(_pack(1, 1, xi), 0, couple_v, ((0, "m"), (0, "w")), -1),
        BorderOption(0, _pack(1, 1, xi), couple_v, ((1, "m"), (1, "w")), -1),
    ]
    for slots in (((0, "m"), (1, "w")), ((0, "w"), (1, "m"))):
        left_man = slots[0][1] == "m"
        left = _pack(1, 0, 0) if left_man else _pack(0, 1, 0)
        right = _pack(0, 1, 0) if left_man else _pack(1, 0, 0)
        if xi:
            options.append(BorderOption(left + _X, right, 3 + couple_v, slots, 0))
            options.append(BorderOption(left, right + _X, 3 + couple_v, slots, 1))
        else:
            options.append(BorderOption(left, right, 3 + couple_v, slots, -1))
    return tuple(options)


class ColourMemo:
    """Everything memoised for one colour's holdings ``(men, women, provinces, counts)``.

    ``answers`` holds :func:`colour_best`'s answers by packed demand (the
    :data:`ColourTable`); ``entries`` holds the walk's :func:`_entries` by
    :func:`_entries_key` (demand, flex places held, whether VII already counts the
    colour), which used to be rebuilt by every search. Both hold ints and tuples of ints
    only, so the garbage collector untracks them.
    """

    __slots__ = ("answers", "entries")

    def __init__(self) -> None:
        self.answers: ColourTable = {}
        self.entries: dict[int, Entries] = {}


#: :func:`colour_best`'s memo: one :class:`ColourMemo` per colour's holdings ``(men, women,
#: provinces, counts)``. Two levels, so that a search hashes the holdings once per colour,
#: then looks each demand up by a small int (``functools.lru_cache`` hashed the whole
#: argument tuple on every call). It starts afresh when it holds ``_MEMO_LIMIT`` holdings.
_MEMO: dict[tuple[tuple[int, ...], tuple[int, ...], int, CardCounts], ColourMemo] = {}
_MEMO_LIMIT: Final = 1 << 14


def clear_memo() -> None:
    """Forget every memoised :func:`colour_best` answer (for cold-start measurements)."""
    _MEMO.clear()


def colour_memo(
    men: tuple[int, ...], women: tuple[int, ...], provinces: int, counts: CardCounts
) -> ColourMemo:
    """The :class:`ColourMemo` of one colour's holdings (see ``_MEMO``)."""
    key = (men, women, provinces, counts)
    memo = _MEMO.get(key)
    if memo is None:
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        memo = ColourMemo()
        _MEMO[key] = memo
    return memo


def colour_table(
    men: tuple[int, ...], women: tuple[int, ...], provinces: int, counts: CardCounts
) -> ColourTable:
    """The memo of :func:`colour_best` answers for one colour's holdings (see ``_MEMO``)."""
    return colour_memo(men, women, provinces, counts).answers


def _entries_key(demand: int, flex: int, covered: bool) -> int:
    """An :func:`_entries` memo key: a demand is below 512, flex places below 8."""
    return demand + 512 * flex + (4096 if covered else 0)


def colour_best(
    men: tuple[int, ...],
    women: tuple[int, ...],
    provinces: int,
    counts: CardCounts,
    demand: int,
) -> ColourAnswer:
    """:func:`_colour_best`, memoised in :data:`_MEMO`."""
    table = colour_table(men, women, provinces, counts)
    found = table.get(demand)
    if found is None:
        found = _colour_best(men, women, provinces, counts, demand)
        table[demand] = found
    return found


def _colour_best(
    men: tuple[int, ...],
    women: tuple[int, ...],
    provinces: int,
    counts: CardCounts,
    demand: int,
) -> ColourAnswer:
    """Best packed value of one colour, for an even and an odd number placed.

    ``demand`` packs ``a`` men and ``b`` women that flexible places require of
    this colour (they must be supplied) and ``x`` couples outside the province
    cards that may take an XI extra of this colour. The value covers: every
    value of the colour's patricians that scores (placed or XI extra), +1 per
    occupied province card (the difference to ``value - 1``), Senate V for
    couples *in province cards*, VI, VIII, IX, X, ``II * (placed // 2)``, and
    the tie-break (unplaced, non-extra values). Returns ``((even, detail),
    (odd, detail))``, with ``NEG`` (and detail -1) where no arrangement exists;
    a detail is the :class:`ColourDetail` packed in one int (:func:`_pack_detail`).

    The answer holds ints only, so once the garbage collector has seen it, it
    leaves the cache's tens of thousands of answers out of its passes (a
    ``ColourDetail``, a tuple subclass, would keep each answer tracked for ever).
    """
    a = demand % _B
    b = (demand // _B) % _B
    x = demand // _X
    n_men = len(men)
    n_women = len(women)
    best = [NEG, NEG]
    detail = [-1, -1]
    if a > n_men or b > n_women:
        return (NEG, -1), (NEG, -1)
    total = sum(men) + sum(women)
    per_occupied = 1 + counts.viii
    # The counts as locals: the loops below read them for every combination.
    x_card, ix_card, vi_card, ii_card, v_card, xi_card = (
        counts.x,
        counts.ix,
        counts.vi,
        counts.ii,
        counts.v,
        counts.xi,
    )
    # The counts that realise each parity's best, as plain ints (a ColourDetail is built
    # only for the winners, not for every improvement).
    found = [(0, 0, 0), (0, 0, 0)]
    for men_placed in range(a, n_men + 1):
        in_provinces_m = men_placed - a
        if in_provinces_m > provinces:
            break
        for women_placed in range(b, n_women + 1):
            in_provinces_w = women_placed - b
            if in_provinces_w > provinces:
                break
            unplaced = sorted(men[: n_men - men_placed] + women[: n_women - women_placed])
            left = len(unplaced)
            prefix = [0]  # prefix[k]: total of the k lowest unplaced
            running = 0
            for v in unplaced:
                running += v
                prefix.append(running)
            placed = men_placed + women_placed
            parity = placed & 1
            base = (
                total
                + x_card * men_placed
                + ix_card * women_placed
                + (vi_card if placed else 0)
                + ii_card * (placed // 2)
            )
            lowest = max(0, in_provinces_m + in_provinces_w - provinces)
            for couples in range(lowest, min(in_provinces_m, in_provinces_w) + 1):
                occupied = in_provinces_m + in_provinces_w - couples
                extras = min(x + couples, left) if xi_card else 0
                tiebreak = prefix[left - extras]
                score = base - tiebreak + occupied * per_occupied + couples * v_card
                value = score * SHIFT + tiebreak
                if value > best[parity]:
                    best[parity] = value
                    found[parity] = (men_placed, women_placed, couples)
    for parity in (0, 1):
        if best[parity] != NEG:
            men_placed, women_placed, couples = found[parity]
            detail[parity] = _pack_detail(men_placed, women_placed, couples)
    return (best[0], detail[0]), (best[1], detail[1])


@lru_cache(maxsize=64)
def _flex_choices(
    flex: int, counts: CardCounts
) -> tuple[tuple[tuple[int, int, tuple[int, ...]], ...], ...]:
    """Per number ``j`` of flex places given to one colour: (demand, points, kinds)."""
    out: list[tuple[tuple[int, int, tuple[int, ...]], ...]] = []
    for j in range(flex + 1):
        row = []
        for kinds in combinations_with_replacement((FLEX_COUPLE, FLEX_MAN, FLEX_WOMAN), j):
            demand = sum(_kind_demand(kind, counts.xi) for kind in kinds)
            points = j + kinds.count(FLEX_COUPLE) * counts.v
            row.append((demand, points, kinds))
        out.append(tuple(row))
    return tuple(out)


def _feasible(options: Sequence[BorderOption], problem: Problem, border: int) -> list[BorderOption]:
    """The options of border ``border`` its two colours can actually supply."""
    left, right = border, (border + 1) % 6
    out = []
    for option in options:
        if (
            option.left % _B <= len(problem.men[left])
            and (option.left // _B) % _B <= len(problem.women[left])
            and option.right % _B <= len(problem.men[right])
            and (option.right // _B) % _B <= len(problem.women[right])
        ):
            out.append(option)
    return out


def _options(problem: Problem) -> list[list[BorderOption]]:
    """Per border: the options its two colours can supply (just "empty" if not held)."""
    borders = problem.borders
    all_options = border_options(problem.counts)
    return [
        _feasible(all_options, problem, i) if borders[i] else [all_options[0]] for i in range(6)
    ]


def _cut(options: list[list[BorderOption]]) -> int:
    """With all six borders held, where to cut the ring: at the border whose options make
    the fewest distinct demands of the next colour."""
    return min(range(6), key=lambda i: len({o.right for o in options[i]}))


def _closing_groups(options: list[BorderOption]) -> list[list[BorderOption]]:
    """A cut border's options by the demand they make of the first colour: fillings that
    demand the same share one walk (they only differ at the last colour)."""
    groups: dict[int, list[BorderOption]] = {}
    for option in options:
        groups.setdefault(option.right, []).append(option)
    return list(groups.values())


def solve(problem: Problem) -> Solution:
    """The optimal choices for ``problem`` (see the module docstring)."""
    borders = problem.borders
    options = _options(problem)
    if all(borders):
        # No border-free cut in the ring: walk the chain once per demand of the cut.
        cut = _cut(options)
        best: Solution | None = None
        for group in _closing_groups(options[cut]):
            candidate = _solve_chain(problem, (cut + 1) % 6, group, options)
            if candidate is not None and (best is None or candidate.value > best.value):
                best = candidate
        assert best is not None  # the empty option is always feasible
        return best
    start = next(i for i in range(6) if not borders[(i - 1) % 6])
    result = _solve_chain(problem, start, [options[(start - 1) % 6][0]], options)
    assert result is not None
    return result


def solve_value(problem: Problem) -> int:
    """``solve(problem).value`` alone: the same walk, without back-pointers or rebuilding.

    The engine's final scores need only the optimum's value; keeping no back-pointers
    saves a tuple and a dict entry per improvement, and the choices are never rebuilt.
    """
    borders = problem.borders
    options = _options(problem)
    if all(borders):
        cut = _cut(options)
        best = NEG
        for group in _closing_groups(options[cut]):
            states = _walk(problem, (cut + 1) % 6, group, options, None)
            if states:
                value = _best_end(problem, states)[1]
                if value > best:
                    best = value
        return best
    start = next(i for i in range(6) if not borders[(i - 1) % 6])
    return _best_end(problem, _walk(problem, start, [options[(start - 1) % 6][0]], options, None))[
        1
    ]


def _solve_chain(
    problem: Problem,
    start: int,
    closing: Sequence[BorderOption],
    options: list[list[BorderOption]],
) -> Solution | None:
    """Walk the ring from ``start``; one of ``closing`` fills border ``start - 1``.

    Every option in ``closing`` makes the same demand of colour ``start``.
    """
    history: list[dict[State, StepTuple]] = []
    states = _walk(problem, start, closing, options, history)
    if not states:
        return None
    best_key, best_value = _best_end(problem, states)
    return _rebuild(problem, start, history, best_key, best_value)


def _best_end(problem: Problem, states: dict[State, int]) -> tuple[State, int]:
    """The best final state of a walk and its value (VII counts grey for an empty flex)."""
    flex_total = problem.flex
    vii = problem.counts.vii * SHIFT
    best_key = -1
    best_value = NEG
    for key, value in states.items():
        total = value + (vii if (key >> 1) & 127 < flex_total else 0)
        if total > best_value:
            best_value = total
            best_key = key
    return best_key, best_value


def _walk(
    problem: Problem,
    start: int,
    closing: Sequence[BorderOption],
    options: list[list[BorderOption]],
    history: list[dict[State, StepTuple]] | None,
) -> dict[State, int]:
    """The dynamic programme over the ring from ``start``: the best value of each final state.

    With ``history``, one dict of back-pointers per colour is appended to it (for
    :func:`_rebuild`); without, none is made (:func:`solve_value`). Each colour's feasible
    choices at a demand (:func:`_entries`) are memoised in its :class:`ColourMemo`, shared
    by every search that meets the same colour holdings.
    """
    counts = problem.counts
    flex_total = problem.flex
    flex_rows = _flex_choices(flex_total, counts)
    ii = counts.ii * SHIFT
    vii = counts.vii * SHIFT
    # state: (demand on this colour from the previous border, flex used, parity)
    states: dict[State, int] = {_state_key(closing[0].right, 0, 0): 0}
    for step in range(6):
        colour = (start + step) % 6
        border = colour  # border ``colour`` joins ``colour`` and ``colour + 1``
        # The options' fields as plain tuples, read once (not per state); the closing
        # border's demand of the first colour is settled, so it demands nothing more.
        if step == 5:
            unpacked = [
                (option.left, 0, option.points * SHIFT, option._replace(right=0))
                if history is not None
                else (option.left, 0, option.points * SHIFT, option)
                for option in closing
            ]
        else:
            unpacked = [
                (option.left, option.right, option.points * SHIFT, option)
                for option in options[border]
            ]
        men = problem.men[colour]
        women = problem.women[colour]
        provinces = problem.provinces[colour]
        covered = problem.covered[colour]
        vii_new = 0 if covered else vii
        memo = colour_memo(men, women, provinces, counts)
        entries_memo = memo.entries
        new_states: dict[State, int] = {}
        back: dict[State, StepTuple] = {}
        for state, value in states.items():
            incoming = state >> 8
            used = (state >> 1) & 127
            parity = state & 1
            room = flex_total - used
            for left, right, points, option in unpacked:
                demand = incoming + left
                memo_key = _entries_key(demand, flex_total, covered)
                entries = entries_memo.get(memo_key)
                if entries is None:
                    entries = _entries(
                        men, women, provinces, counts, demand, flex_rows, vii_new, memo.answers
                    )
                    entries_memo[memo_key] = entries
                base = value + points
                right_key = right << 8
                for j, rho, part, kinds in entries:
                    if j > room:
                        break
                    total = base + part
                    if parity and rho:
                        total += ii
                    new_key = right_key | (used + j) << 1 | (parity ^ rho)
                    if total > new_states.get(new_key, NEG):
                        new_states[new_key] = total
                        if history is not None:
                            back[new_key] = (state, option, demand, rho, kinds)
        states = new_states
        if history is not None:
            history.append(back)
        if not states:
            return states
    return states


def _entries(
    men: tuple[int, ...],
    women: tuple[int, ...],
    provinces: int,
    counts: CardCounts,
    demand: int,
    rows: tuple[tuple[tuple[int, int, tuple[int, ...]], ...], ...],
    vii_new: int,
    table: ColourTable,
) -> Entries:
    """Best value of a colour given ``demand``, per flex count ``j`` and parity.

    Only feasible choices are listed, by ``j``, so the walk can stop at the
    first ``j`` that exceeds the flex places left. ``table`` is the colour's
    :func:`colour_table`.
    """
    out = []
    for j, row in enumerate(rows):
        best = [NEG, NEG]
        kinds_best: list[tuple[int, ...]] = [(), ()]
        for flex_demand, points, kinds in row:
            need = demand + flex_demand
            result = table.get(need)
            if result is None:
                result = _colour_best(men, women, provinces, counts, need)
                table[need] = result
            (even, _), (odd, _) = result
            bonus = points * SHIFT + (vii_new if kinds else 0)
            if even != NEG and even + bonus > best[0]:
                best[0] = even + bonus
                kinds_best[0] = kinds
            if odd != NEG and odd + bonus > best[1]:
                best[1] = odd + bonus
                kinds_best[1] = kinds
        for rho in (0, 1):
            if best[rho] != NEG:
                out.append((j, rho, best[rho], kinds_best[rho]))
    return tuple(out)


def _rebuild(
    problem: Problem,
    start: int,
    history: list[dict[State, StepTuple]],
    key: State,
    value: int,
) -> Solution:
    """Follow the back-pointers and collect every colour's and place's choice."""
    details: list[ColourDetail | None] = [None] * 6
    flex: list[tuple[int, int]] = []
    chosen: list[tuple[int, BorderOption]] = []
    for step in range(5, -1, -1):
        colour = (start + step) % 6
        previous, option, demand, rho, kinds = history[step][key]
        flex_demand = 0
        for kind in kinds:
            flex_demand += _kind_demand(kind, problem.counts.xi)
        result = colour_best(
            problem.men[colour],
            problem.women[colour],
            problem.provinces[colour],
            problem.counts,
            demand + flex_demand,
        )
        details[colour] = _unpack_detail(result[rho][1])
        flex.extend((colour, k) for k in kinds)
        if step == 5:
            if problem.borders[colour]:
                chosen.append((colour, option))  # the closing border (demands settled)
        elif problem.borders[colour]:
            chosen.append((colour, option))
        key = previous
    assert all(d is not None for d in details)
    flex.sort()
    chosen.sort(key=lambda item: item[0])
    return Solution(
        value,
        tuple(d for d in details if d is not None),
        tuple(flex),
        tuple(chosen),
    )
