"""Random agents play one game of Alea Iacta Est through the PettingZoo AEC interface.

    python examples/pettingzoo_random.py --players 4 --seed 7

Each agent picks uniformly among the legal actions of its observation's
``action_mask``; chance is resolved inside the environment from the seed.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from alea.envs.encoding import decode
from alea.envs.pettingzoo import env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, help="2 to 5")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reward", choices=["score", "win"], default="score")
    args = parser.parse_args()

    game = env(players=args.players, reward=args.reward)
    game.reset(seed=args.seed)
    rng = random.Random(args.seed)
    decisions = 0
    totals: dict[str, float] = {}
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            action = None
        else:
            legal = np.flatnonzero(observation["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
            if decisions < 5:
                print(f"{agent} plays {decode(action)} ({len(legal)} legal actions)")
            decisions += 1
        game.step(action)
    print(f"{decisions} decisions")
    for agent, total in sorted(totals.items()):
        print(f"{agent}: reward {total:g}")
    game.close()


if __name__ == "__main__":
    main()
