# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Compiled builders of the observation tensor and the legal-action mask.

Why this exists: the research environments build both at every step, and the
rules engine they wrap takes only a few tens of microseconds per decision, so
in pure Python these two builders cost more than the engine itself (issue 7:
the PettingZoo wrapper must keep at least half of the engine's speed). This
module does exactly what :func:`alea.envs.observation.observation_tensor` and
:func:`alea.envs.encoding.legal_mask` do in Python, field by field, reading the
same engine state. What a seat may see is decided by the engine
(:func:`alea.iacta.knowledge.knowledge`); reading the state directly is only a
shortcut, so ``tests/envs/test_builders.py`` checks the tensor, byte for byte,
against a plain reference built from that knowledge at every node of random
games of every player count. When the extension cannot be built (no C
compiler), the pure-Python builders are used instead.

It imports nothing from the project: :func:`configure` hands it the layout
(offsets, card indices, engine phases) and the engine's own rule for who has
seen the Senate hand once, so each has one source of truth.
"""

cimport numpy as cnp
from libc.string cimport memcpy

cnp.import_array()

cdef Py_ssize_t SIZE, MAX_SEATS
cdef Py_ssize_t G_PLAYERS, G_ROUND, G_OVER, G_PHASE, G_ROLL, G_KEPT, G_REROLLING
cdef Py_ssize_t G_PENDING, G_ENDING, G_FVALUE, G_FOWNER, G_DECK_P, G_DECK_N, G_DECK_K
cdef Py_ssize_t G_STACK, G_DISCARDS, G_HAND_SIZE, P_DRAWN, P_HAND, P_BOTTOM
cdef Py_ssize_t CARDS_START, CARDS_HALF, NP
cdef Py_ssize_t SC_START, SC_SIZE, SC_PRESENT, SC_PROVINCES, SC_PATRICIANS, SC_KEPT
cdef Py_ssize_t SC_COUNT, SC_SENATE
cdef Py_ssize_t S_START_AT, S_SIZE, S_START, S_MOVE, S_DICE, S_TOKENS, S_LATRINE
cdef Py_ssize_t S_TEMPLE, S_SENATE, S_CASTRUM, S_DRAWN, S_RANK
cdef Py_ssize_t PHASE_REROLL, PHASE_DECIDE, PHASE_OVER, MIN_PLAYERS
cdef dict PROVINCE_INDEX, PATRICIAN_INDEX, SENATE_INDEX
cdef object SEES_SENATE_HAND

cdef Py_ssize_t NUM_ACTIONS, REROLL_END
cdef dict ACTION_INDEX, REROLL_CACHE
cdef object REROLL_MASK


def configure(dict layout, dict provinces, dict patricians, dict senate, object sees_senate_hand):
    """Take the observation layout (absolute offsets) and the card indices."""
    global SIZE, MAX_SEATS, G_PLAYERS, G_ROUND, G_OVER, G_PHASE, G_ROLL, G_KEPT, G_REROLLING
    global G_PENDING, G_ENDING, G_FVALUE, G_FOWNER, G_DECK_P, G_DECK_N, G_DECK_K
    global G_STACK, G_DISCARDS, G_HAND_SIZE, P_DRAWN, P_HAND, P_BOTTOM
    global CARDS_START, CARDS_HALF, NP
    global SC_START, SC_SIZE, SC_PRESENT, SC_PROVINCES, SC_PATRICIANS, SC_KEPT, SC_COUNT
    global SC_SENATE, S_START_AT, S_SIZE, S_START, S_MOVE, S_DICE, S_TOKENS, S_LATRINE
    global S_TEMPLE, S_SENATE, S_CASTRUM, S_DRAWN, S_RANK, PHASE_REROLL, PHASE_DECIDE
    global PHASE_OVER, MIN_PLAYERS, PROVINCE_INDEX, PATRICIAN_INDEX, SENATE_INDEX, SEES_SENATE_HAND
    SIZE = layout["size"]
    MAX_SEATS = layout["max_seats"]
    G_PLAYERS = layout["players"]
    G_ROUND = layout["round"]
    G_OVER = layout["game_over"]
    G_PHASE = layout["phase"]
    G_ROLL = layout["roll"]
    G_KEPT = layout["kept"]
    G_REROLLING = layout["rerolling"]
    G_PENDING = layout["fortuna_pending"]
    G_ENDING = layout["ending"]
    G_FVALUE = layout["forum_value"]
    G_FOWNER = layout["forum_owner"]
    G_DECK_P = layout["deck_provinces"]
    G_DECK_N = layout["deck_patricians"]
    G_DECK_K = layout["deck_senate"]
    G_STACK = layout["fortuna_stack"]
    G_DISCARDS = layout["fortuna_discards"]
    G_HAND_SIZE = layout["senate_hand_size"]
    P_DRAWN = layout["own_fortuna_drawn"]
    P_HAND = layout["senate_hand"]
    P_BOTTOM = layout["senate_bottom"]
    CARDS_START = layout["revealed_provinces"]
    CARDS_HALF = layout["removed_provinces"]
    NP = len(provinces)
    SC_START = layout["slot_cards_start"]
    SC_SIZE = layout["slot_cards_size"]
    SC_PRESENT = layout["present"]
    SC_PROVINCES = layout["provinces"]
    SC_PATRICIANS = layout["patricians"]
    SC_KEPT = layout["fortuna_kept"]
    SC_COUNT = layout["senate_count"]
    SC_SENATE = layout["senate_cards"]
    S_START_AT = layout["slot_start"]
    S_SIZE = layout["slot_size"]
    S_START = layout["start_player"]
    S_MOVE = layout["to_move"]
    S_DICE = layout["dice"]
    S_TOKENS = layout["tokens"]
    S_LATRINE = layout["latrine"]
    S_TEMPLE = layout["temple"]
    S_SENATE = layout["senate_straight"]
    S_CASTRUM = layout["castrum"]
    S_DRAWN = layout["fortuna_drawn"]
    S_RANK = layout["senate_rank"]
    PHASE_REROLL = layout["phase_reroll"]
    PHASE_DECIDE = layout["phase_decide"]
    PHASE_OVER = layout["phase_over"]
    MIN_PLAYERS = layout["min_players"]
    PROVINCE_INDEX = provinces
    PATRICIAN_INDEX = patricians
    SENATE_INDEX = senate
    SEES_SENATE_HAND = sees_senate_hand


def configure_mask(
    Py_ssize_t size, dict index, Py_ssize_t reroll_end, dict reroll_cache, object reroll_mask
):
    """Take the action space: its size, the action -> index table, where the ``R:``
    block ends (it starts at 0), and the per-roll cache of that block with its filler."""
    global NUM_ACTIONS, ACTION_INDEX, REROLL_END, REROLL_CACHE, REROLL_MASK
    NUM_ACTIONS = size
    ACTION_INDEX = index
    REROLL_END = reroll_end
    REROLL_CACHE = reroll_cache
    REROLL_MASK = reroll_mask


cdef inline void _counts(float* o, object dice):
    """Add one to entry v - 1 for every die v (a tuple or list of 1–6)."""
    cdef long v
    for d in dice:
        v = d
        o[v - 1] += 1.0


cdef inline Py_ssize_t _slot(Py_ssize_t q, Py_ssize_t seat, Py_ssize_t n):
    """The slot of seat ``q`` for observer ``seat`` (slot 0 is the observer)."""
    q -= seat
    return q + n if q < 0 else q


cdef cnp.ndarray _zeros(Py_ssize_t size, int kind):
    """A fresh zero-filled one-dimensional array, made by numpy's C API (no Python call)."""
    cdef cnp.npy_intp dims[1]
    dims[0] = size
    return cnp.PyArray_ZEROS(1, dims, kind, 0)


def observation(object state, Py_ssize_t seat, bint private):
    """The observation of ``state`` for ``seat``: a fresh float32 array."""
    cdef cnp.ndarray array = _zeros(SIZE, cnp.NPY_FLOAT32)
    _fill_observation(<float*> cnp.PyArray_DATA(array), state, seat, private)
    return array


def mask(object state):
    """The legal-action mask of ``state``: a fresh int8 array (1 = legal)."""
    cdef cnp.ndarray array = _zeros(NUM_ACTIONS, cnp.NPY_INT8)
    _fill_mask(<char*> cnp.PyArray_DATA(array), state)
    return array


def observe(object state, Py_ssize_t seat, bint to_move):
    """A PettingZoo observation: ``{"observation": ..., "action_mask": ...}`` for ``seat``.

    The mask is all zeros unless ``to_move`` (the seat is the one deciding).
    One call for the environment's per-step work.
    """
    cdef cnp.ndarray obs = _zeros(SIZE, cnp.NPY_FLOAT32)
    cdef cnp.ndarray legal = _zeros(NUM_ACTIONS, cnp.NPY_INT8)
    _fill_observation(<float*> cnp.PyArray_DATA(obs), state, seat, True)
    if to_move:
        _fill_mask(<char*> cnp.PyArray_DATA(legal), state)
    return {"observation": obs, "action_mask": legal}


cdef int _fill_observation(float* o, object state, Py_ssize_t seat, bint private) except -1:
    """Write the observation of ``state`` for ``seat`` into ``o`` (all zeros on entry)."""
    cdef Py_ssize_t n = state.players
    cdef Py_ssize_t phase = state.phase
    cdef bint over = phase == PHASE_OVER
    cdef Py_ssize_t rnd = state.round, rounds = state.rounds
    cdef Py_ssize_t i, q, slot, base, lo, hi, v
    cdef list row

    # --- global -----------------------------------------------------------
    o[G_PLAYERS + n - MIN_PLAYERS] = 1.0
    o[G_ROUND + (rnd if rnd < rounds - 1 else rounds - 1)] = 1.0
    o[G_PHASE + phase] = 1.0
    if over:
        o[G_OVER] = 1.0
    _counts(o + G_ROLL, state.roll)
    _counts(o + G_KEPT, state.kept_dice)
    if phase == PHASE_REROLL:
        o[G_REROLLING] = <long> state.reroll_count
    o[G_PENDING] = <long> state.fortuna_pending
    if state.ending:
        o[G_ENDING] = 1.0
    i = 0
    for column in <list> state.forum:
        v = (<tuple> column)[0]
        q = (<tuple> column)[1]
        o[G_FVALUE + 6 * i + v - 1] = 1.0
        o[G_FOWNER + MAX_SEATS * i + _slot(q, seat, n)] = 1.0
        i += 1
    o[G_DECK_P] = len(state.province_pool)
    o[G_DECK_N] = len(state.patrician_pool)
    o[G_DECK_K] = len(state.senate_pool) + len(state.senate_bottom)
    stack = state.fortuna_stack
    discards = state.fortuna_discards
    o[G_STACK] = <long> stack[1] + <long> stack[2] + <long> stack[3]
    o[G_DISCARDS] = <long> discards[1]
    o[G_DISCARDS + 1] = <long> discards[2]
    o[G_DISCARDS + 2] = <long> discards[3]
    hand = state.senate_hand
    if hand:
        o[G_HAND_SIZE] = len(hand)

    # --- the observer's own secrets -----------------------------------------
    if private:
        _counts(o + P_DRAWN, (<list> state.fortuna_drawn)[seat])
        if hand and SEES_SENATE_HAND(state, seat):
            for card in hand:
                o[P_HAND + <Py_ssize_t> SENATE_INDEX[card]] += 1.0
        for entry in <list> state.senate_bottom:
            if <Py_ssize_t> (<tuple> entry)[1] == seat:
                o[P_BOTTOM + <Py_ssize_t> SENATE_INDEX[(<tuple> entry)[0]]] += 1.0

    # --- the cards on the board ----------------------------------------------
    for card in state.revealed_provinces:
        o[CARDS_START + <Py_ssize_t> PROVINCE_INDEX[card]] = 1.0
    for card in state.revealed_patricians:
        o[CARDS_START + NP + <Py_ssize_t> PATRICIAN_INDEX[card]] = 1.0
    for card in state.removed_provinces:
        o[CARDS_HALF + <Py_ssize_t> PROVINCE_INDEX[card]] = 1.0
    for card in state.removed_patricians:
        o[CARDS_HALF + NP + <Py_ssize_t> PATRICIAN_INDEX[card]] = 1.0

    # --- seat slots, rotated so that slot 0 is the observer -----------------
    cdef list provinces = state.provinces
    cdef list patricians = state.patricians
    cdef list kept = state.fortuna_kept
    cdef list senate_cards = state.senate_cards
    cdef list dice_left = state.dice_left
    cdef list tokens = state.tokens
    cdef list latrine = state.latrine
    cdef list straights = state.senate
    cdef list drawn = state.fortuna_drawn
    cdef list temple = state.temple if n >= 4 else None
    for slot in range(n):
        q = seat + slot
        if q >= n:
            q -= n
        base = SC_START + slot * SC_SIZE
        o[base + SC_PRESENT] = 1.0
        for card in <list> provinces[q]:
            o[base + SC_PROVINCES + <Py_ssize_t> PROVINCE_INDEX[card]] = 1.0
        for card in <list> patricians[q]:
            o[base + SC_PATRICIANS + <Py_ssize_t> PATRICIAN_INDEX[card]] = 1.0
        _counts(o + base + SC_KEPT, kept[q])
        row = senate_cards[q]
        o[base + SC_COUNT] = len(row)
        if over or (private and q == seat):
            for card in row:
                o[base + SC_SENATE + <Py_ssize_t> SENATE_INDEX[card]] += 1.0
        base = S_START_AT + slot * S_SIZE
        o[base + S_DICE] = <long> dice_left[q]
        o[base + S_TOKENS] = <long> tokens[q]
        o[base + S_LATRINE] = <long> latrine[q]
        if temple is not None:
            _counts(o + base + S_TEMPLE, temple[q])
        straight = straights[q]
        if straight is not None:
            lo = (<tuple> straight)[0]
            hi = (<tuple> straight)[1]
            for v in range(lo, hi + 1):
                o[base + S_SENATE + v - 1] = 1.0
        o[base + S_DRAWN] = len(<list> drawn[q])
    o[S_START_AT + _slot(state.start, seat, n) * S_SIZE + S_START] = 1.0
    if phase >= PHASE_DECIDE and not over:
        o[S_START_AT + _slot(state.player, seat, n) * S_SIZE + S_MOVE] = 1.0
    i = 0
    for q in state.senate_takers:
        o[S_START_AT + _slot(q, seat, n) * S_SIZE + S_RANK + i] = 1.0
        i += 1
    for key, count in (<dict> state.castrum).items():
        q = (<tuple> key)[0]
        v = (<tuple> key)[1]
        o[S_START_AT + _slot(q, seat, n) * S_SIZE + S_CASTRUM + v - 1] = <long> count
    return 0


cdef int _fill_mask(char* m, object state) except -1:
    """Write the legal-action mask of ``state`` into ``m`` (all zeros on entry).

    As in the Python builder, when the legal list ends with exactly the roll's
    re-rolls (the ``R:`` block, indices below ``REROLL_END``), that block is
    copied whole from the per-roll cache.
    """
    cdef list legal = state.legal_actions()
    cdef Py_ssize_t count = len(legal), first, i
    cdef bytes block
    roll = state.roll
    if roll and count > 1 and <Py_ssize_t> ACTION_INDEX[legal[count - 1]] < REROLL_END:
        found = REROLL_CACHE.get(roll)
        if found is None:
            found = REROLL_MASK(roll)
        block = (<tuple> found)[1]
        first = count - <Py_ssize_t> (<tuple> found)[0]
        if first >= 0 and <Py_ssize_t> ACTION_INDEX[legal[first]] < REROLL_END and (
            first == 0 or <Py_ssize_t> ACTION_INDEX[legal[first - 1]] >= REROLL_END
        ):
            memcpy(m, <char*> block, len(block))
            count = first
    for i in range(count):
        m[<Py_ssize_t> ACTION_INDEX[legal[i]]] = 1
    return 0
