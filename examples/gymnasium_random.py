"""A random masked agent holds one seat of Alea Iacta Est against alea.bots, via Gymnasium.

    python examples/gymnasium_random.py --players 3 --opponents medium --episodes 2

The agent reads the legal actions from ``info["action_mask"]``; the other
seats are played by the bots named with ``--opponents`` (``random``,
``easy``, ``medium``, ``hard`` or a spec such as ``ismcts:steps=200``).
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import alea.envs.gymnasium  # noqa: F401  (registers alea/AleaIactaEst-v0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3, help="2 to 5")
    parser.add_argument("--opponents", default="medium")
    parser.add_argument("--episodes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = gymnasium.make(
        "alea/AleaIactaEst-v0", players=args.players, opponents=args.opponents, seat="random"
    )
    rng = np.random.default_rng(args.seed)
    for episode in range(args.episodes):
        _, info = env.reset(seed=args.seed + episode)
        steps, total, done = 0, 0.0, False
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            _, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            steps += 1
            done = terminated or truncated
        outcome = "won" if info["winner"] else "lost"
        print(
            f"episode {episode}: seat {info['seat']}, {steps} steps, "
            f"score {info['score']:g}, reward {total:g}, {outcome}"
        )
    env.close()


if __name__ == "__main__":
    main()
