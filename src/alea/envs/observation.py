"""What one seat may see, as a fixed-size tensor and as text (RULES.md §6).

Why this shape
--------------
Learning code needs one observation shape whatever the player count, and a
policy that does not have to relearn the table for every seat. So the tensor
is built for the *observer*: seat slots are rotated so that slot 0 is always
the observer, slot 1 the next seat clockwise, and so on; slots beyond the
player count are zero, their ``present`` flag included. Every Forum owner and
every other seat reference is written as a slot, never as an absolute seat.

Only what RULES.md §6 lets the observer see goes in, as the engine decides it
(:func:`alea.iacta.knowledge.knowledge`): public facts for every seat, and
the observer's own secrets (its Fortuna draws of this round, its Senate
cards, a Senate hand it is holding, the cards it put under the Senate deck).
Others' secrets appear only as the public counts. At the end of the game
every Senate card is revealed, so every slot's cards are filled in. A public
observation (``private=False``) is a spectator's knowledge seen from a seat.
``tests/envs/test_builders.py`` checks every builder against a plain
reference built from that knowledge alone, and
``tests/envs/test_observation.py`` changes another seat's hidden cards and
compares tensors.

Counts are raw integers (not normalised) so the values read like the rules;
every entry has a proven upper bound in :data:`HIGH` (the lower bound is 0),
which is what a ``Box`` space needs. :data:`FIELDS` is the contract, field by
field; ``docs/envs.md`` shows it as a table.

Why it is built the way it is
-----------------------------
It is built at every step of every environment, and the engine it wraps
takes only a few tens of µs per decision, so it is built for speed (see
``bench/envs.py``). It is read straight from the engine's state (not from the
knowledge or the JSON view, which cost about as much as the whole tensor or
more), repeating the few secrecy rules of :mod:`alea.iacta.knowledge` under
the reference test's watch, and written into an
``array.array`` (single-item stores there are far cheaper than numpy's) and
handed to numpy once, without a copy. The card holdings, which change a few
times a round but are most of the entries, are laid out contiguously (the
board's cards; each slot's cards) and copied in as ready-made segments cached
by their contents, never by a particular state object: that is safe across
games, clones and determinisations. An environment that plays one game
forward can also pass a :class:`Memo` to skip even the cache look-ups.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from itertools import combinations_with_replacement
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from alea.envs.encoding import COMPILED
from alea.envs.layout import (
    _BLOCK,
    _MIN_PLAYERS,
    _NN,
    _NP,
    _OFF,
    _PATRICIAN_INDEX,
    _PROVINCE_INDEX,
    _SENATE_INDEX,
    BLOCKS,
    FIELDS,
    HIGH,
    MAX_SEATS,
    OBSERVATION_SIZE,
    SLOT,
    SLOT_CARDS,
    Field,
    field_slices,
)
from alea.envs.observation_text import observation_string
from alea.iacta.knowledge import sees_senate_hand
from alea.iacta.state import DECIDE, GAME_OVER, REROLL_DICE

if TYPE_CHECKING:
    from alea.iacta.state import State

__all__ = [
    "BLOCKS",
    "BUILDER",
    "FIELDS",
    "HIGH",
    "MAX_SEATS",
    "OBSERVATION_SIZE",
    "SLOT",
    "SLOT_CARDS",
    "Field",
    "Memo",
    "compiled_observe",
    "field_slices",
    "observation_string",
    "observation_tensor",
    "python_observation_tensor",
]

# Offsets as plain module constants: the builder below runs once per step.
_G_PLAYERS = _BLOCK["global"][0] + _OFF["players"]
_G_ROUND = _BLOCK["global"][0] + _OFF["round"]
_G_OVER = _BLOCK["global"][0] + _OFF["game_over"]
_G_PHASE = _BLOCK["global"][0] + _OFF["phase"]
_G_ROLL = _BLOCK["global"][0] + _OFF["roll"]
_G_KEPT = _BLOCK["global"][0] + _OFF["kept"]
_G_REROLLING = _BLOCK["global"][0] + _OFF["rerolling"]
_G_PENDING = _BLOCK["global"][0] + _OFF["fortuna_pending"]
_G_ENDING = _BLOCK["global"][0] + _OFF["ending"]
_G_FVALUE = _BLOCK["global"][0] + _OFF["forum_value"]
_G_FOWNER = _BLOCK["global"][0] + _OFF["forum_owner"]
_G_DECK_P = _BLOCK["global"][0] + _OFF["deck_provinces"]
_G_DECK_N = _BLOCK["global"][0] + _OFF["deck_patricians"]
_G_DECK_K = _BLOCK["global"][0] + _OFF["deck_senate"]
_G_STACK = _BLOCK["global"][0] + _OFF["fortuna_stack"]
_G_DISCARDS = _BLOCK["global"][0] + _OFF["fortuna_discards"]
_G_HAND_SIZE = _BLOCK["global"][0] + _OFF["senate_hand_size"]
_P_DRAWN = _BLOCK["private"][0] + _OFF["own_fortuna_drawn"]
_P_HAND = _BLOCK["private"][0] + _OFF["senate_hand"]
_P_BOTTOM = _BLOCK["private"][0] + _OFF["senate_bottom"]
# The cards block and the five slot_cards blocks are contiguous: one segment.
_CARDS_START = _BLOCK["cards"][0]
_CARDS_SIZE = _BLOCK["cards"][1]
_SC_START, _SC_SIZE = _BLOCK["slot_cards"]
_CARDS_END = _SC_START + MAX_SEATS * _SC_SIZE
_CARDS_HALF = _CARDS_START + _NP + _NN
_S_START_AT, _S_SIZE = _BLOCK["slot"]
_S_START = _OFF["start_player"]
_S_MOVE = _OFF["to_move"]
_S_DICE = _OFF["dice"]
_S_TOKENS = _OFF["tokens"]
_S_LATRINE = _OFF["latrine"]
_S_TEMPLE = _OFF["temple"]
_S_SENATE = _OFF["senate_straight"]
_S_CASTRUM = _OFF["castrum"]
_S_DRAWN = _OFF["fortuna_drawn"]
_S_RANK = _OFF["senate_rank"]
assert _SC_START == _CARDS_START + _CARDS_SIZE
assert _OFF["removed_provinces"] == _NP + _NN and _CARDS_SIZE == 2 * (_NP + _NN)

_REROLL_PHASE: Final = REROLL_DICE
_DECIDE: Final = DECIDE  # phases below it are chance events
_GAME_OVER: Final = GAME_OVER

_ZERO: Final = array("f", bytes(4 * OBSERVATION_SIZE))
_FLOAT32: Final = np.dtype(np.float32)


def _dice_segments() -> dict[tuple[int, ...], array[float]]:
    table: dict[tuple[int, ...], array[float]] = {}
    for k in range(9):
        for dice in combinations_with_replacement(range(1, 7), k):
            segment = array("f", bytes(24))
            for v in dice:
                segment[v - 1] += 1.0
            table[dice] = segment
    return table


#: Counts of 1–6 for every sorted multiset of 0–8 dice (rolls, kept dice, Temple groups).
_DICE_COUNTS: Final = _dice_segments()
#: The six-value indicator of every straight ``(low, high)``.
_STRAIGHTS: Final = {
    (lo, hi): array("f", [1.0 if lo <= v <= hi else 0.0 for v in range(1, 7)])
    for lo in range(1, 7)
    for hi in range(lo, 7)
}
_CACHE_LIMIT: Final = 20_000
_Holding = tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...], int, tuple[str, ...]]
_BoardKey = tuple[tuple[str, ...], tuple[str, ...]]
_board_cache: dict[_BoardKey, array[float]] = {}
_holding_cache: dict[_Holding, array[float]] = {}


def _board(key: _BoardKey) -> array[float]:
    """Half of the ``cards`` block: provinces and patricians on offer, or removed.

    The two halves are cached apart because they change at different paces:
    the cards on offer at every Castrum and Forum choice, the removed ones
    once a round.
    """
    found = _board_cache.get(key)
    if found is not None:
        return found
    provinces, patricians = key
    segment = array("f", bytes(4 * (_NP + _NN)))
    for c in provinces:
        segment[_PROVINCE_INDEX[c]] = 1.0
    for c in patricians:
        segment[_NP + _PATRICIAN_INDEX[c]] = 1.0
    if len(_board_cache) >= _CACHE_LIMIT:
        _board_cache.clear()
    _board_cache[key] = segment
    return segment


def _holding(key: _Holding) -> array[float]:
    """One ``slot_cards`` block for a player's holdings (cached by contents)."""
    found = _holding_cache.get(key)
    if found is not None:
        return found
    provinces, patricians, kept, count, shown = key
    segment = array("f", bytes(4 * _SC_SIZE))
    segment[_OFF["present"]] = 1.0
    for c in provinces:
        segment[_OFF["provinces"] + _PROVINCE_INDEX[c]] = 1.0
    for c in patricians:
        segment[_OFF["patricians"] + _PATRICIAN_INDEX[c]] = 1.0
    for v in kept:
        segment[_OFF["fortuna_kept"] + v - 1] += 1.0
    segment[_OFF["senate_count"]] = count
    for c in shown:
        segment[_OFF["senate_cards"] + _SENATE_INDEX[c]] += 1.0
    if len(_holding_cache) >= _CACHE_LIMIT:
        _holding_cache.clear()
    _holding_cache[key] = segment
    return segment


class Memo:
    """What an environment may keep between the steps of one game, to skip work.

    Give :func:`observation_tensor` a fresh ``Memo()`` at the start of each game
    and the same one at every later step of that game, always for the state
    the game has reached (never an earlier one, a clone that went elsewhere,
    or another game). It relies on three facts of the rules engine, each
    checked against the memo-free tensor over random games of every player
    count in ``tests/envs/test_observation.py``:

    * no card changes hands during the placement phase of a round (RULES.md
      §3.1: reveals come before it, evaluation after it), four steps in five;
    * what a player owns only grows during a game, so the lengths of their
      lists of provinces, patricians, kept tiles and Senate cards identify
      their contents;
    * at decision points the cards on offer only shrink within a round, and
      the removed cards only grow during the game;
    * a re-roll (``R:`` then ``roll:``) changes nothing a seat sees but the
      roll and the re-roller's tokens, so the step after one (a fifth of the
      steps of random play) starts from the tensor of the step before.
    """

    __slots__ = ("board", "holdings", "last", "region")

    def __init__(self) -> None:
        self.region: dict[tuple[int, bool], tuple[int, array[float]]] = {}
        self.holdings: dict[tuple[int, bool], tuple[tuple[int, ...], array[float]]] = {}
        self.board: dict[tuple[int, ...], array[float]] = {}
        #: The last tensor built: (seat, private, events so far, a private copy).
        self.last: tuple[int, bool, int, array[float]] | None = None


def _write_cards(
    obs: array[float], state: State, seat: int, private: bool, over: bool, memo: Memo | None
) -> None:
    """Write the ``cards`` block and the five ``slot_cards`` blocks into ``obs``.

    Each block comes from a cache keyed by the cards themselves (a tuple of
    card names), so the common case is a dictionary look-up and a memory copy;
    with a :class:`Memo`, list lengths stand in for the contents.
    """
    rev_p = state.revealed_provinces
    rev_n = state.revealed_patricians
    rem_p = state.removed_provinces
    rem_n = state.removed_patricians
    if memo is not None:
        board = memo.board
        mkey = (state.round, len(rev_p), len(rev_n))
        segment = board.get(mkey)
        if segment is None:
            segment = board[mkey] = _board((tuple(rev_p), tuple(rev_n)))
        obs[_CARDS_START:_CARDS_HALF] = segment
        mkey = (-1, len(rem_p), len(rem_n))
        segment = board.get(mkey)
        if segment is None:
            segment = board[mkey] = _board((tuple(rem_p), tuple(rem_n)))
        obs[_CARDS_HALF:_SC_START] = segment
    else:
        obs[_CARDS_START:_CARDS_HALF] = _board((tuple(rev_p), tuple(rev_n)))
        obs[_CARDS_HALF:_SC_START] = _board((tuple(rem_p), tuple(rem_n)))
    n = state.players
    provinces = state.provinces
    patricians = state.patricians
    kept = state.fortuna_kept
    senate_cards = state.senate_cards
    held = memo.holdings if memo is not None else None
    at = _SC_START
    for slot in range(n):
        q = seat + slot
        if q >= n:
            q -= n
        owned = senate_cards[q]
        shown = over or (private and q == seat)
        if held is not None:
            lengths = (len(provinces[q]), len(patricians[q]), len(kept[q]), len(owned))
            found = held.get((q, shown))
            if found is not None and found[0] == lengths:
                obs[at : at + _SC_SIZE] = found[1]
                at += _SC_SIZE
                continue
        hkey = (
            tuple(provinces[q]),
            tuple(patricians[q]),
            tuple(kept[q]),
            len(owned),
            tuple(owned) if shown else (),
        )
        segment = _holding(hkey)
        if held is not None:
            held[(q, shown)] = (lengths, segment)
        obs[at : at + _SC_SIZE] = segment
        at += _SC_SIZE


_SlotKey = tuple[int, int, int, tuple[int, ...], tuple[int, int] | None, int]
_slot_cache: dict[_SlotKey, array[float]] = {}


def _slot(key: _SlotKey) -> array[float]:
    """One ``slot`` block's counts, Temple group, straight and draws (cached by value)."""
    dice, tokens, latrine, group, straight, drawn = key
    segment = array("f", bytes(4 * _S_SIZE))
    segment[_S_DICE] = dice
    segment[_S_TOKENS] = tokens
    segment[_S_LATRINE] = latrine
    if group:
        segment[_S_TEMPLE : _S_TEMPLE + 6] = _DICE_COUNTS[group]
    if straight is not None:
        segment[_S_SENATE : _S_SENATE + 6] = _STRAIGHTS[straight]
    segment[_S_DRAWN] = drawn
    if len(_slot_cache) >= _CACHE_LIMIT:
        _slot_cache.clear()
    _slot_cache[key] = segment
    return segment


def observation_tensor(
    state: State,
    seat: int,
    out: npt.NDArray[np.float32] | None = None,
    private: bool = True,
    memo: Memo | None = None,
) -> npt.NDArray[np.float32]:
    """The observation of ``state`` for ``seat``: float32, shape ``(OBSERVATION_SIZE,)``.

    A fresh array (or ``out``, filled in place). With ``private=False`` the
    observer's own secrets are left out too: a public observation, for
    OpenSpiel's public observers.

    Built by the compiled builder when it is installed (:data:`BUILDER`), else
    by :func:`python_observation_tensor`; both give the same tensor. ``memo``
    only speeds up the pure-Python builder.
    """
    fast = _FAST
    if fast is None:
        return python_observation_tensor(state, seat, out, private, memo)
    if not 0 <= seat < state.players:
        raise ValueError(f"seat {seat} does not exist in a {state.players}-player game")
    result: npt.NDArray[np.float32] = fast.observation(state, seat, private)
    if out is not None:
        out[:] = result
        return out
    return result


def python_observation_tensor(
    state: State,
    seat: int,
    out: npt.NDArray[np.float32] | None = None,
    private: bool = True,
    memo: Memo | None = None,
) -> npt.NDArray[np.float32]:
    """:func:`observation_tensor` in pure Python (used where the compiled builder is absent).

    ``memo`` (a :class:`Memo`) is for an environment that plays one game
    forward: it lets the card holdings, most of the tensor, be reused from
    earlier steps of the same game. The result is identical without it.
    """
    n = state.players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} does not exist in a {n}-player game")
    phase = state.phase
    over = phase == _GAME_OVER
    if memo is not None and phase == _DECIDE:
        last = memo.last
        history = state.history
        if (
            last is not None
            and last[0] == seat
            and last[1] == private
            and last[2] + 2 == len(history)
            and history[-2][0] == "R"
            and history[-1][0] == "r"  # roll:
        ):
            obs = last[3][:]
            obs[_G_ROLL : _G_ROLL + 6] = _DICE_COUNTS[state.roll]
            obs[_S_START_AT + _S_TOKENS] = state.tokens[seat]
            return _finish(obs, out, memo, seat, private, len(history))
    obs = _ZERO[:]
    if memo is not None and phase == _DECIDE:
        region = memo.region
        found = region.get((seat, private))
        if found is not None and found[0] == state.round:
            obs[_CARDS_START:_CARDS_END] = found[1]
        else:
            _write_cards(obs, state, seat, private, over, memo)
            region[(seat, private)] = (state.round, obs[_CARDS_START:_CARDS_END])
    else:
        _write_cards(obs, state, seat, private, over, memo)

    # --- global -----------------------------------------------------------
    obs[_G_PLAYERS + n - _MIN_PLAYERS] = 1.0
    obs[_G_ROUND + min(state.round, state.rounds - 1)] = 1.0
    obs[_G_PHASE + phase] = 1.0
    if over:
        obs[_G_OVER] = 1.0
    if state.roll:
        obs[_G_ROLL : _G_ROLL + 6] = _DICE_COUNTS[state.roll]
    if state.kept_dice:
        obs[_G_KEPT : _G_KEPT + 6] = _DICE_COUNTS[state.kept_dice]
    if phase == _REROLL_PHASE:
        obs[_G_REROLLING] = state.reroll_count
    if state.fortuna_pending:
        obs[_G_PENDING] = state.fortuna_pending
    if state.ending:
        obs[_G_ENDING] = 1.0
    value_at = _G_FVALUE - 1
    owner_at = _G_FOWNER - seat
    for value, owner in state.forum:
        obs[value_at + value] = 1.0
        obs[owner_at + owner if owner >= seat else owner_at + owner + n] = 1.0
        value_at += 6
        owner_at += MAX_SEATS
    obs[_G_DECK_P] = len(state.province_pool)
    obs[_G_DECK_N] = len(state.patrician_pool)
    obs[_G_DECK_K] = len(state.senate_pool) + len(state.senate_bottom)
    stack = state.fortuna_stack
    discards = state.fortuna_discards
    obs[_G_STACK] = stack[1] + stack[2] + stack[3]
    obs[_G_DISCARDS] = discards[1]
    obs[_G_DISCARDS + 1] = discards[2]
    obs[_G_DISCARDS + 2] = discards[3]
    hand = state.senate_hand
    if hand:
        obs[_G_HAND_SIZE] = len(hand)

    # --- the observer's own secrets -----------------------------------------
    if private:
        for value in state.fortuna_drawn[seat]:
            obs[_P_DRAWN - 1 + value] += 1.0
        if hand and sees_senate_hand(state, seat):
            for card in hand:
                obs[_P_HAND + _SENATE_INDEX[card]] += 1.0
        for card, placer in state.senate_bottom:
            if placer == seat:
                obs[_P_BOTTOM + _SENATE_INDEX[card]] += 1.0

    # --- seat slots, rotated so that slot 0 is the observer -----------------
    dice_left = state.dice_left
    tokens = state.tokens
    latrine = state.latrine
    straights = state.senate
    drawn = state.fortuna_drawn
    temple = state.temple if n >= 4 else None
    slot_cache = _slot_cache
    at = _S_START_AT
    for slot in range(n):
        q = seat + slot
        if q >= n:
            q -= n
        skey = (
            dice_left[q],
            tokens[q],
            latrine[q],
            temple[q] if temple is not None else (),
            straights[q],
            len(drawn[q]),
        )
        obs[at : at + _S_SIZE] = slot_cache.get(skey) or _slot(skey)
        at += _S_SIZE
    obs[_S_START_AT + ((state.start - seat) % n) * _S_SIZE + _S_START] = 1.0
    if phase >= _DECIDE and not over:
        obs[_S_START_AT + ((state.player - seat) % n) * _S_SIZE + _S_MOVE] = 1.0
    for rank, q in enumerate(state.senate_takers):
        obs[_S_START_AT + ((q - seat) % n) * _S_SIZE + _S_RANK + rank] = 1.0
    for (owner, value), count in state.castrum.items():
        obs[_S_START_AT + ((owner - seat) % n) * _S_SIZE + _S_CASTRUM - 1 + value] = count
    return _finish(obs, out, memo, seat, private, len(state.history))


def _finish(
    obs: array[float],
    out: npt.NDArray[np.float32] | None,
    memo: Memo | None,
    seat: int,
    private: bool,
    events: int,
) -> npt.NDArray[np.float32]:
    """Hand ``obs`` to numpy (no copy), keeping a private copy in the memo."""
    if memo is not None:
        memo.last = (seat, private, events, obs[:])
    result: npt.NDArray[np.float32] = np.ndarray((OBSERVATION_SIZE,), _FLOAT32, obs)
    if out is not None:
        out[:] = result
        return out
    return result


# ------------------------------------------------------------------- compiled


def _load_compiled() -> ModuleType | None:
    """The compiled builders (:mod:`alea.envs._fast`), configured, or ``None``.

    :mod:`alea.envs.encoding` decides whether they are used (and configures the
    mask, which :func:`compiled_observe` builds too); this adds the layout.
    """
    _fast = COMPILED
    if _fast is None:
        return None
    layout = {f.name: _OFF[f.name] for f in FIELDS}
    for f in FIELDS:
        if f.block in ("global", "private", "cards"):
            layout[f.name] += _BLOCK[f.block][0]
    layout.update(
        size=OBSERVATION_SIZE,
        max_seats=MAX_SEATS,
        slot_cards_start=_SC_START,
        slot_cards_size=_SC_SIZE,
        slot_start=_S_START_AT,
        slot_size=_S_SIZE,
        phase_reroll=_REROLL_PHASE,
        phase_decide=_DECIDE,
        phase_over=_GAME_OVER,
        min_players=_MIN_PLAYERS,
    )
    _fast.configure(
        layout, dict(_PROVINCE_INDEX), dict(_PATRICIAN_INDEX), dict(_SENATE_INDEX), sees_senate_hand
    )
    return _fast


_FAST: Final = _load_compiled()
#: Which builder :func:`observation_tensor` uses: ``"compiled"`` or ``"python"``.
BUILDER: Final = "python" if _FAST is None else "compiled"

#: The environments' whole per-step observation in one compiled call, or ``None``
#: without the extension: ``compiled_observe(state, seat, to_move)`` returns
#: ``{"observation": observation_tensor(state, seat), "action_mask": mask}``
#: where the mask is :func:`alea.envs.encoding.legal_mask` if ``to_move``, else zeros.
compiled_observe: Final[Callable[[State, int, bool], dict[str, npt.NDArray[Any]]] | None] = (
    None if _FAST is None else _FAST.observe
)
