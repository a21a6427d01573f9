"""OpenSpiel's own Python IS-MCTS bot plays Alea Iacta Est against our ``hard`` bot.

    python examples/openspiel_ismcts.py --players 2 --simulations 20 --opponent hard

Seat 0 is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with random
rollouts, searching over states resampled by the game's
``resample_from_infostate``; every other seat is an :mod:`alea.bots` bot that
sees only its own view. ``--opponent`` takes a level or spec, e.g.
``hard:steps=100`` for a quicker ``hard``.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from alea.bots import ask, make
from alea.envs.encoding import encode
from alea.envs.openspiel import GAME_NAME, resampler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, help="2 to 5")
    parser.add_argument("--simulations", type=int, default=20, help="IS-MCTS simulations a move")
    parser.add_argument("--opponent", default="hard", help="alea.bots level or spec")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    game = pyspiel.load_game(GAME_NAME, {"players": args.players, "reward": "win"})
    random_state = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    searcher = ismcts.ISMCTSBot(
        game, evaluator, uct_c=1.0, max_simulations=args.simulations, random_state=random_state
    )
    searcher.set_resampler(resampler(args.seed))
    opponents = [make(args.opponent) for _ in range(args.players - 1)]
    rng = random.Random(args.seed)

    state = game.new_initial_state()
    started = time.perf_counter()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(random_state.choice(outcomes, p=probabilities)))
        elif state.current_player() == 0:
            state.apply_action(int(searcher.step(state)))
        else:
            bot = opponents[state.current_player() - 1]
            state.apply_action(encode(ask(bot, state.engine, rng)))
    scores = state.engine.returns()
    winners = state.engine.winners()
    print(f"{time.perf_counter() - started:.1f} s")
    print(f"IS-MCTS (seat 0) scored {scores[0]:g}; {args.opponent} scored {scores[1:]}")
    print("IS-MCTS wins" if 0 in winners else f"seat(s) {winners} win")


if __name__ == "__main__":
    main()
