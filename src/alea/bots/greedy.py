"""The greedy bot: a hand-written heuristic a decent human would recognise.

It looks one placement ahead and scores each legal action by *expected points
this round minus the dice it uses up* (docs/bots.md has the full reasoning):

* **Prizes are valued by what they add to its own end-game arrangement**
  (:func:`alea.bots.values.projected`, built on the scoring optimiser): each
  revealed province and patrician, and the Senate card it could expect as
  first or second in the Senate.
* **Dice in a building are valued by their chance to win something this
  round given what is already placed**: a Castrum set by its rank among the
  sets and the chance that the other players (their dice and turns left are
  public) place sets that beat it; a Forum die by its column and the chance
  that later dice push it off; a Senate straight by its rank and the threats
  to it; a Temple group by the Fortuna tiles it keeps if it stays the leading
  group. A die that wins nothing ends in the Latrine and is worth a re-roll
  token.
* **Dice kept back are worth something**: a die saved for a later turn this
  round is worth ``die_value`` points, but only as many as the player will
  have turns to use before the round ends; the rest will go to the Latrine
  as tokens. So the bot spends dice freely when the round is about to end.
* **Re-roll tokens are kept for when they pay**: it tries a few plans (keep
  the dice of one value and re-roll the rest; keep a straight; re-roll all),
  samples their outcomes with its generator, and re-rolls only when the best
  plan's expected gain beats a token's worth by ``reroll_margin``.
* Evaluation choices (``K:``, ``P:``, ``N:``) take the card that adds most to
  its projected end-game score.

The bot sees only its view (and uses its ``random.Random`` only to sample
re-roll outcomes), so the same view and seed always give the same decision.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import ceil
from math import pow as pow_
from typing import Any, Final

from alea.bots.base import Bot
from alea.bots.table import Table
from alea.bots.values import (
    card_values,
    card_values_of,
    expected_best,
    expected_top,
    holdings,
    p_top_sum,
    poisson,
    run_odds,
    set_odds,
    value_odds,
)
from alea.iacta import castrum, forum, senate, temple
from alea.iacta.board import Board
from alea.iacta.dice import remove_dice
from alea.iacta.native import python_class
from alea.iacta.notation import REROLL, Action, action_parts, dice_action
from alea.iacta.scoring import Holdings
from alea.iacta.state import DICE_PER_PLAYER

#: Dice a player places in an average turn (for turns left in the round).
DICE_PER_TURN: Final = 2.3
#: Share of the Forum placements, in a typical game, with a value up to 1..6.
FORUM_SHARE_UP_TO: Final = (0.0, 0.30, 0.50, 0.65, 0.78, 0.90, 1.0)


@dataclass(frozen=True)
class GreedyParams:
    """The heuristic's knobs (the defaults are the tuned ``medium`` bot)."""

    #: Points a die is worth when kept for a later turn of this round.
    die_value: float = 1.2
    #: Points a re-roll token is worth (half a point at the end, plus re-rolls).
    token_value: float = 0.6
    #: Extra expected gain a re-roll must promise beyond spending the token.
    reroll_margin: float = 0.4
    #: Outcomes sampled per re-roll plan (0: never re-roll).
    reroll_samples: int = 6
    #: Chance that a rival able to beat a Castrum set or a straight tries to.
    rivalry: float = 0.55
    #: Forum dice a rival places per turn, on average.
    forum_rate: float = 0.5

    def __reduce__(
        self,
    ) -> tuple[type[GreedyParams], tuple[float, float, float, int, float, float]]:
        """Pickle by the fields, so bots reach worker processes.

        Compiled by mypyc this is a native class, restored attribute by attribute
        by default, which a frozen dataclass refuses.
        """
        return (
            GreedyParams,
            (
                self.die_value,
                self.token_value,
                self.reroll_margin,
                self.reroll_samples,
                self.rivalry,
                self.forum_rate,
            ),
        )


def board(t: Table) -> Board:
    """The buildings of a :class:`Table` as the engine's :class:`~alea.iacta.board.Board`.

    The engine's building modules (:mod:`alea.iacta.castrum` ...) decide what
    may be placed from a board alone, so the bot asks "what could I place with
    this roll?" for rolls it only imagines with the engine's own rules.
    """
    return Board(
        t.players,
        list(t.temple),
        list(t.senate),
        {(o, v): c for o, v, c in t.castrum},
        list(t.forum),
    )


def placements(t: Table, roll: tuple[int, ...]) -> list[Action]:
    """Legal placements for ``t.seat`` with ``roll`` (the Latrine when nothing else is)."""
    board_ = board(t)
    found: list[Action] = []
    if t.players >= 4:
        found.extend(temple.options(board_, t.seat, roll))
    found.extend(senate.options(board_, t.seat, roll))
    found.extend(castrum.options(board_, t.seat, roll))
    found.extend(forum.options(board_, t.seat, roll))
    if not found:
        found = [dice_action("L", (v,)) for v in sorted(set(roll))]
    return found


@lru_cache(maxsize=1 << 15)
def _prizes(
    h: Holdings,
    provinces: tuple[str, ...],
    patricians: tuple[str, ...],
    senate_unseen: tuple[str, ...],
    rounds_after: int,
    rounds: int,
    players: int,
) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """Prize values by rank: provinces, patricians, and the Senate card a rank expects.

    A player ranked ``k`` in the Castrum or Forum is valued as getting its
    ``k``-th favourite card (the ones ranked above took theirs first). The
    Senate's first-ranked player expects the best of three unseen cards, the
    second the better of two, the third (five players) one.
    """
    prov = card_values(h, "P", provinces, rounds_after, rounds)
    pats = card_values(h, "N", patricians, rounds_after, rounds)
    cols = forum.columns(players)
    pat_prize = sorted(pats.values(), reverse=True)
    pat_prize += [0.0] * (cols - len(pat_prize))
    values = card_values(h, "K", senate_unseen, rounds_after, rounds)
    pool = [values[c] for c in senate_unseen]
    count = senate.takers(players)
    senate_prize = (expected_best(pool, 3), expected_best(pool, 2) * 0.95, expected_best(pool, 1))
    return (
        tuple(sorted(prov.values(), reverse=True)),
        tuple(pat_prize),
        senate_prize[:count],
    )


#: The prizes by rank of :func:`_prizes`: provinces, patricians, Senate cards.
Prizes = tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]
#: :func:`_holdings_and_prizes`'s answers by its arguments; emptied when full.
_HOLDINGS_AND_PRIZES: dict[
    tuple[
        tuple[str, ...],
        tuple[str, ...],
        tuple[str, ...],
        tuple[int, ...],
        tuple[str, ...],
        tuple[str, ...],
        tuple[str, ...],
        int,
        int,
        int,
    ],
    tuple[Holdings, Prizes],
] = {}
_HOLDINGS_AND_PRIZES_SIZE: Final = 1 << 15


def _holdings_and_prizes(
    provinces: tuple[str, ...],
    patricians: tuple[str, ...],
    senate_cards: tuple[str, ...],
    fortuna: tuple[int, ...],
    revealed_provinces: tuple[str, ...],
    revealed_patricians: tuple[str, ...],
    senate_unseen: tuple[str, ...],
    rounds_after: int,
    rounds: int,
    players: int,
) -> tuple[Holdings, Prizes]:
    """A seat's canonical holdings and :func:`_prizes`, keyed by a table's own fields.

    Every decision of a playout asks this, and the answer changes only at an
    evaluation: keyed by the table's tuples as they are, a repeat costs one
    look-up instead of sorting the cards into a new :class:`Holdings` (a plain
    Python class, slow to build and to hash) for :func:`_prizes`'s key. A plain
    dict, not ``lru_cache``: the compiled heuristic then looks it up without a
    call through Python's calling convention.
    """
    key = (
        provinces,
        patricians,
        senate_cards,
        fortuna,
        revealed_provinces,
        revealed_patricians,
        senate_unseen,
        rounds_after,
        rounds,
        players,
    )
    found = _HOLDINGS_AND_PRIZES.get(key)
    if found is None:
        h = holdings(provinces, patricians, senate_cards, fortuna)
        prizes = _prizes(
            h, revealed_provinces, revealed_patricians, senate_unseen, rounds_after, rounds, players
        )
        if len(_HOLDINGS_AND_PRIZES) >= _HOLDINGS_AND_PRIZES_SIZE:
            _HOLDINGS_AND_PRIZES.clear()
        found = _HOLDINGS_AND_PRIZES[key] = (h, prizes)
    return found


class Assessor:
    """Expected-points arithmetic for one seat at one decision (see the module doc).

    Built once per decision; every partial result (threats, the value of a set
    at a rank, of a Forum die in a column ...) is memoised, because a decision
    asks the same sub-questions for many actions and, when re-rolls are
    weighed, for many imagined rolls.
    """

    def __init__(self, t: Table, params: GreedyParams) -> None:
        self.t = t
        self.params = params
        n = t.players
        me = t.seat
        self.tau = params.token_value
        self.h, prizes = _holdings_and_prizes(
            t.my_provinces,
            t.my_patricians,
            t.my_senate,
            t.my_fortuna,
            t.revealed_provinces,
            t.revealed_patricians,
            t.senate_unseen,
            t.rounds - t.round,
            t.rounds,
            n,
        )
        self.prov_prize, self.pat_prize, self.senate_prize = prizes
        # Turns each player still gets this round (after the current turn).
        self.turns = self._turns_left()
        self.others = [s for s in range(n) if s != me and t.dice[s] and self.turns[s] > 0]
        four = sum(1 for c in t.my_senate if c == "IV")
        self.tile_bonus = four * 2 / 3  # IV: 2 points per 3 tiles
        self.probs = _rounded(t.fortuna_probs)
        others = [self.turns[s] for s in self.others]
        horizon = (min(others) + 1) if others and not t.ending else 0
        usable = DICE_PER_TURN * horizon
        self._keep = [
            params.die_value * min(d, usable) + self.tau * max(d - usable, 0.0)
            for d in range(DICE_PER_PLAYER + 1)
        ]
        self._forum_rate = params.forum_rate * sum(self.turns[s] for s in self.others)
        # Memoised partial results, keyed by small ints (no tuple to build and hash).
        self._castrum_threats: dict[int, float] = {}
        self._senate_threats: dict[int, float] = {}
        self._temple_threats: dict[int, float] = {}
        self._set_values: dict[int, float] = {}
        self._die_values: dict[int, float] = {}
        self._straight_values: dict[int, float] = {}
        self._bases: dict[str, float] = {}
        self._utilities: dict[Action, float] = {}

    def _turns_left(self) -> list[float]:
        """Turns each seat still gets this round after the current one (an estimate)."""
        t = self.t
        n = t.players
        if t.ending:
            last = (t.start - 1) % n
            turns = [0.0] * n
            seat = t.seat
            while seat != last:
                seat = (seat + 1) % n
                if t.dice[seat]:
                    turns[seat] = 1.0
            return turns
        own = [ceil(d / DICE_PER_TURN) if d else 0 for d in t.dice]
        active = [k for s, k in enumerate(own) if k and s != t.seat]
        end = min(active) if active else 0
        return [float(min(k, end + 1)) for k in own]

    def keep_value(self, dice_left: int) -> float:
        """What ``dice_left`` unplaced dice are worth: later turns, then the Latrine."""
        return self._keep[dice_left]

    # -------------------------------------------------------------- threats

    def _chance_over_turns(self, seat: int, per_roll: float) -> float:
        turns = self.turns[seat]
        return self.params.rivalry * (1.0 - pow_(1.0 - per_roll, turns))

    def castrum_threat(self, value: int, count: int) -> float:
        """Expected number of rival sets that will still come to beat (value, count)."""
        key = value * 16 + count
        found = self._castrum_threats.get(key)
        if found is not None:
            return found
        total = 0.0
        higher = (6 - value) / 6
        for s in self.others:
            d = self.t.dice[s]
            above = set_odds(d, count + 1)
            p = above + (set_odds(d, count) - above) * higher
            for owner, v, c in self.t.castrum:
                if owner == s and (c < count or (c == count and v < value)):
                    need = count + (1 if v < value else 0) - c
                    p = 1 - (1 - p) * (1 - value_odds(d, need))
            total += self._chance_over_turns(s, p)
        self._castrum_threats[key] = total
        return total

    def senate_threat(self, low: int, high: int) -> float:
        """Expected number of rival straights that will still come to beat low..high."""
        key = low * 16 + high
        found = self._senate_threats.get(key)
        if found is not None:
            return found
        length = high - low + 1
        total = 0.0
        for s in self.others:
            d = self.t.dice[s]
            own = self.t.senate[s]
            if own is None:
                above = run_odds(d, length + 1)
                p = above + (run_odds(d, length) - above) * 0.5
            else:
                need = length + 1 - (own[1] - own[0] + 1)
                p = run_odds(d, need) * 0.5 if need > 0 else 0.0
            total += self._chance_over_turns(s, p)
        self._senate_threats[key] = total
        return total

    def temple_threat(self, size: int, total: int) -> float:
        """Chance that a rival overtakes a leading Temple group of ``size`` dice and ``total``."""
        key = size * 1024 + total
        found = self._temple_threats.get(key)
        if found is not None:
            return found
        keep = 1.0
        for s in self.others:
            group = self.t.temple[s]
            need = size + 1 - len(group)
            p = p_top_sum(self.t.dice[s], need, total - sum(group) + 1)
            keep *= 1.0 - self._chance_over_turns(s, p)
        self._temple_threats[key] = 1.0 - keep
        return 1.0 - keep

    # ------------------------------------------------------- building values

    def _ranked_prize(
        self, rank: int, mean: float, prizes: tuple[float, ...], lose: float
    ) -> float:
        """Expected prize for a rank that ``mean`` rivals are still expected to pass."""
        won = 0.0
        got = 0.0
        if rank >= len(prizes):
            return won + (1.0 - got) * lose  # no prize left to pass: the same sum
        weights = poisson(mean, len(prizes) - rank)
        for j, w in enumerate(weights):
            won += w * prizes[rank + j]
            got += w
        return won + (1.0 - got) * lose

    def _set_value(self, rank: int, value: int, count: int) -> float:
        key = (rank * 16 + value) * 16 + count
        found = self._set_values.get(key)
        if found is None:
            threat = self.castrum_threat(value, count)
            found = self._ranked_prize(rank, threat, self.prov_prize, count * self.tau)
            self._set_values[key] = found
        return found

    def castrum_value(self, sets: Sequence[tuple[int, int, int]]) -> float:
        """Expected points of this seat's Castrum sets among ``sets`` (owner, value, count)."""
        return self._castrum_value(list(sets))

    def _castrum_value(self, sets: list[tuple[int, int, int]]) -> float:
        """:meth:`castrum_value` of a list (compiled, a list is indexed; a Sequence is not)."""
        me = self.t.seat
        value = 0.0
        for owner, v, c in sets:
            if owner == me:
                # The set's rank: how many sets rank strictly above it, (count, value)
                # descending (its index among the sorted keys).
                rank = 0
                for _, v2, c2 in sets:
                    if c2 > c or (c2 == c and v2 > v):
                        rank += 1
                value += self._set_value(rank, v, c)
        return value

    def _castrum_after(self, value: int, added: int) -> float:
        """:meth:`castrum_value` after adding ``added`` dice of ``value`` to this seat's set."""
        me = self.t.seat
        old = 0
        sets: list[tuple[int, int, int]] = []
        for entry in self.t.castrum:
            if entry[0] == me and entry[1] == value:
                old = entry[2]
            else:
                sets.append(entry)
        sets.append((me, value, old + added))
        return self._castrum_value(sets)

    def _die_value(self, column: int, value: int) -> float:
        key = column * 16 + value
        found = self._die_values.get(key)
        if found is None:
            mean = self._forum_rate * FORUM_SHARE_UP_TO[value]
            weights = poisson(mean, self.t.cols - column)
            prizes = self.pat_prize
            found = sum(w * prizes[column + j] for j, w in enumerate(weights))
            found += (1.0 - sum(weights)) * self.tau
            self._die_values[key] = found
        return found

    def forum_value(self, row: Sequence[tuple[int, int]], pushed: int = 0) -> float:
        """Expected points of this seat's Forum dice in ``row``, plus ``pushed`` lost dice."""
        me = self.t.seat
        value = pushed * self.tau
        for i, (v, owner) in enumerate(row):
            if owner == me:
                value += self._die_value(i, v)
        return value

    def senate_value(self, straights: Sequence[tuple[int, int] | None]) -> float:
        """Expected points of this seat's straight among ``straights``."""
        me = self.t.seat
        mine = straights[me]
        if mine is None:
            return 0.0
        low, high = mine
        span = high - low
        rank = 0
        for s, st in enumerate(straights):
            if st is not None and s != me:
                other = st[1] - st[0]
                if other > span or (other == span and st[1] > high):
                    rank += 1
        memo = (rank * 16 + low) * 16 + high
        found = self._straight_values.get(memo)
        if found is None:
            threat = self.senate_threat(low, high)
            lose = (high - low + 1) * self.tau
            found = self._ranked_prize(rank, threat, self.senate_prize, lose)
            self._straight_values[memo] = found
        return found

    def temple_value(self, groups: Sequence[tuple[int, ...]], new_draws: int) -> float:
        """Expected Fortuna points this seat keeps, with ``new_draws`` tiles still to draw."""
        me = self.t.seat
        mine = groups[me]
        if not mine:
            return 0.0
        drawn = self.t.drawn
        if len(drawn) < len(mine) - new_draws:
            drawn = drawn + (2,) * (len(mine) - new_draws - len(drawn))
        size, total = temple.leading(list(groups))
        tile = 1.0 + self.tile_bonus
        lose = self.temple_threat(size, total) if len(mine) == size else 1.0
        keep2 = expected_top(drawn, new_draws, 2, self.probs)
        keep1 = expected_top(drawn, new_draws, 1, self.probs)
        value = tile * ((1 - lose) * keep2 + lose * keep1)
        if sum(len(g) for g in groups) == 1:
            alone = 0.5 ** len(self.others)
            value += alone * tile * 2.0
        return value

    # -------------------------------------------------------------- actions

    def utility(self, action: Action) -> float:
        """Expected points of placing ``action``'s dice now, counting the dice it uses.

        Depends only on the action (not on the rest of the roll), so it is
        computed once per action and decision, however many imagined re-roll
        outcomes ask for it.
        """
        found = self._utilities.get(action)
        if found is None:
            found = self._utility(action)
            self._utilities[action] = found
        return found

    def _utility(self, action: Action) -> float:
        t = self.t
        me = t.seat
        kind, dice, _ = action_parts(action)
        gain = 0.0
        if kind == "C":
            gain = self._castrum_after(dice[0], len(dice)) - self._base("C")
        elif kind == "F":
            row = list(t.forum)
            for value in dice:
                row.insert(_forum_index(row, value), (value, me))
            pushed = 0
            while len(row) > t.cols:
                if row.pop()[1] == me:
                    pushed += 1
            gain = self.forum_value(row, pushed) - self._base("F")
        elif kind == "S":
            straights = list(t.senate)
            straights[me] = _straight_after(straights[me], action, dice)
            gain = self.senate_value(straights) - self._base("S")
        elif kind == "T":
            groups = list(t.temple)
            groups[me] = tuple(sorted(groups[me] + dice))
            gain = self.temple_value(groups, len(dice)) - self._base("T")
        elif kind == "L":
            gain = self.tau
        return gain + self._keep[t.dice[me] - len(dice)]

    def _base(self, building: str) -> float:
        """The building's value before this turn's placement (computed once)."""
        found = self._bases.get(building)
        if found is None:
            t = self.t
            if building == "C":
                found = self.castrum_value(t.castrum)
            elif building == "F":
                found = self.forum_value(t.forum)
            elif building == "S":
                found = self.senate_value(t.senate)
            else:
                found = self.temple_value(t.temple, 0)
            self._bases[building] = found
        return found

    def best(self, actions: Sequence[Action], memo: bool = True) -> tuple[Action, float]:
        """The placement in ``actions`` with the highest utility (first one on ties).

        Of the Temple placements only those with the highest pip sum are
        assessed: they all add the same number of dice, the rest of the roll
        is re-rolled next turn anyway, and a higher sum is harder to overtake.
        Without ``memo`` the utilities are not kept for later questions (a
        decision that weighs no re-roll asks each one once: keeping them is
        only work); the answer is the same.
        """
        best_action = actions[0]
        best_value = _NO_VALUE
        # The engine lists placements first and re-rolls last (State.legal_actions):
        # the placements end at the first re-roll.
        end = len(actions)
        top = 0
        for i in range(end):
            kind, dice, _ = action_parts(actions[i])
            if kind == REROLL:
                end = i
                break
            if kind == "T":
                top = max(top, _pips(dice))
        utilities = self._utilities
        for i in range(end):
            action = actions[i]
            if top:
                kind, dice, _ = action_parts(action)
                if kind == "T" and _pips(dice) < top:
                    continue
            if memo:
                found = utilities.get(action)
                if found is None:
                    value = self._utility(action)
                    utilities[action] = value
                else:
                    value = found
            else:
                value = self._utility(action)
            if value > best_value + 1e-9:
                best_action, best_value = action, value
        return best_action, best_value


#: Below every utility (the first placement weighed is always taken).
_NO_VALUE: Final = float("-inf")


#: :func:`_rounded`'s answers; emptied when full.
_ROUNDED: dict[tuple[float, float, float], tuple[float, float, float]] = {}


def _rounded(probs: tuple[float, float, float]) -> tuple[float, float, float]:
    """Fortuna chances rounded to 0.01, so that :func:`expected_top`'s cache stays small.

    Cached (a plain dict): ``round`` to a number of digits goes through a decimal
    conversion, and the chances change only when a Fortuna tile is seen.
    """
    found = _ROUNDED.get(probs)
    if found is None:
        p1, p2, p3 = probs
        if len(_ROUNDED) >= 1 << 12:
            _ROUNDED.clear()
        found = _ROUNDED[probs] = (round(p1, 2), round(p2, 2), round(p3, 2))
    return found


def _forum_index(row: list[tuple[int, int]], value: int) -> int:
    for i, (v, _) in enumerate(row):
        if v >= value:
            return i
    return len(row)


#: :func:`alea.iacta.senate.result_of` of a seat's straight and a Senate placement,
#: by the straight, then the action: the engine's answer, asked once per pair (there
#: are a few hundred), not again for every decision that weighs the placement.
_STRAIGHTS: dict[tuple[int, int] | None, dict[Action, tuple[int, int] | None]] = {}


def _straight_after(
    own: tuple[int, int] | None, action: Action, dice: tuple[int, ...]
) -> tuple[int, int] | None:
    """The straight ``own`` becomes with the Senate placement ``action`` (of ``dice``)."""
    by_action = _STRAIGHTS.get(own)
    if by_action is None:
        by_action = _STRAIGHTS[own] = {}
    if action in by_action:
        return by_action[action]
    found = by_action[action] = senate.result_of(own, dice)
    return found


def _pips(dice: tuple[int, ...]) -> int:
    """The sum of ``dice`` (a loop: mypyc looks ``sum`` up among the builtins per call)."""
    total = 0
    for d in dice:
        total += d
    return total


def reroll_plans(roll: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The dice to re-roll in each plan a human would consider (each non-empty, distinct).

    Keep every die of one value (going for a Castrum set) for the two most
    common values; keep one die of each value of the longest run (going for
    a straight); keep the low dice (going for the Forum); re-roll everything.
    """
    counts = {v: roll.count(v) for v in set(roll)}
    plans: list[tuple[int, ...]] = []
    for v in sorted(counts, key=lambda v: (-counts[v], -v))[:2]:
        plans.append(tuple(d for d in roll if d != v))
    values = sorted(counts)
    best_run: list[int] = []
    run: list[int] = []
    for v in values:
        run = [*run, v] if run and run[-1] == v - 1 else [v]
        if len(run) > len(best_run):
            best_run = run
    plans.append(remove_dice(roll, tuple(best_run)))
    plans.append(tuple(d for d in roll if d > 2))
    plans.append(roll)
    unique: list[tuple[int, ...]] = []
    for plan in plans:
        if plan and plan not in unique:
            unique.append(plan)
    return unique


def choose(t: Table, legal: Sequence[Action], params: GreedyParams, rng: random.Random) -> Action:
    """The greedy decision from a ready-made :class:`Table` (see the module doc).

    A function, not only :meth:`GreedyBot.decide`: the compiled IS-MCTS playout
    loop (:mod:`alea.bots.playouts`) calls it natively for every simulated decision.
    """
    if len(legal) == 1:
        return legal[0]
    kind = action_parts(legal[0])[0]
    if kind in ("K", "P", "N"):
        return choose_card(t, legal)
    assessor = Assessor(t, params)
    action, value = assessor.best(legal, params.reroll_samples > 0)
    if params.reroll_samples > 0 and any(a.kind == REROLL for a in legal):
        plan = _reroll(t, assessor, legal, value, rng, params)
        if plan is not None:
            return plan
    return action


def choose_card(t: Table, legal: Sequence[Action]) -> Action:
    """The evaluation choice (``K:``, ``P:``, ``N:``) adding most to the projected score."""
    kind = action_parts(legal[0])[0]
    cards = tuple([action_parts(a)[2] for a in legal])
    values = card_values_of(
        t.my_provinces,
        t.my_patricians,
        t.my_senate,
        t.my_fortuna,
        kind,
        cards,
        t.rounds - t.round,
        t.rounds,
    )
    # A loop, not max(key=lambda): the first of equal values, as max gives.
    best = 0
    for i in range(1, len(legal)):
        if values[cards[i]] > values[cards[best]]:
            best = i
    return legal[best]


def reroll_gains(
    t: Table,
    assessor: Assessor,
    legal: Sequence[Action],
    current: float,
    rng: random.Random,
    samples: int,
) -> list[tuple[Action, float]]:
    """Each legal re-roll plan with its sampled expected gain over placing now."""
    allowed = {a.dice: a for a in legal if a.kind == REROLL}
    gains: list[tuple[Action, float]] = []
    for plan in reroll_plans(t.roll):
        action = allowed.get(plan)
        if action is None:
            continue
        kept = remove_dice(t.roll, plan)
        total = 0.0
        for _ in range(samples):
            new = tuple(sorted(kept + tuple(rng.randint(1, 6) for _ in plan)))
            total += assessor.best(placements(t, new))[1]
        gains.append((action, total / samples - current))
    return gains


def _reroll(
    t: Table,
    assessor: Assessor,
    legal: Sequence[Action],
    current: float,
    rng: random.Random,
    params: GreedyParams,
) -> Action | None:
    """The re-roll worth a token, if any (see :func:`reroll_plans`)."""
    best: Action | None = None
    best_gain = params.token_value + params.reroll_margin
    for action, gain in reroll_gains(t, assessor, legal, current, rng, params.reroll_samples):
        if gain > best_gain:
            best, best_gain = action, gain
    return best


@python_class  # a native class cannot subclass the ABC Bot (plain Python)
class GreedyBot(Bot):
    """One-placement look-ahead with the expected-points heuristic above."""

    def __init__(self, params: GreedyParams | None = None, name: str = "greedy") -> None:
        self.params = params or GreedyParams()
        self.name = name

    def act(
        self, view: dict[str, Any], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Choose from ``legal_actions`` (see the module doc)."""
        return choose(Table.from_view(view), legal_actions, self.params, rng)

    def decide(self, t: Table, legal: Sequence[Action], rng: random.Random) -> Action:
        """The decision from a ready-made :class:`Table` (:func:`choose`)."""
        return choose(t, legal, self.params, rng)

    def reroll_gains(
        self,
        t: Table,
        assessor: Assessor,
        legal: Sequence[Action],
        current: float,
        rng: random.Random,
        samples: int,
    ) -> list[tuple[Action, float]]:
        """Each legal re-roll plan with its sampled expected gain over placing now."""
        return reroll_gains(t, assessor, legal, current, rng, samples)


__all__ = [
    "Assessor",
    "GreedyBot",
    "GreedyParams",
    "choose",
    "choose_card",
    "placements",
    "reroll_gains",
    "reroll_plans",
]
