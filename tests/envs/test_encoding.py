"""The fixed action space: complete, stable, invertible, and the legal mask matches."""

from __future__ import annotations

import hashlib
from itertools import combinations_with_replacement

import pytest

np = pytest.importorskip("numpy", reason="alea.envs needs numpy: pip install 'alea[rl]'")

import alea.iacta as iacta  # noqa: E402
from alea.envs import encoding  # noqa: E402
from alea.envs.encoding import (  # noqa: E402
    ACTION_BLOCKS,
    NUM_CHANCE_OUTCOMES,
    NUM_DISTINCT_ACTIONS,
    OUTCOME_BLOCKS,
    decode,
    decode_outcome,
    encode,
    encode_outcome,
    legal_ids,
    legal_mask,
)
from alea.iacta.notation import Action, Outcome  # noqa: E402

from .conftest import random_game  # noqa: E402

#: Digest of every action's notation in index order: changing it is a new
#: ENCODING_VERSION and a note in docs/envs.md, never an accident.
ACTIONS_SHA256 = "935323a4baccf1e7c9df600c8939c96033df940b3cc981e6aa8a74a16eef06ca"
OUTCOMES_SHA256 = "36a565d154a8069e26384d1d7a5e89aa9a567c44792406c7fc2af7eff34c2bc9"


def _digest(tokens: list[str]) -> str:
    return hashlib.sha256("\n".join(tokens).encode()).hexdigest()


def test_sizes_and_blocks() -> None:
    assert NUM_DISTINCT_ACTIONS == encoding.num_distinct_actions() == 6201
    assert NUM_CHANCE_OUTCOMES == 3084
    # Multisets of 1..8 dice over six values: C(14, 6) - 1 (the empty one).
    multisets = sum(1 for k in range(1, 9) for _ in combinations_with_replacement(range(6), k))
    assert multisets == 3002
    assert [(kind, count) for kind, _, count in ACTION_BLOCKS] == [
        ("R", 3002),
        ("T", 3002),
        ("S", 56),
        ("C", 48),
        ("F", 8),
        ("L", 6),
        ("K", 18),
        ("P", 25),
        ("N", 36),
    ]
    position = 0
    for _, first, count in ACTION_BLOCKS:
        assert first == position
        position += count
    assert position == NUM_DISTINCT_ACTIONS
    assert sum(count for _, _, count in OUTCOME_BLOCKS) == NUM_CHANCE_OUTCOMES


def test_encoding_is_frozen() -> None:
    assert encoding.ENCODING_VERSION == 1
    assert _digest([str(decode(i)) for i in range(NUM_DISTINCT_ACTIONS)]) == ACTIONS_SHA256
    assert _digest([str(decode_outcome(i)) for i in range(NUM_CHANCE_OUTCOMES)]) == OUTCOMES_SHA256


@pytest.mark.parametrize(
    ("token", "index"),
    [
        ("R:1", 0),
        ("R:66666666", 3001),
        ("T:1", 3002),
        ("T:56", 3027),
        ("S:1", 6004),
        ("S:16", 6014),
        ("S:345", 6037),
        ("S:123456", 6059),
        ("C:1", 6060),
        ("C:444", 6075),
        ("C:66666666", 6107),
        ("F:1", 6108),
        ("F:14", 6114),
        ("F:23", 6115),
        ("L:2", 6117),
        ("K:I", 6122),
        ("K:XII-red/orange", 6133),
        ("K:XIII", 6139),
        ("P:red1", 6140),
        ("P:blue3", 6158),
        ("P:grey0", 6164),
        ("N:redm1", 6165),
        ("N:greenw2", 6187),
        ("N:purplew3", 6200),
    ],
)
def test_documented_indices(token: str, index: int) -> None:
    """The examples of docs/envs.md."""
    assert encode(token) == index
    assert decode(index) == token


def test_round_trip_and_notation() -> None:
    for i in range(NUM_DISTINCT_ACTIONS):
        action = decode(i)
        assert isinstance(action, Action)
        assert encode(action) == i
        assert Action.parse(str(action)) is action
    for i in range(NUM_CHANCE_OUTCOMES):
        outcome = decode_outcome(i)
        assert isinstance(outcome, Outcome)
        assert encode_outcome(outcome) == i
        assert Outcome.parse(str(outcome)) is outcome


def test_bad_inputs() -> None:
    with pytest.raises(KeyError):
        encode("C:1234")  # not one value
    with pytest.raises(KeyError):
        encode("S:135")  # three runs: no straight can take these
    with pytest.raises(KeyError):
        encode("F:15")
    with pytest.raises(IndexError):
        decode(NUM_DISTINCT_ACTIONS)
    with pytest.raises(IndexError):
        decode(-1)
    with pytest.raises(IndexError):
        decode_outcome(NUM_CHANCE_OUTCOMES)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_legal_action_and_outcome_is_covered(players: int) -> None:
    """Random games: every action offered and every chance outcome has an index, and
    the mask is exactly the legal set (its fast paths included)."""
    checked = 0
    for seed in range(4):
        rng_outcomes = 0
        for state in random_game(players, 100 * players + seed):
            if state.is_terminal():
                assert not legal_mask(state).any()
                continue
            legal = state.legal_actions()
            ids = legal_ids(state)
            assert ids == sorted(encode(a) for a in legal)
            assert len(set(ids)) == len(legal)
            mask = legal_mask(state)
            assert mask.dtype == np.int8 and mask.shape == (NUM_DISTINCT_ACTIONS,)
            assert list(np.flatnonzero(mask)) == ids
            assert [decode(i) for i in ids] == sorted(legal, key=encode)
            checked += 1
            probe = state.clone()
            # The chance events that follow this decision are encodable too.
            probe.apply(legal[0])
            while probe.is_chance():
                for outcome, p in probe.chance_outcomes():
                    assert decode_outcome(encode_outcome(outcome)) == outcome
                    assert p > 0
                    rng_outcomes += 1
                probe.apply(probe.chance_outcomes()[0][0])
        assert rng_outcomes > 0
    assert checked > 300


def test_mask_is_fresh_and_writable() -> None:
    state = next(random_game(4, 1))
    a = legal_mask(state)
    b = legal_mask(state)
    assert a is not b and not np.shares_memory(a, b)
    a[:] = 0
    assert b.any()


def test_senate_block_is_every_placeable_set() -> None:
    """S: covers exactly the value sets of one or two runs (new straights and extensions)."""
    placeable = set()
    for low in range(1, 7):
        for high in range(low, 7):
            placeable.add(tuple(range(low, high + 1)))  # a new straight
            # extensions of the straight low..high at either end, or both
            for new_low in range(1, low + 1):
                for new_high in range(high, 7):
                    dice = tuple(range(new_low, low)) + tuple(range(high + 1, new_high + 1))
                    if dice:
                        placeable.add(dice)
    first, count = ACTION_BLOCKS[2][1], ACTION_BLOCKS[2][2]
    assert {decode(i).dice for i in range(first, first + count)} == placeable


def test_iacta_stays_free_of_numpy() -> None:
    """The engine must not import numpy or the RL libraries (checked in a clean process)."""
    import subprocess
    import sys

    code = (
        "import sys, alea.iacta, alea.iacta.determinize, alea.iacta.scoring; "
        "bad = [m for m in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert iacta.new_game(2).players == 2
