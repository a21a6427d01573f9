"""Bot strength and speed: seeded 4-player tournaments with 95% intervals.

Targets (issue 4):

* ``medium`` against three ``easy`` wins at least 60% of at least 400 games
  (an equal share would be 25%);
* ``hard`` at its default budget (at most about 1 s a decision) against three
  ``medium`` wins at least 40% of at least 200 games;
* IS-MCTS playouts per second on a mid-game position, and the time ``hard``
  takes per decision.

Usage::

    python bench/strength.py                      # everything (hard takes a while)
    python bench/strength.py --only medium --games-medium 400
    python bench/strength.py --only hard --games-hard 200 --workers 1
    python bench/strength.py --only speed

Seats rotate, every game is seeded from --seed and its index, so a run is
reproducible and its figures can be quoted with the command that made them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rich.console import Console

import alea.iacta as iacta
from alea.bots import HARD_STEPS, ISMCTSBot, ask, make
from alea.sim import Tournament, run, summarize
from alea.sim.report import progress_bar, result_table


def match(
    console: Console, hero: str, rival: str, games: int, seed: int, workers: int | None, need: float
) -> bool:
    """``hero`` against three ``rival``; print the table and whether it meets ``need``."""
    t = Tournament((hero, rival, rival, rival), games, seed)
    console.rule(f"{hero} vs 3 × {rival}: {games} games, seed {seed}")
    started = time.perf_counter()
    with progress_bar(console, games) as update:
        results = run(t, workers=workers, progress=update)
    elapsed = time.perf_counter() - started
    summary = summarize(t, results)
    console.print(result_table(summary))
    e = summary.entrants[0]
    ok = e.win_share >= need
    console.print(
        f"[bold]{hero}[/] win share {e.win_share:.1%} (95% CI {e.ci[0]:.1%}–{e.ci[1]:.1%}) "
        f"over {e.games} games; target ≥ {need:.0%}: {'[green]met' if ok else '[red]not met'}"
        f"[/]  ({elapsed:.0f} s, {games / elapsed:.2f} games/s)"
    )
    return ok


def midgame_position(seed: int = 3) -> iacta.State:
    """A placement decision in round 3 of a 4-player game between greedy bots, 6+ dice left."""
    rng = random.Random(seed)
    greedy = make("medium")
    state = iacta.new_game(4)
    while True:
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        seat = state.current_player()
        if state.round == 2 and state.phase_name == "placement" and state.dice_left[seat] >= 6:
            return state
        state.apply(ask(greedy, state, rng))


def speed(console: Console, seconds: float, decisions: int) -> None:
    """Playouts per second on a mid-game position, and ``hard``'s time per decision."""
    console.rule("IS-MCTS speed")
    state = midgame_position()
    seat = state.current_player()
    view, legal = state.view(seat), state.legal_actions()
    console.print(
        f"position: round {state.round + 1}, seat {seat} to place, roll "
        f"{''.join(map(str, state.roll))}, {len(legal)} legal actions"
    )
    for playout in ("greedy", "random"):
        bot = ISMCTSBot(iterations=None, steps=None, seconds=seconds, playout=playout)
        bot.act(view, legal, random.Random(1))
        console.print(
            f"  {playout:>6} playouts: {bot.last_iterations / bot.last_seconds:7.1f} playouts/s, "
            f"{bot.last_steps / bot.last_seconds:7.0f} simulated decisions/s"
        )
    hard = make("hard")
    rng = random.Random(5)
    times: list[float] = []
    game = 0
    while len(times) < decisions:
        state = iacta.new_game(4)
        bots = [make("medium") for _ in range(4)]
        bots[game % 4] = hard
        while not state.is_terminal() and len(times) < decisions:
            if state.is_chance():
                state.apply(state.sample_chance(rng))
                continue
            seat = state.current_player()
            timed = seat == game % 4 and len(state.legal_actions()) > 1
            started = time.perf_counter()
            state.apply(ask(bots[seat], state, rng))
            if timed:
                times.append(time.perf_counter() - started)
        game += 1
    times.sort()
    console.print(
        f"  hard ({HARD_STEPS} simulated decisions): {len(times)} decisions, mean "
        f"{statistics.mean(times):.2f} s, median {statistics.median(times):.2f} s, "
        f"90th percentile {times[int(0.9 * len(times))]:.2f} s, max {times[-1]:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("medium", "hard", "speed"), action="append")
    parser.add_argument("--games-medium", type=int, default=400)
    parser.add_argument("--games-hard", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--workers", type=int, default=None, help="default: every core")
    parser.add_argument("--hard", default="hard", help="spec of the hard bot")
    parser.add_argument("--speed-seconds", type=float, default=3.0)
    parser.add_argument("--speed-decisions", type=int, default=60)
    args = parser.parse_args()
    parts = args.only or ["speed", "medium", "hard"]
    console = Console()
    if "speed" in parts:
        speed(console, args.speed_seconds, args.speed_decisions)
    if "medium" in parts:
        match(console, "medium", "easy", args.games_medium, args.seed, args.workers, 0.60)
    if "hard" in parts:
        match(console, args.hard, "medium", args.games_hard, args.seed, args.workers, 0.40)


if __name__ == "__main__":
    main()
