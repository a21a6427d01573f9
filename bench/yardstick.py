"""An outside yardstick for the ``expert`` bot: OpenSpiel's own Python IS-MCTS.

Issue 14 asks for ``expert`` to be measured against a bot nobody here wrote:
OpenSpiel's ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with random
rollouts and ``resample_from_infostate`` (which alea's OpenSpiel game provides
through the engine's :func:`~alea.iacta.determinize.determinize`), given **the
same wall-clock time per move** as ``expert``.

OpenSpiel's bot is budgeted in simulations, not seconds, so the budget is set
before each of its moves from what was measured so far: its own simulations per
second, and ``expert``'s mean time per decision in the same run (so a loaded
machine slows both alike). The first moves use ``--seconds`` as the target.

Games are seeded (the chance outcomes, both bots' searches) and seats alternate:
in 2-player games ``expert`` sits first in even games, second in odd ones; with
more players ``expert`` takes one seat in turn and OpenSpiel's bot all the others.
OpenSpiel's bot maximises the chance of winning (the game's ``reward=win``).

    python bench/yardstick.py --games 20 --players 2 --stop-after 3600

It prints each game, then ``expert``'s win share with its 95% interval, the mean
scores and both bots' mean wall-clock time per decision.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass, field

try:
    import numpy as np
    import pyspiel  # noqa: F401  (OpenSpiel must be importable before its algorithms)
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError:  # pragma: no cover - depends on the optional extra
    sys.exit("the yardstick needs OpenSpiel: pip install 'alea[rl]'")

from alea.bots import ask, make
from alea.envs.encoding import encode
from alea.envs.openspiel import AleaIactaEstGame, resampler
from alea.sim.runner import derive_seed
from alea.sim.stats import wilson

#: Simulations OpenSpiel's bot is never given fewer of (a search needs a few).
MIN_SIMULATIONS = 8


@dataclass
class Clock:
    """Wall-clock seconds per decision, and OpenSpiel's simulations per second."""

    expert: list[float] = field(default_factory=list)
    openspiel: list[float] = field(default_factory=list)
    simulations: int = 0
    searching: float = 0.0

    def budget(self, seconds: float) -> int:
        """Simulations for OpenSpiel's next move: ``expert``'s mean time at its rate."""
        target = statistics.fmean(self.expert) if self.expert else seconds
        rate = self.simulations / self.searching if self.searching > 0 else 50.0
        return max(MIN_SIMULATIONS, int(target * rate))


def play(
    index: int, players: int, seed: int, seconds: float, clock: Clock
) -> tuple[int, list[float], list[int]]:
    """One seeded game; (``expert``'s seat, the final scores, the winners by RULES.md §5.3)."""
    game = AleaIactaEstGame({"players": players, "reward": "win"})
    chance = np.random.RandomState(derive_seed(seed, "chance", index) % 2**32)
    search = np.random.RandomState(derive_seed(seed, "ismcts", index) % 2**32)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=search),
        uct_c=1.0,
        max_simulations=MIN_SIMULATIONS,
        random_state=search,
    )
    bot.set_resampler(resampler(derive_seed(seed, "resample", index)))
    expert = make("expert")
    rng = random.Random(derive_seed(seed, "expert", index))
    hero = index % players
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(outcomes, p=probabilities)))
        elif state.current_player() == hero:
            started = time.perf_counter()
            action = encode(ask(expert, state.engine, rng))
            clock.expert.append(time.perf_counter() - started)
            state.apply_action(action)
        else:
            simulations = clock.budget(seconds)
            bot._max_simulations = simulations  # the bot's only budget knob
            started = time.perf_counter()
            action = int(bot.step(state))
            spent = time.perf_counter() - started
            clock.openspiel.append(spent)
            clock.simulations += simulations
            clock.searching += spent
            state.apply_action(action)
    return hero, state.engine.returns(), state.engine.winners()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2, choices=range(2, 6))
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="time per move until expert's is measured"
    )
    parser.add_argument("--stop-after", type=float, default=None, help="start no game after")
    args = parser.parse_args()

    clock = Clock()
    wins = 0.0
    played = 0
    hero_scores: list[float] = []
    rival_scores: list[float] = []
    started = time.perf_counter()
    for index in range(args.games):
        if args.stop_after is not None and time.perf_counter() - started >= args.stop_after:
            break
        hero, scores, winners = play(index, args.players, args.seed, args.seconds, clock)
        if hero in winners:
            wins += 1.0 / len(winners)
        played += 1
        hero_scores.append(scores[hero])
        rival_scores.extend(v for s, v in enumerate(scores) if s != hero)
        print(
            f"game {index + 1}: expert in seat {hero + 1}, scores {scores}; "
            f"expert {wins:g} wins of {played}",
            flush=True,
        )
    if not played:
        sys.exit("no game was played")
    share = wins / played
    low, high = wilson(share, played)
    fair = 1 / args.players
    print()
    print(f"expert vs OpenSpiel ISMCTSBot, {args.players} players, seed {args.seed}")
    print(
        f"games {played}, expert win share {share:.1%} (95% CI {low:.1%}–{high:.1%}); "
        f"equal share {fair:.0%}"
    )
    print(
        f"mean score: expert {statistics.fmean(hero_scores):.1f}, "
        f"OpenSpiel {statistics.fmean(rival_scores):.1f}"
    )
    print(
        f"wall-clock per decision: expert {statistics.fmean(clock.expert):.2f} s "
        f"({len(clock.expert)} decisions), OpenSpiel {statistics.fmean(clock.openspiel):.2f} s "
        f"({len(clock.openspiel)} decisions, "
        f"{clock.simulations / clock.searching:.0f} simulations/s)"
    )
    print(f"elapsed {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
