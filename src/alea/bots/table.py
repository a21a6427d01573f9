"""What a bot knows about the game, read once from a view into plain fields.

Bots decide from a seat's view (RULES.md §6), which is a JSON-ready dict made
for interfaces, not for arithmetic. :class:`Table` turns it into tuples and
ints once per decision so the heuristics do not dig through dicts in their
inner loops. :meth:`Table.from_state` builds the same fields straight from a
state *for one seat*, reading only what that seat's view shows; IS-MCTS uses
it inside playouts on its own determinised states, where building a full view
dict for every simulated decision would cost more than the decision itself.
Both constructors must agree; ``tests/bots/test_table.py`` checks that.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import TYPE_CHECKING, Any, Final

from alea.iacta.cards import FORTUNA_COPIES, senate_deck
from alea.iacta.castrum import ranking

if TYPE_CHECKING:
    from alea.iacta.state import State

#: Rounds by player count (RULES.md §2).
ROUNDS: Final = {2: 6, 3: 6, 4: 5, 5: 5}


class Table:
    """One seat's knowledge of the game at a decision, as plain Python values."""

    __slots__ = (
        "castrum",
        "cols",
        "dice",
        "drawn",
        "drawn_counts",
        "ending",
        "fortuna_probs",
        "forum",
        "my_fortuna",
        "my_patricians",
        "my_provinces",
        "my_senate",
        "phase",
        "players",
        "revealed_patricians",
        "revealed_provinces",
        "roll",
        "round",
        "rounds",
        "seat",
        "senate",
        "senate_unseen",
        "start",
        "temple",
        "tokens",
    )

    seat: int
    players: int
    round: int
    rounds: int
    start: int
    ending: bool
    phase: str
    dice: tuple[int, ...]
    roll: tuple[int, ...]
    tokens: tuple[int, ...]
    temple: tuple[tuple[int, ...], ...]
    senate: tuple[tuple[int, int] | None, ...]
    castrum: tuple[tuple[int, int, int], ...]
    forum: tuple[tuple[int, int], ...]
    cols: int
    revealed_provinces: tuple[str, ...]
    revealed_patricians: tuple[str, ...]
    my_provinces: tuple[str, ...]
    my_patricians: tuple[str, ...]
    my_senate: tuple[str, ...]
    my_fortuna: tuple[int, ...]
    drawn: tuple[int, ...]
    drawn_counts: tuple[int, ...]
    senate_unseen: tuple[str, ...]
    fortuna_probs: tuple[float, float, float]

    @property
    def rounds_after(self) -> int:
        """Rounds still to play after the current one."""
        return self.rounds - self.round

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Table:
        """Read a seat's view (``state.view(seat)``)."""
        t = cls.__new__(cls)
        seat = view["seat"]
        if seat is None:
            raise ValueError("a bot plays a seat: give it that seat's view, not a spectator's")
        info = view["players_info"]
        turn = view["turn"]
        b = view["buildings"]
        n = int(view["players"])
        t.seat = seat
        t.players = n
        t.round = int(view["round"])
        t.rounds = int(view["rounds"])
        t.start = int(view["start_player"])
        t.ending = bool(turn["ending"])
        t.phase = view["phase"]
        t.dice = tuple(int(p["dice"]) for p in info)
        t.roll = tuple(turn["roll"])
        t.tokens = tuple(int(p["tokens"]) for p in info)
        t.temple = tuple(tuple(g) for g in b["temple"]) if "temple" in b else ((),) * n
        t.senate = tuple((s[0], s[-1]) if s else None for s in b["senate"])
        t.castrum = tuple((c["seat"], c["value"], c["count"]) for c in b["castrum"])
        t.forum = tuple((f["value"], f["seat"]) for f in b["forum"])
        t.cols = int(b["forum_columns"])
        t.revealed_provinces = tuple(view["revealed"]["provinces"])
        t.revealed_patricians = tuple(view["revealed"]["patricians"])
        me = info[seat]
        t.my_provinces = tuple(me["provinces"])
        t.my_patricians = tuple(me["patricians"])
        t.my_senate = tuple(me["senate"] or ())
        t.my_fortuna = tuple(me["fortuna"])
        t.drawn = tuple(me["fortuna_drawn_values"] or ())
        t.drawn_counts = tuple(int(p["fortuna_drawn"]) for p in info)
        known = list(t.my_senate)
        known.extend(view["senate_hand"] or ())
        known.extend(c for c in view["senate_bottom"] if c is not None)
        t.senate_unseen = _without(senate_deck(n), known)
        discards = view["decks"]["fortuna_discards"]
        kept = [v for p in info for v in p["fortuna"]]
        t.fortuna_probs = _fortuna_probs(
            [int(discards[str(v)]) for v in (1, 2, 3)],
            kept,
            list(t.drawn),
            int(view["decks"]["fortuna"]),
        )
        return t

    @classmethod
    def from_state(cls, state: State, seat: int, public: bool = False) -> Table:
        """The same fields as :meth:`from_view` for ``seat``, read from ``state`` directly.

        Reads only what ``state.view(seat)`` shows: the public fields, and
        ``seat``'s own Senate cards, hand and Fortuna draws. With ``public``
        it reads only what *everyone* sees (the seat's Senate cards and draws
        count as unknown): how a searching bot models a rival, whose hidden
        cards it does not know. It is also much faster in search, because
        valuations keyed on public holdings repeat across determinisations.
        """
        from alea.iacta.views import sees_senate_hand

        t = cls.__new__(cls)
        n = state.players
        t.seat = seat
        t.players = n
        t.round = min(state.round + 1, state.rounds)
        t.rounds = state.rounds
        t.start = state.start
        t.ending = state.ending
        t.phase = state.phase_name
        t.dice = tuple(state.dice_left)
        t.roll = state.roll
        t.tokens = tuple(state.tokens)
        t.temple = tuple(state.temple)
        t.senate = tuple(state.senate)
        t.castrum = tuple(ranking(state.castrum))
        t.forum = tuple(state.forum)
        t.cols = n + 2
        t.revealed_provinces = tuple(state.revealed_provinces)
        t.revealed_patricians = tuple(state.revealed_patricians)
        t.my_provinces = tuple(state.provinces[seat])
        t.my_patricians = tuple(state.patricians[seat])
        t.my_fortuna = tuple(state.fortuna_kept[seat])
        t.drawn_counts = tuple(len(d) for d in state.fortuna_drawn)
        if public:
            t.my_senate = ()
            t.drawn = ()
            t.senate_unseen = _full_deck(n)
        else:
            t.my_senate = tuple(state.senate_cards[seat])
            t.drawn = tuple(state.fortuna_drawn[seat])
            known = list(t.my_senate)
            if sees_senate_hand(state, seat):
                known.extend(state.senate_hand)
            known.extend(card for card, placer in state.senate_bottom if placer == seat)
            t.senate_unseen = _without(senate_deck(n), known)
        kept = [v for k in state.fortuna_kept for v in k]
        t.fortuna_probs = _fortuna_probs(
            state.fortuna_discards[1:], kept, list(t.drawn), sum(state.fortuna_stack)
        )
        return t


@cache
def _full_deck(players: int) -> tuple[str, ...]:
    return tuple(sorted(senate_deck(players)))


def _without(deck: list[str], known: list[str]) -> tuple[str, ...]:
    """``deck`` minus the multiset ``known``, sorted (cards the seat cannot place)."""
    rest = Counter(deck)
    rest.subtract(known)
    return tuple(sorted(card for card, k in rest.items() for _ in range(max(k, 0))))


def _fortuna_probs(
    discards: list[int], kept: list[int], drawn: list[int], stack: int
) -> tuple[float, float, float]:
    """Chance that the next Fortuna tile drawn is a 1, 2 or 3, from the public counts.

    Normally the unseen tiles (stack and others' draws); when the stack is
    empty the next draw comes from the reshuffled face-up discards.
    """
    total = discards[0] + discards[1] + discards[2]
    if stack == 0 and total > 0:
        return (discards[0] / total, discards[1] / total, discards[2] / total)
    left = dict(FORTUNA_COPIES)
    for v in (1, 2, 3):
        left[v] -= discards[v - 1]
    for v in kept + drawn:
        left[v] -= 1
    total = sum(max(k, 0) for k in left.values())
    if total <= 0:
        return (8 / 30, 14 / 30, 8 / 30)
    return (max(left[1], 0) / total, max(left[2], 0) / total, max(left[3], 0) / total)
