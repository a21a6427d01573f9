"""The observation and mask builders against a plain reference, compiled and pure Python alike.

``alea.envs`` builds observations and masks with a compiled extension when it
is installed and in pure Python otherwise (``BUILDER``). Both are tuned for
speed, reading the engine's state directly, so both are checked here against
the slow reference of ``tests/envs/reference.py``, which reads nothing but the
engine's knowledge of the observer (:mod:`alea.iacta.knowledge`, the one place
that decides what a seat may see), over every decision and chance node of
random games of every player count, and the final position.
"""

from __future__ import annotations

import os
import random

import pytest

np = pytest.importorskip("numpy", reason="alea.envs needs numpy: pip install 'alea[rl]'")

import alea.iacta as iacta  # noqa: E402
from alea.envs import encoding, observation  # noqa: E402
from alea.envs.encoding import NUM_DISTINCT_ACTIONS, legal_ids, legal_mask, python_legal_mask  # noqa: E402
from alea.envs.observation import (  # noqa: E402
    Memo,
    observation_tensor,
    python_observation_tensor,
)

from .reference import reference_observation  # noqa: E402


def _states(players: int, seed: int) -> list[iacta.State]:
    """Every node of one random game (chance nodes too), as independent copies."""
    rng = random.Random(seed)
    state = iacta.new_game(players)
    found = [state.clone()]
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        found.append(state.clone())
    return found


def test_ci_uses_the_compiled_builder() -> None:
    """Where the extension must exist (CI sets ALEA_REQUIRE_COMPILED=1), it is in use."""
    if os.environ.get("ALEA_REQUIRE_COMPILED") != "1":
        pytest.skip("ALEA_REQUIRE_COMPILED is not set: either builder is acceptable here")
    assert observation.BUILDER == "compiled"
    assert encoding._FAST is not None


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_observations_match_the_reference(players: int) -> None:
    """Every seat, private and public, at every node of two games (every 3rd node in full)."""
    for seed in range(2):
        memos = {seat: Memo() for seat in range(players)}
        for index, state in enumerate(_states(players, 100 * players + seed)):
            for seat in range(players):
                # The memo must see every node of its game, as an environment's does.
                remembered = python_observation_tensor(state, seat, memo=memos[seat])
                if index % 3 and not state.is_terminal():
                    continue
                for private in (True, False):
                    expected = reference_observation(state, seat, private)
                    got = observation_tensor(state, seat, private=private)
                    assert np.array_equal(got, expected), (index, seat, private)
                    plain = python_observation_tensor(state, seat, private=private)
                    assert np.array_equal(plain, expected), (index, seat, private)
                assert np.array_equal(remembered, reference_observation(state, seat))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_masks_match_the_legal_actions(players: int) -> None:
    for state in _states(players, 7 * players):
        mask = legal_mask(state)
        assert mask.dtype == np.int8 and mask.shape == (NUM_DISTINCT_ACTIONS,)
        assert np.flatnonzero(mask).tolist() == legal_ids(state)
        assert np.array_equal(python_legal_mask(state), mask)


def test_builders_return_fresh_arrays() -> None:
    """Each call owns its memory: holding on to an observation or mask is safe."""
    state = _states(4, 3)[40]
    assert not np.shares_memory(observation_tensor(state, 0), observation_tensor(state, 0))
    assert not np.shares_memory(legal_mask(state), legal_mask(state))
    obs = observation_tensor(state, 0)
    obs[:] = 9  # writable, and writing to it changes nothing else
    assert not np.array_equal(observation_tensor(state, 0), obs)
