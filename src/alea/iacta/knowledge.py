"""What each seat may know (RULES.md §6): the one place in the project that decides it.

:func:`knowledge` reads a state for one observer, a seat or ``None`` for a
spectator, and returns a :class:`Knowledge`: plain tuples and ints holding
every public fact of the table and, for the observer only, the secrets §6
lets it see. Each secret the observer may not see is ``None`` in it, so
whatever is derived from a :class:`Knowledge` cannot show more than the
rules allow. Everything that leaves the engine is derived from it:

* the JSON view of a seat (:func:`alea.iacta.views.view`, ``State.view``),
  which is read back into the same structure by :func:`alea.iacta.views.parse_view`;
* the bots' table of a decision (:meth:`alea.bots.table.Table.from_knowledge`);
* the research observation tensors (:mod:`alea.envs.observation`);
* the open table of a *finished* game's replay, every secret shown
  (:func:`alea.iacta.views.replay_view`), merged from the seats' knowledge.

Fast paths that read state fields directly (``Table.from_state`` inside
IS-MCTS playouts, the compiled observation builder) exist for speed only,
and their tests check them against this structure at every node of random
games of every player count.

The public/secret split, from §6:

* public: dice rolled and placed, the buildings, revealed and owned
  provinces and patricians, kept Fortuna tiles and the discards, re-roll
  tokens, deck sizes, and each seat's *number* of Senate cards and of this
  round's Fortuna draws;
* a Fortuna tile drawn this round: its owner only (until the Temple evaluation);
* a kept Senate card: its owner only, every seat's once the game is over;
* the Senate hand being passed: the takers who have held it;
* a Senate card put under the deck: the seat that put it there;
* deck orders: nobody (the state holds none, see :mod:`alea.iacta.state`).
"""

from __future__ import annotations

from typing import NamedTuple

from alea.iacta.castrum import ranking
from alea.iacta.forum import columns
from alea.iacta.state import CHOOSE_SENATE_CARD, DRAW_SENATE, GAME_OVER, REROLL_DICE, State

__all__ = ["Knowledge", "Secrets", "knowledge", "own_secrets", "reveal_all", "sees_senate_hand"]


class Knowledge(NamedTuple):
    """One observer's knowledge of a position: public facts, and only its own secrets.

    Per-seat fields are tuples indexed by seat. A secret field holds ``None``
    wherever the observer may not see it: :attr:`fortuna_drawn_values` and
    :attr:`senate_cards` per seat, :attr:`senate_hand` as a whole, and each
    entry of :attr:`senate_bottom`.
    """

    #: The observer: a seat, or ``None`` for a spectator (and for a replay's open table).
    seat: int | None
    players: int
    rounds: int
    #: The round being played, 1-based (the last one once the game is over).
    round: int
    #: This round's start player.
    start: int
    #: The engine phase (an index into ``alea.iacta.state.PHASE_NAMES``).
    phase: int
    #: ``State.current_player()``: the deciding seat, ``CHANCE`` or ``TERMINAL``.
    to_move: int
    #: Whose turn it is (also during that turn's chance events); ``None`` once over.
    turn_seat: int | None
    #: A player has placed their last die this round (the go-round has begun).
    ending: bool
    roll: tuple[int, ...]
    #: Dice set aside during a re-roll.
    kept: tuple[int, ...]
    #: Dice being re-rolled (0 outside the re-roll phase).
    rerolling: int
    #: Fortuna draws still due for a Temple placement.
    fortuna_pending: int
    # --- per seat, public -------------------------------------------------
    dice: tuple[int, ...]
    tokens: tuple[int, ...]
    latrine: tuple[int, ...]
    #: Temple groups (all empty with 2–3 players, where there is no Temple).
    temple: tuple[tuple[int, ...], ...]
    #: Senate straights as ``(low, high)``.
    senate: tuple[tuple[int, int] | None, ...]
    provinces: tuple[tuple[str, ...], ...]
    patricians: tuple[tuple[str, ...], ...]
    fortuna_kept: tuple[tuple[int, ...], ...]
    #: How many Fortuna tiles each seat drew this round.
    fortuna_drawn: tuple[int, ...]
    #: How many Senate cards each seat holds.
    senate_count: tuple[int, ...]
    # --- the board, public ------------------------------------------------
    #: Castrum sets ``(owner, value, count)``, best first.
    castrum: tuple[tuple[int, int, int], ...]
    #: Forum row ``(value, owner)``, left to right.
    forum: tuple[tuple[int, int], ...]
    forum_columns: int
    revealed_provinces: tuple[str, ...]
    revealed_patricians: tuple[str, ...]
    removed_provinces: tuple[str, ...]
    removed_patricians: tuple[str, ...]
    deck_provinces: int
    deck_patricians: int
    #: Senate cards in the deck, the cards put under it included.
    deck_senate: int
    fortuna_stack: int
    #: Face-up Fortuna discards of value 1, 2, 3.
    fortuna_discards: tuple[int, int, int]
    senate_hand_size: int
    senate_takers: tuple[int, ...]
    senate_turn: int
    #: Castrum sets still to choose a province, in order: ``(owner, value, count)``.
    castrum_queue: tuple[tuple[int, int, int], ...]
    # --- secrets: None where the observer may not see them ------------------
    #: Each seat's Fortuna draws of this round.
    fortuna_drawn_values: tuple[tuple[int, ...] | None, ...]
    #: Each seat's Senate cards.
    senate_cards: tuple[tuple[str, ...] | None, ...]
    #: The Senate hand being passed.
    senate_hand: tuple[str, ...] | None
    #: The cards put under the Senate deck, bottom order.
    senate_bottom: tuple[str | None, ...]

    @property
    def over(self) -> bool:
        """Whether the game is over (the phase is ``game-over``)."""
        return self.phase == GAME_OVER

    def senate_seen(self) -> list[str]:
        """Every Senate card this observer knows the place of: own, all once over, hand, bottom."""
        seen = [card for cards in self.senate_cards if cards is not None for card in cards]
        if self.senate_hand is not None:
            seen.extend(self.senate_hand)
        seen.extend(card for card in self.senate_bottom if card is not None)
        return seen


def sees_senate_hand(state: State, seat: int | None) -> bool:
    """Whether ``seat`` has held the Senate cards currently being passed (RULES.md §6)."""
    if seat is None or not state.senate_takers:
        return False
    if state.phase == DRAW_SENATE:
        return seat == state.senate_takers[0]
    if state.phase == CHOOSE_SENATE_CARD:
        return seat in state.senate_takers[: state.senate_turn + 1]
    return False


class Secrets(NamedTuple):
    """What one seat knows of a position beyond the public table (RULES.md §6).

    The observer's own part of :class:`Knowledge`'s secret fields, read by
    :func:`knowledge` and by the views (:func:`alea.iacta.views.view`, which
    add it to the public table they share between seats), so that what a seat
    sees of its own is decided here only.
    """

    #: Its Fortuna tiles drawn this round.
    fortuna_drawn_values: tuple[int, ...]
    #: Its Senate cards.
    senate_cards: tuple[str, ...]
    #: The Senate hand being passed, if it holds or has held it (None otherwise).
    senate_hand: tuple[str, ...] | None
    #: The cards under the Senate deck, bottom order: those it put there, the others None.
    senate_bottom: tuple[str | None, ...]


def own_secrets(state: State, seat: int) -> Secrets:
    """The secrets of ``state`` that ``seat`` (a seat, not a spectator) may see, RULES.md §6.

    Every other secret of the position is absent, so whatever is built from
    this and a spectator's knowledge shows that seat no more than
    :func:`knowledge` does.
    """
    hand = None
    if state.senate_takers and sees_senate_hand(state, seat):
        hand = tuple(state.senate_hand)
    bottom: tuple[str | None, ...] = ()
    if state.senate_bottom:
        bottom = tuple(card if placer == seat else None for card, placer in state.senate_bottom)
    return _new(
        Secrets,
        (tuple(state.fortuna_drawn[seat]), tuple(state.senate_cards[seat]), hand, bottom),
    )


def knowledge(state: State, seat: int | None) -> Knowledge:
    """What ``seat`` (``None``: a spectator) may know of ``state``, RULES.md §6."""
    n = state.players
    if seat is not None and not 0 <= seat < n:
        raise ValueError(f"seat {seat} does not exist in a {n}-player game")
    phase = state.phase
    over = phase == GAME_OVER
    senate_cards = state.senate_cards
    drawn = state.fortuna_drawn
    # The secrets (§6): each is None unless this observer may see it.
    # Every kept Senate card is revealed at the end of the game.
    cards: list[tuple[str, ...] | None] = list(map(tuple, senate_cards)) if over else [None] * n
    drawn_values: list[tuple[int, ...] | None] = [None] * n
    hand: tuple[str, ...] | None = None
    bottom: tuple[str | None, ...] = ()
    if seat is not None:
        drawn_values[seat], cards[seat], hand, bottom = own_secrets(state, seat)
    elif state.senate_bottom:
        bottom = (None,) * len(state.senate_bottom)  # a spectator put no card there
    stack = state.fortuna_stack
    discards = state.fortuna_discards
    # Positional, in field order: this runs for every view and every bot decision.
    return _new(
        Knowledge,
        (
            seat,
            n,
            state.rounds,
            min(state.round + 1, state.rounds),
            state.start,
            phase,
            state.current_player(),
            None if over else state.player,
            state.ending,
            state.roll,
            state.kept_dice,
            state.reroll_count if phase == REROLL_DICE else 0,
            state.fortuna_pending,
            tuple(state.dice_left),
            tuple(state.tokens),
            tuple(state.latrine),
            tuple(state.temple),
            tuple(state.senate),
            tuple(map(tuple, state.provinces)),
            tuple(map(tuple, state.patricians)),
            tuple(map(tuple, state.fortuna_kept)),
            tuple(map(len, drawn)),
            tuple(map(len, senate_cards)),
            tuple(ranking(state.castrum)) if state.castrum else (),
            tuple(state.forum),
            columns(n),
            tuple(state.revealed_provinces),
            tuple(state.revealed_patricians),
            tuple(state.removed_provinces),
            tuple(state.removed_patricians),
            len(state.province_pool),
            len(state.patrician_pool),
            len(state.senate_pool) + len(state.senate_bottom),
            stack[1] + stack[2] + stack[3],
            (discards[1], discards[2], discards[3]),
            len(state.senate_hand),
            tuple(state.senate_takers),
            state.senate_turn,
            tuple(state.castrum_queue),
            tuple(drawn_values),
            tuple(cards),
            hand,
            bottom,
        ),
    )


_new = tuple.__new__


def reveal_all(state: State) -> Knowledge:
    """The open table: every secret shown as the seat that knows it sees it.

    Merged from the seats' own :func:`knowledge`, so it shows nothing that no
    seat knows (deck orders stay unknown: the state holds none). It is for
    the replay of a finished game only: reach it through
    :func:`alea.iacta.views.replay_view`, which refuses a game still in play.
    """
    merged = knowledge(state, None)
    drawn = list(merged.fortuna_drawn_values)
    cards = list(merged.senate_cards)
    hand = merged.senate_hand
    bottom = list(merged.senate_bottom)
    for seat in range(state.players):
        own = knowledge(state, seat)
        drawn[seat] = own.fortuna_drawn_values[seat]
        cards[seat] = own.senate_cards[seat]
        if own.senate_hand is not None:
            hand = own.senate_hand
        for index, card in enumerate(own.senate_bottom):
            if card is not None:
                bottom[index] = card
    return merged._replace(
        fortuna_drawn_values=tuple(drawn),
        senate_cards=tuple(cards),
        senate_hand=hand,
        senate_bottom=tuple(bottom),
    )
