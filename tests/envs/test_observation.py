"""The per-seat observation: fixed shape, within bounds, rotated, and blind to others' secrets."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="alea.envs needs numpy: pip install 'alea[rl]'")

import alea.iacta as iacta  # noqa: E402
from alea.envs.observation import (  # noqa: E402
    BLOCKS,
    FIELDS,
    HIGH,
    MAX_SEATS,
    OBSERVATION_SIZE,
    Memo,
    field_slices,
    observation_string,
    observation_tensor,
    python_observation_tensor,
)
from alea.iacta.determinize import determinize  # noqa: E402

from .conftest import random_game  # noqa: E402


def test_layout_adds_up() -> None:
    assert OBSERVATION_SIZE == 839
    assert HIGH.shape == (OBSERVATION_SIZE,) and HIGH.dtype == np.float32
    assert (HIGH > 0).all()
    total = 0
    for block, repeat in BLOCKS:
        total += repeat * sum(f.size for f in FIELDS if f.block == block)
    assert total == OBSERVATION_SIZE
    covered = np.zeros(OBSERVATION_SIZE, dtype=int)
    for slot in [None, *range(MAX_SEATS)]:
        for part in field_slices(slot).values():
            covered[part] += 1
    assert (covered == 1).all()  # every entry belongs to exactly one field


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_shape_bounds_rotation_and_memo(players: int) -> None:
    """Same shape for every count; within HIGH; slot 0 is the observer; padding is zero;
    the environment memo never changes a tensor."""
    for seed in range(3):
        memo = Memo()
        for state in random_game(players, 10 * players + seed):
            mover = state.current_player()
            for seat in range(players):
                obs = observation_tensor(state, seat)
                assert obs.shape == (OBSERVATION_SIZE,) and obs.dtype == np.float32
                assert (obs >= 0).all() and (obs <= HIGH).all()
                assert obs[field_slices()["players"]][players - 2] == 1
                for slot in range(MAX_SEATS):
                    fields = field_slices(slot)
                    present = obs[fields["present"]][0]
                    assert present == (1.0 if slot < players else 0.0)
                    if slot >= players:
                        assert not any(obs[s].any() for s in fields.values())
                    else:
                        q = (seat + slot) % players
                        assert obs[fields["dice"]][0] == state.dice_left[q]
                        assert obs[fields["tokens"]][0] == state.tokens[q]
                        assert obs[fields["to_move"]][0] == (1.0 if q == mover else 0.0)
                        assert obs[fields["patricians"]].sum() == len(state.patricians[q])
            if mover >= 0:
                remembered = python_observation_tensor(state, mover, memo=memo)
                assert np.array_equal(remembered, observation_tensor(state, mover))


def test_out_parameter_and_fresh_arrays() -> None:
    state = next(random_game(3, 5))
    a = observation_tensor(state, 0)
    b = observation_tensor(state, 0)
    assert not np.shares_memory(a, b)
    out = np.full(OBSERVATION_SIZE, 7.0, dtype=np.float32)
    assert observation_tensor(state, 0, out=out) is out
    assert np.array_equal(out, a)
    with pytest.raises(ValueError):
        observation_tensor(state, 3)


def _position_with_secrets(players: int, seed: int) -> iacta.State:
    """A random game advanced to a decision where seat 1 holds Senate cards and, with
    4–5 players, Fortuna tiles drawn this round: secrets seat 0 must not see."""
    for state in random_game(players, seed):
        if state.is_terminal() or not state.senate_cards[1] or not state.senate_pool:
            continue
        if players >= 4 and not state.fortuna_drawn[1]:
            continue
        return state.clone()
    raise AssertionError("no such position in this game")


def _swap_hidden(state: iacta.State) -> iacta.State:
    """The same position with seat 1's secrets changed and every public fact kept."""
    other = state.clone()
    cards = other.senate_cards[1]
    pool = other.senate_pool
    replacement = next(c for c in pool if c not in cards)
    pool[pool.index(replacement)] = cards[0]
    cards[0] = replacement
    drawn = other.fortuna_drawn[1]
    if drawn:
        old = drawn[0]
        new = next(v for v in (1, 2, 3) if v != old and other.fortuna_stack[v] > 0)
        drawn[0] = new
        other.fortuna_stack[new] -= 1
        other.fortuna_stack[old] += 1
    return other


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_other_seats_secrets_do_not_show(players: int, seed: int) -> None:
    """Two states that differ only in another seat's hidden cards look the same to seat 0."""
    state = _position_with_secrets(players, seed)
    other = _swap_hidden(state)
    assert other.senate_cards[1] != state.senate_cards[1]
    assert state.view(0) == other.view(0)  # the engine agrees it is the same to seat 0
    for seat in (0, *range(2, players)):
        assert np.array_equal(observation_tensor(state, seat), observation_tensor(other, seat))
        assert observation_string(state, seat) == observation_string(other, seat)
    # ... and the owner does see the difference, so the field is not simply empty.
    assert not np.array_equal(observation_tensor(state, 1), observation_tensor(other, 1))


@pytest.mark.parametrize("players", [2, 4, 5])
def test_determinised_states_look_the_same(players: int) -> None:
    """Every state determinize() samples from seat 0's view gives seat 0 the same tensor."""
    rng = random.Random(players)
    positions = [s.clone() for s in random_game(players, 77 + players)][::23]
    differing = 0
    for state in positions:
        view = state.view(0)
        expected = observation_tensor(state, 0)
        for _ in range(3):
            sampled = determinize(view, rng)
            assert np.array_equal(observation_tensor(sampled, 0), expected)
            differing += sampled.senate_cards != state.senate_cards
    assert differing > 0


def test_everything_is_shown_at_the_end() -> None:
    final = list(random_game(3, 9))[-1]
    assert final.is_terminal()
    obs = observation_tensor(final, 0)
    for slot in range(3):
        q = slot % 3
        assert obs[field_slices(slot)["senate_cards"]].sum() == len(final.senate_cards[q])
    assert obs[field_slices()["game_over"]][0] == 1
    text = observation_string(final, 0)
    assert "Final scores" in text


def test_public_observation_hides_own_secrets_too() -> None:
    state = _position_with_secrets(4, 3)
    private = observation_tensor(state, 1)
    public = observation_tensor(state, 1, private=False)
    assert public[field_slices(0)["senate_cards"]].sum() == 0
    assert private[field_slices(0)["senate_cards"]].sum() == len(state.senate_cards[1])
    assert public[field_slices()["own_fortuna_drawn"]].sum() == 0


def test_observation_string_is_readable() -> None:
    state = next(random_game(4, 2))
    text = observation_string(state, 0)
    assert "you are seat 0" in text and "Roll:" in text and "Forum:" in text
    assert "spectator" in observation_string(state, None)
