"""What a bot knows about the game at a decision, as plain fields.

Bots decide from a seat's view (RULES.md §6), which is a JSON-ready dict made
for interfaces, not for arithmetic. :class:`Table` holds the same knowledge as
tuples and ints, read once per decision, so the heuristics do not dig through
dicts in their inner loops. What a seat knows is decided by the engine
(:mod:`alea.iacta.knowledge`), and :meth:`Table.from_knowledge` is the one
reading of it; :meth:`Table.from_view` reads a view through the same
structure. :meth:`Table.from_state` builds the same fields straight from a
state for one seat: IS-MCTS uses it inside playouts on its own determinised
states, where building the knowledge for every simulated decision would cost
as much again. ``tests/bots/test_table.py`` checks that all three agree.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Final

from alea.iacta.cards import FORTUNA_COPIES, senate_deck
from alea.iacta.castrum import ranking
from alea.iacta.forum import columns
from alea.iacta.knowledge import Knowledge, sees_senate_hand
from alea.iacta.state import GAME_OVER, PHASE_NAMES
from alea.iacta.views import parse_view

if TYPE_CHECKING:
    from alea.iacta.state import State


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
    def from_knowledge(cls, k: Knowledge, seat: int | None = None) -> Table:
        """Read one observer's knowledge (:func:`alea.iacta.knowledge.knowledge`).

        This is the reference: every other constructor gives the same fields.
        ``seat`` is the seat the bot plays: ``k.seat`` by default; with a
        spectator's knowledge (``k.seat is None``) it must be given, and the
        table then holds only what everyone knows about that seat.
        """
        if seat is None:
            seat = k.seat
            if seat is None:
                raise ValueError("a bot plays a seat: give it that seat's view, not a spectator's")
        elif k.seat is not None and k.seat != seat:
            raise ValueError(f"this is seat {k.seat}'s knowledge, not seat {seat}'s")
        t = Table()
        t.seat = seat
        t.players = k.players
        t.round = k.round
        t.rounds = k.rounds
        t.start = k.start
        t.ending = k.ending
        t.phase = PHASE_NAMES[k.phase]
        t.dice = k.dice
        t.roll = k.roll
        t.tokens = k.tokens
        t.temple = k.temple
        t.senate = k.senate
        t.castrum = k.castrum
        t.forum = k.forum
        t.cols = k.forum_columns
        t.revealed_provinces = k.revealed_provinces
        t.revealed_patricians = k.revealed_patricians
        t.my_provinces = k.provinces[seat]
        t.my_patricians = k.patricians[seat]
        t.my_senate = k.senate_cards[seat] or ()
        t.my_fortuna = k.fortuna_kept[seat]
        t.drawn = k.fortuna_drawn_values[seat] or ()
        t.drawn_counts = k.fortuna_drawn
        t.senate_unseen = _unseen(k.players, tuple(k.senate_seen()))
        t.fortuna_probs = _fortuna_probs(
            list(k.fortuna_discards),
            [v for kept in k.fortuna_kept for v in kept],
            [v for drawn in k.fortuna_drawn_values if drawn is not None for v in drawn],
            k.fortuna_stack,
        )
        return t

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Table:
        """Read a seat's view (``state.view(seat)``)."""
        return cls.from_knowledge(parse_view(view))

    @classmethod
    def from_state(cls, state: State, seat: int, public: bool = False) -> Table:
        """:meth:`from_knowledge` of ``knowledge(state, seat)``, read from ``state`` directly.

        With ``public`` it is the knowledge of a spectator instead
        (``knowledge(state, None)``): only what *everyone* sees of ``seat``
        (its Senate cards and Fortuna draws count as unknown until the game is
        over). That is how a searching bot models a rival, whose hidden cards
        it does not know, and it is much faster in search, because valuations
        keyed on public holdings repeat across determinisations.

        A fast path for IS-MCTS playouts, where building the knowledge first
        would double the cost; it repeats the few secrecy rules of
        :mod:`alea.iacta.knowledge`, and ``tests/bots/test_table.py`` checks
        that it agrees with :meth:`from_knowledge` at every node of random
        games, for every seat, public or not.
        """
        t = Table()
        n = state.players
        over = state.phase == GAME_OVER
        t.seat = seat
        t.players = n
        t.round = min(state.round + 1, state.rounds)
        t.rounds = state.rounds
        t.start = state.start
        t.ending = state.ending
        t.phase = PHASE_NAMES[state.phase]
        t.dice = tuple(state.dice_left)
        t.roll = state.roll
        t.tokens = tuple(state.tokens)
        t.temple = tuple(state.temple)
        t.senate = tuple(state.senate)
        t.castrum = tuple(ranking(state.castrum))
        t.forum = tuple(state.forum)
        t.cols = columns(n)
        t.revealed_provinces = tuple(state.revealed_provinces)
        t.revealed_patricians = tuple(state.revealed_patricians)
        t.my_provinces = tuple(state.provinces[seat])
        t.my_patricians = tuple(state.patricians[seat])
        t.my_fortuna = tuple(state.fortuna_kept[seat])
        t.drawn_counts = tuple(len(d) for d in state.fortuna_drawn)
        if over:
            # Every Senate card is shown once the game is over (no draws are left).
            t.my_senate = tuple(state.senate_cards[seat])
            t.drawn = ()
            known = [card for cards in state.senate_cards for card in cards]
            if not public:
                known.extend(card for card, placer in state.senate_bottom if placer == seat)
            t.senate_unseen = _unseen(n, tuple(known))
        elif public:
            t.my_senate = ()
            t.drawn = ()
            t.senate_unseen = _unseen(n, ())
        else:
            t.my_senate = tuple(state.senate_cards[seat])
            t.drawn = tuple(state.fortuna_drawn[seat])
            known = list(t.my_senate)
            if sees_senate_hand(state, seat):
                known.extend(state.senate_hand)
            known.extend(card for card, placer in state.senate_bottom if placer == seat)
            t.senate_unseen = _unseen(n, tuple(known))
        kept = tuple([v for k in state.fortuna_kept for v in k])
        t.fortuna_probs = _fortuna_probs_of(
            tuple(state.fortuna_discards[1:]), kept, t.drawn, sum(state.fortuna_stack)
        )
        return t


#: The answers of :func:`_unseen` and :func:`_fortuna_probs_of`, emptied when full:
#: plain dicts rather than ``lru_cache``, looked up by the compiled table builder
#: without a call through Python's calling convention.
_UNSEEN: dict[tuple[int, tuple[str, ...]], tuple[str, ...]] = {}
_FORTUNA_PROBS: dict[
    tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int], tuple[float, float, float]
] = {}
_CACHE_SIZE: Final = 1 << 12


def _unseen(players: int, known: tuple[str, ...]) -> tuple[str, ...]:
    """The Senate deck minus the multiset ``known``, sorted: the cards a seat cannot place.

    Cached: a seat's known cards change a few times a game, and a search asks
    again for every simulated decision.
    """
    key = (players, known)
    found = _UNSEEN.get(key)
    if found is None:
        rest = Counter(senate_deck(players))
        rest.subtract(known)
        if len(_UNSEEN) >= _CACHE_SIZE:
            _UNSEEN.clear()
        found = _UNSEEN[key] = tuple(
            sorted(card for card, k in rest.items() for _ in range(max(k, 0)))
        )
    return found


def _fortuna_probs_of(
    discards: tuple[int, ...], kept: tuple[int, ...], drawn: tuple[int, ...], stack: int
) -> tuple[float, float, float]:
    """:func:`_fortuna_probs`, cached: IS-MCTS asks it at every simulated decision,
    and the tiles seen change a few times a round."""
    key = (discards, kept, drawn, stack)
    found = _FORTUNA_PROBS.get(key)
    if found is None:
        if len(_FORTUNA_PROBS) >= _CACHE_SIZE:
            _FORTUNA_PROBS.clear()
        found = _FORTUNA_PROBS[key] = _fortuna_probs(list(discards), list(kept), list(drawn), stack)
    return found


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
        left = FORTUNA_COPIES  # no consistent count: the box's own mix
        total = sum(left.values())
    return (max(left[1], 0) / total, max(left[2], 0) / total, max(left[3], 0) / total)
