"""Bot strength and speed: seeded 4-player tournaments with 95% intervals.

Targets (issue 4):

* ``medium`` against three ``easy`` wins at least 60% of at least 400 games
  (an equal share would be 25%);
* ``hard`` at its default budget against three ``medium`` wins at least 50%
  (issue 14; 40% under issue 4);
* ``expert`` against three ``medium`` wins at least 65%, and against three
  ``hard`` at least 35%;
* IS-MCTS playouts per second on a mid-game position, and the time ``hard``
  and ``expert`` take per decision (``expert``: mean within 1 s, 95th
  percentile within 2 s, on one core).

Usage::

    python bench/strength.py                      # everything (hard takes a while)
    python bench/strength.py --only medium --games-medium 400
    python bench/strength.py --only hard --games-hard 200 --workers 1
    python bench/strength.py --only speed
    python bench/strength.py --only expert --games-expert 200 --workers 1
    python bench/strength.py --only expert-hard --games-expert 100 --workers 1

Seats rotate, every game is seeded from --seed and its index, so a run is
reproducible and its figures can be quoted with the command that made them.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time

from rich.console import Console

import alea.iacta as iacta
from alea.bots import EXPERT_STEPS, HARD_STEPS, ISMCTSBot, ask, make
from alea.sim import Tournament, play_game, run, summarize
from alea.sim.report import progress_bar, result_table


def match(
    console: Console,
    hero: str,
    rival: str,
    games: int,
    seed: int,
    workers: int | None,
    need: float,
    stop_after: float | None = None,
) -> bool:
    """``hero`` against three ``rival``; print the table and whether it meets ``need``.

    With ``stop_after`` (seconds) the games are played in order in this process
    and no new game starts after that time: on a shared machine a run then ends
    when it must and reports the games it played (a prefix of the seeded series,
    so a longer run extends it). Each finished game prints a running tally.
    """
    t = Tournament((hero, rival, rival, rival), games, seed)
    console.rule(f"{hero} vs 3 × {rival}: {games} games, seed {seed}")
    started = time.perf_counter()
    if stop_after is None:
        with progress_bar(console, games) as update:
            results = run(t, workers=workers, progress=update)
    else:
        results = []
        wins = 0.0
        for index in range(games):
            if time.perf_counter() - started >= stop_after:
                break
            result = play_game(t, index)
            results.append(result)
            hero_seat = result.seating.index(0)
            if hero_seat in result.winners:
                wins += 1.0 / len(result.winners)
            console.print(f"  game {index + 1}: {hero} {wins:g} wins of {len(results)}")
    elapsed = time.perf_counter() - started
    summary = summarize(t, results)
    console.print(result_table(summary))
    e = summary.entrants[0]
    console.print(
        f"[bold]{hero}[/] win share {e.win_share:.1%} (95% CI {e.ci[0]:.1%}–{e.ci[1]:.1%}) "
        f"over {e.games} games of {games}; target ≥ {need:.0%}: {verdict(e.ci, need)}  "
        f"({elapsed:.0f} s, {len(results) / elapsed:.2f} games/s)"
    )
    return e.ci[0] >= need


def verdict(ci: tuple[float, float], need: float) -> str:
    """Whether a target is met, judged by the 95% interval rather than the point estimate.

    A share above the target whose interval still reaches below it is not yet evidence
    that the target holds: it is *open* and needs more games, not a rounder number.
    """
    low, high = ci
    if low >= need:
        return "[green]met[/] (the whole interval is above the target)"
    if high < need:
        return "[red]not met[/] (the whole interval is below the target)"
    return "[yellow]open[/] (the interval straddles the target: play more games)"


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


def speed(console: Console, seconds: float, decisions: int, warm: bool = True) -> None:
    """Playouts per second on a mid-game position, and ``hard``'s time per decision.

    With ``warm`` (the default) each kind of playout first searches for one
    second and ``gc.freeze()`` is called, as a long-running bot process runs
    (docs/engine.md): the engine's and the bots' memo tables are filled and left
    out of the garbage collector's passes. ``--speed-cold`` measures a fresh process.
    """
    console.rule("IS-MCTS speed")
    state = midgame_position()
    seat = state.current_player()
    view, legal = state.view(seat), state.legal_actions()
    console.print(
        f"position: round {state.round + 1}, seat {seat} to place, roll "
        f"{''.join(map(str, state.roll))}, {len(legal)} legal actions; engine "
        f"{'compiled' if iacta.COMPILED else 'pure Python'}; "
        f"{'warm (1 s search each, then gc.freeze())' if warm else 'cold'}"
    )
    if warm:
        for playout in ("greedy", "random"):
            ISMCTSBot(iterations=None, steps=None, seconds=1.0, playout=playout).act(
                view, legal, random.Random(0)
            )
        gc.freeze()
    for playout in ("greedy", "random"):
        bot = ISMCTSBot(iterations=None, steps=None, seconds=seconds, playout=playout)
        cpu = time.process_time()
        bot.act(view, legal, random.Random(1))
        cpu = time.process_time() - cpu
        console.print(
            f"  {playout:>6} playouts: {bot.last_iterations / bot.last_seconds:7.1f} playouts/s, "
            f"{bot.last_steps / bot.last_seconds:7.0f} simulated decisions/s "
            f"({bot.last_iterations / cpu:7.1f} playouts per CPU second)"
        )
    for level, steps in (("hard", HARD_STEPS), ("expert", EXPERT_STEPS)):
        wall, cpu = decision_times(level, decisions)
        console.print(
            f"  {level} ({steps} simulated decisions): {len(wall)} decisions, wall mean "
            f"{statistics.mean(wall):.2f} s, median {statistics.median(wall):.2f} s, "
            f"95th percentile {_percentile(wall, 0.95):.2f} s, max {wall[-1]:.2f} s; "
            f"CPU mean {statistics.mean(cpu):.2f} s, 95th percentile "
            f"{_percentile(cpu, 0.95):.2f} s"
        )


def _percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def decision_times(level: str, decisions: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of ``decisions`` decisions of ``level`` against three ``medium``.

    Only real choices are timed (a lone legal action is played at once); the
    seat of ``level`` rotates from game to game. Both lists come back sorted.
    """
    bot = make(level)
    rng = random.Random(5)
    wall: list[float] = []
    cpu: list[float] = []
    game = 0
    while len(wall) < decisions:
        state = iacta.new_game(4)
        bots = [make("medium") for _ in range(4)]
        bots[game % 4] = bot
        while not state.is_terminal() and len(wall) < decisions:
            if state.is_chance():
                state.apply(state.sample_chance(rng))
                continue
            seat = state.current_player()
            timed = seat == game % 4 and len(state.legal_actions()) > 1
            started, cpu_started = time.perf_counter(), time.process_time()
            state.apply(ask(bots[seat], state, rng))
            if timed:
                wall.append(time.perf_counter() - started)
                cpu.append(time.process_time() - cpu_started)
        game += 1
    return sorted(wall), sorted(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only", choices=("medium", "hard", "expert", "expert-hard", "speed"), action="append"
    )
    parser.add_argument("--games-medium", type=int, default=400)
    parser.add_argument("--games-hard", type=int, default=200)
    parser.add_argument("--games-expert", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--workers", type=int, default=None, help="default: every core")
    parser.add_argument("--hard", default="hard", help="spec of the hard bot")
    parser.add_argument(
        "--expert", default="expert", help="spec of the expert bot (e.g. expert:steps=20000)"
    )
    parser.add_argument("--speed-seconds", type=float, default=3.0)
    parser.add_argument("--speed-decisions", type=int, default=60)
    parser.add_argument(
        "--speed-cold", action="store_true", help="no warm-up search and gc.freeze() for speed"
    )
    parser.add_argument(
        "--stop-after",
        type=float,
        default=None,
        help="seconds per tournament: play games in order in this process, start none after",
    )
    args = parser.parse_args()
    parts = args.only or ["speed", "medium", "hard", "expert", "expert-hard"]
    console = Console()
    if "speed" in parts:
        speed(console, args.speed_seconds, args.speed_decisions, not args.speed_cold)
    if "medium" in parts:
        match(
            console,
            "medium",
            "easy",
            args.games_medium,
            args.seed,
            args.workers,
            0.60,
            args.stop_after,
        )
    if "hard" in parts:
        match(
            console,
            args.hard,
            "medium",
            args.games_hard,
            args.seed,
            args.workers,
            0.50,
            args.stop_after,
        )
    if "expert" in parts:
        match(
            console,
            args.expert,
            "medium",
            args.games_expert,
            args.seed,
            args.workers,
            0.65,
            args.stop_after,
        )
    if "expert-hard" in parts:
        match(
            console,
            args.expert,
            args.hard,
            args.games_expert,
            args.seed,
            args.workers,
            0.35,
            args.stop_after,
        )


if __name__ == "__main__":
    main()
