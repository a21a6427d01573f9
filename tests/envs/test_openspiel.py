"""The OpenSpiel game passes pyspiel.random_sim_test, and OpenSpiel's IS-MCTS plays it."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel tests need: pip install 'alea[rl]'")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from alea.bots import ask, make  # noqa: E402
from alea.envs.encoding import NUM_CHANCE_OUTCOMES, NUM_DISTINCT_ACTIONS, encode  # noqa: E402
from alea.envs.observation import OBSERVATION_SIZE, observation_tensor  # noqa: E402
from alea.envs.openspiel import (  # noqa: E402
    GAME_NAME,
    MAX_SCORE,
    AleaIactaEstState,
    max_events,
    max_game_length,
    resampler,
)


def _load(players: int, reward: str = "score") -> pyspiel.Game:
    return pyspiel.load_game(GAME_NAME, {"players": players, "reward": reward})


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_sim_test(players: int) -> None:
    """OpenSpiel's own conformance test: clone, serialise, legal actions, chance, returns."""
    pyspiel.random_sim_test(_load(players), num_sims=1, serialize=True, verbose=False)


def test_random_sim_test_win_reward() -> None:
    pyspiel.random_sim_test(_load(3, "win"), num_sims=1, serialize=False, verbose=False)


def test_game_facts() -> None:
    game = _load(4)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (kind.min_num_players, kind.max_num_players) == (2, 5)
    assert game.num_players() == 4
    assert game.num_distinct_actions() == NUM_DISTINCT_ACTIONS
    assert game.max_chance_outcomes() == NUM_CHANCE_OUTCOMES
    assert game.max_game_length() == max_game_length(4)
    assert game.max_utility() == MAX_SCORE
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]
    assert game.information_state_tensor_shape() == [OBSERVATION_SIZE + max_events(4)]
    assert pyspiel.load_game(GAME_NAME).num_players() == 4
    with pytest.raises(ValueError):
        pyspiel.load_game(GAME_NAME, {"players": 6})


@pytest.mark.parametrize("players", [2, 5])
def test_bounds_hold_in_random_games(players: int) -> None:
    """Games stay far inside the length bounds, and the tensors are the seat's own."""
    game = _load(players)
    rng = random.Random(players)
    for _ in range(2):
        state = game.new_initial_state()
        decisions = events = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                assert abs(sum(probabilities) - 1) < 1e-9
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                player = state.current_player()
                if decisions % 17 == 0:
                    expected = observation_tensor(state.engine, player)
                    assert np.array_equal(np.array(state.observation_tensor(player)), expected)
                    info = np.array(state.information_state_tensor(player))
                    assert np.array_equal(info[:OBSERVATION_SIZE], expected)
                    assert np.count_nonzero(info[OBSERVATION_SIZE:]) == len(state.history())
                    assert state.observation_string(player).startswith("Alea Iacta Est")
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
            events += 1
        assert decisions <= max_game_length(players) and events <= max_events(players)
        scores = state.returns()
        assert all(-1 <= s <= MAX_SCORE for s in scores)
        assert scores == state.engine.returns()


def test_resample_keeps_the_information_state() -> None:
    game = _load(4)
    rng = random.Random(8)
    state = game.new_initial_state()
    checked = changed = 0
    while not state.is_terminal() and checked < 12:
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probabilities)[0])
            continue
        player = state.current_player()
        if state.engine.round >= 1 and rng.random() < 0.2:
            sample = state.resample_from_infostate(
                player, pyspiel.UniformProbabilitySampler(0.0, 1.0)
            )
            assert isinstance(sample, AleaIactaEstState)
            key = state.information_state_string(player)
            assert sample.information_state_string(player) == key
            assert sample.observation_string(player) == state.observation_string(player)
            assert sample.legal_actions() == state.legal_actions()
            changed += sample.engine.senate_cards != state.engine.senate_cards
            clone = sample.clone()  # search clones samples and plays them on
            clone.apply_action(clone.legal_actions()[0])
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked >= 5 and changed >= 1


def test_information_state_hides_others_secrets() -> None:
    game = _load(4)
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        elif any(state.engine.senate_cards):
            break
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    owner = next(seat for seat, cards in enumerate(state.engine.senate_cards) if cards)
    other = (owner + 1) % 4
    text = state.information_state_string(other)
    assert "K:?" in text and "senate:?" in text
    mine = state.information_state_string(owner)
    assert any(f"K:{card}" in mine for card in state.engine.senate_cards[owner])


def test_ismcts_plays_a_full_game_against_alea_bots() -> None:
    """OpenSpiel's Python ISMCTSBot (seat 0) against the ``medium`` bot, to the end."""
    game = _load(2, "win")
    random_state = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=1.0, max_simulations=3, random_state=random_state)
    bot.set_resampler(resampler(1))
    opponent = make("medium")
    rng = random.Random(1)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(random_state.choice(outcomes, p=probabilities)))
        elif state.current_player() == 0:
            action = int(bot.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            state.apply_action(encode(ask(opponent, state.engine, rng)))
    assert searched > 20
    assert sorted(state.returns()) in ([0.0, 1.0], [1.0, 1.0])
