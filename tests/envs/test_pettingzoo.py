"""The PettingZoo AEC environment passes PettingZoo's own conformance tests."""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo tests need: pip install 'alea[rl]'")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import alea.iacta as iacta  # noqa: E402
from alea.envs.encoding import NUM_DISTINCT_ACTIONS, encode  # noqa: E402
from alea.envs.observation import OBSERVATION_SIZE, Memo, observation_tensor  # noqa: E402
from alea.envs.pettingzoo import AleaIactaEstAEC, env, raw_env  # noqa: E402

#: What api_test warns about for every environment whose observation is a dict with an
#: action mask (PettingZoo exempts its own classic games by name): expected, not a fault.
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_api_test(players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(players=players), num_cycles=1000)
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)
    ]
    assert unexpected == []


@pytest.mark.parametrize("players", [2, 5])
def test_api_test_unwrapped_and_win_reward(players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(raw_env(players=players, reward="win"), num_cycles=1000)


@pytest.mark.parametrize("players", [2, 4])
def test_seed_test(players: int) -> None:
    seed_test(lambda: env(players=players), num_cycles=1000)


def _play(e: object, seed: int) -> tuple[dict[str, float], list[int]]:
    """Play a whole game with uniformly random legal actions; rewards and actions taken."""
    e.reset(seed=seed)  # type: ignore[attr-defined]
    rng = random.Random(seed)
    totals: dict[str, float] = {}
    actions: list[int] = []
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, _ = e.last()  # type: ignore[attr-defined]
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            e.step(None)  # type: ignore[attr-defined]
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        actions.append(action)
        e.step(action)  # type: ignore[attr-defined]
    return totals, actions


def test_rewards_are_final_scores_or_wins() -> None:
    scored, actions = _play(env(players=3), seed=11)
    won, actions_again = _play(env(players=3, reward="win"), seed=11)
    assert actions == actions_again  # same seed, same game: only the rewards differ
    assert set(won.values()) <= {0.0, 1.0} and sum(won.values()) >= 1
    best = max(scored.values())
    assert {a for a, r in won.items() if r == 1.0} <= {a for a, r in scored.items() if r == best}


def test_final_infos_and_rewards_once() -> None:
    e = env(players=2)
    e.reset(seed=3)
    rng = random.Random(3)
    seen_terminal = False
    for _ in e.agent_iter():
        obs, reward, terminated, _, info = e.last()
        if terminated:
            seen_terminal = True
            assert set(info) == {"score", "winner"}
            assert reward == info["score"]
            assert not obs["action_mask"].any()
            e.step(None)
            continue
        assert reward == 0
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
    assert seen_terminal and e.agents == []


def test_observations_are_the_seats_own() -> None:
    e = raw_env(players=4)
    e.reset(seed=5)
    for agent in e.possible_agents:
        obs = e.observe(agent)
        seat = int(agent.split("_")[1])
        assert obs["observation"].shape == (OBSERVATION_SIZE,)
        assert np.array_equal(obs["observation"], observation_tensor(e.game, seat))
        assert obs["action_mask"].dtype == np.int8
        assert obs["action_mask"].shape == (NUM_DISTINCT_ACTIONS,)
        assert obs["action_mask"].any() == (agent == e.agent_selection)
    assert isinstance(e._memo, Memo)


def test_illegal_action_raises_and_changes_nothing() -> None:
    e = env(players=2)
    e.reset(seed=1)
    before = e.unwrapped.game.to_json()
    illegal = next(
        i for i in range(NUM_DISTINCT_ACTIONS) if not e.observe(e.agent_selection)["action_mask"][i]
    )
    with pytest.raises(iacta.IllegalActionError):
        e.step(illegal)
    with pytest.raises(IndexError):
        e.step(NUM_DISTINCT_ACTIONS)
    with pytest.raises(ValueError):
        e.step(None)
    assert e.unwrapped.game.to_json() == before


def test_start_from_a_position_and_render() -> None:
    state = iacta.new_game(3)
    rng = random.Random(4)
    while state.is_chance():
        state.apply(state.sample_chance(rng))
    state.apply(state.legal_actions()[0])
    e = AleaIactaEstAEC(players=3, render_mode="ansi")
    e.reset(seed=2, options={"state": state})
    assert e.game.history[: len(state.history)] == state.history
    text = e.render()
    assert isinstance(text, str) and "spectator" in text
    assert encode(e.game.legal_actions()[0]) >= 0
    with pytest.raises(ValueError):
        e.reset(options={"state": iacta.new_game(2)})


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        env(players=6)
    with pytest.raises(ValueError):
        env(reward="margin")
    with pytest.raises(ValueError):
        env(render_mode="rgb_array")


def test_agent_iterator_enforces_the_loop_like_pettingzoos() -> None:
    """The wrapper's fast agent iterator keeps PettingZoo's order checks and its max_iter."""
    game = env(players=3)
    with pytest.raises(AttributeError):
        game.agent_selection  # noqa: B018 (before reset)
    game.reset(seed=4)
    agents = game.agent_iter()
    first = next(agents)
    assert first == game.agent_selection == "player_0"
    with pytest.raises(AssertionError, match="step"):
        next(agents)  # no step() since the last agent
    game.step(int(np.flatnonzero(game.observe(first)["action_mask"])[0]))
    assert next(agents) == game.agent_selection
    game.reset(seed=4)
    assert len(list(game.agent_iter(0))) == 0
    steps = 0
    for agent in game.agent_iter(5):
        observation, _, terminated, truncated, _ = game.last()
        game.step(
            None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0])
        )
        steps += 1
        assert agent.startswith("player_")
    assert steps == 5
