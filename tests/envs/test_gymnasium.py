"""The single-agent Gymnasium environment passes Gymnasium's own check_env."""

from __future__ import annotations

import contextlib
import io
import warnings

import pytest

gymnasium = pytest.importorskip("gymnasium", reason="Gymnasium tests need: pip install 'alea[rl]'")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import alea.iacta as iacta  # noqa: E402
from alea.bots import make  # noqa: E402
from alea.envs.encoding import NUM_DISTINCT_ACTIONS  # noqa: E402
from alea.envs.gymnasium import ENV_ID, AleaIactaEstEnv  # noqa: E402
from alea.envs.observation import OBSERVATION_SIZE  # noqa: E402


def _check(env: gymnasium.Env) -> list[str]:
    """check_env, with the human render mode's printing kept quiet; the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("always")
        check_env(env)
    return [str(w.message) for w in caught]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_check_env(players: int) -> None:
    env = gymnasium.make(ENV_ID, players=players, opponents="random", seat="random")
    # The unwrapped environment with its spec: check_env then also builds it in every
    # render mode through the registry.
    messages = _check(env.unwrapped)
    assert not [m for m in messages if "WARN" in m and "spec" not in m], messages


def test_check_env_default_opponents_and_plain_instance() -> None:
    messages = _check(AleaIactaEstEnv(players=4))
    # Only "no spec, cannot test other render modes": this instance was not made by make().
    assert all("spec" in m for m in messages), messages


def _episode(env: AleaIactaEstEnv, seed: int) -> tuple[float, dict[str, object], int]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        assert obs.shape == (OBSERVATION_SIZE,) and obs in env.observation_space
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        assert np.array_equal(mask, env.action_masks())
        obs, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(mask)))
        assert not truncated
        total += reward
        steps += 1
        done = terminated
    return total, info, steps


def test_full_episode_against_bots() -> None:
    env = AleaIactaEstEnv(players=3, seat=1, opponents=["random", make("medium")])
    total, info, steps = _episode(env, seed=4)
    assert steps > 20
    assert total == info["score"] == env.game.returns()[1]
    assert info["winner"] == (1 in env.game.winners())
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError):
        env.step(0)


def test_reproducible_and_win_reward() -> None:
    a = AleaIactaEstEnv(players=2, opponents="medium", reward="win")
    b = AleaIactaEstEnv(players=2, opponents="medium", reward="win")
    ra, ia, sa = _episode(a, seed=9)
    rb, _, sb = _episode(b, seed=9)
    assert (ra, sa) == (rb, sb) and a.game.history == b.game.history
    assert ra in (0.0, 1.0) and ra == float(ia["winner"])


def test_illegal_actions() -> None:
    env = AleaIactaEstEnv(players=2, opponents="random")
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    strict = AleaIactaEstEnv(players=2, opponents="random", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(iacta.IllegalActionError):
        strict.step(illegal)
    with pytest.raises(iacta.IllegalActionError):
        strict.step(NUM_DISTINCT_ACTIONS + 5)


def test_render_and_arguments() -> None:
    env = AleaIactaEstEnv(players=3, opponents="random", seat=2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "you are seat 2" in text
    for bad in (
        {"players": 1},
        {"seat": 4},
        {"reward": "margin"},
        {"illegal_action": "ignore"},
        {"opponents": ["random"]},
        {"render_mode": "rgb_array"},
    ):
        with pytest.raises(ValueError):
            AleaIactaEstEnv(**bad)  # type: ignore[arg-type]
