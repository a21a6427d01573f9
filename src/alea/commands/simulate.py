"""``alea simulate``: many random-vs-random games, with a summary table.

Useful as a smoke test of the engine at scale, to produce records for other
tools (``--jsonl``), and to see the shape of random play (scores, decisions).
"""

from __future__ import annotations

import json
import statistics
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

import alea.iacta as iacta
from alea.commands._common import console, fail, game_rng
from alea.render import seat_label


def random_game(players: int, seed: int | None, index: int) -> tuple[iacta.State, int]:
    """Play one game uniformly at random; return it and its number of decisions."""
    rng = game_rng(seed, index)
    state = iacta.new_game(players)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
    return state, decisions


def register(app: typer.Typer) -> None:
    """Add ``alea simulate`` to ``app``."""

    @app.command("simulate")
    def simulate(
        players: Annotated[int, typer.Option(help="Players per game (2–5).")] = 4,
        games: Annotated[int, typer.Option(help="How many games to play.")] = 100,
        seed: Annotated[
            int | None, typer.Option(help="Seed: the same seed plays the same games.")
        ] = None,
        jsonl: Annotated[
            str | None, typer.Option(help="Write every game record to this file.")
        ] = None,
        game: Annotated[
            str, typer.Option(help="Which game: iacta (Alea Iacta Est) or romano.")
        ] = "iacta",
    ) -> None:
        """Play random games and summarise scores, wins and game length."""
        if game == "romano":
            from alea.sim.romano import run_simulation

            try:
                run_simulation(players, games, seed, jsonl, console)
            except ValueError as err:
                raise fail(str(err)) from None
            return
        if game != "iacta":
            raise fail(f"unknown game {game!r}: choose iacta or romano")
        if players not in (2, 3, 4, 5):
            raise fail("Alea Iacta Est is played by 2 to 5 players")
        if games < 1:
            raise fail("--games must be at least 1")
        scores: list[list[float]] = [[] for _ in range(players)]
        wins = [0.0] * players
        decisions: list[int] = []
        out = open(jsonl, "w", encoding="utf-8") if jsonl else None  # noqa: SIM115
        try:
            with Progress(
                TextColumn("[bold]simulating"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeRemainingColumn(),
                console=console,
                transient=True,
            ) as progress:
                task = progress.add_task("games", total=games, rate="")
                for index in range(games):
                    state, count = random_game(players, seed, index)
                    decisions.append(count)
                    for seat, score in enumerate(state.returns()):
                        scores[seat].append(score)
                    winners = state.winners()
                    for seat in winners:
                        wins[seat] += 1 / len(winners)
                    if out is not None:
                        out.write(json.dumps(state.record()) + "\n")
                    elapsed = progress.tasks[0].elapsed or 1e-9
                    progress.update(task, advance=1, rate=f"{(index + 1) / elapsed:.1f} games/s")
        finally:
            if out is not None:
                out.close()
        table = Table(title=f"{games} random games, {players} players")
        table.add_column("Seat")
        table.add_column("Mean score", justify="right")
        table.add_column("Spread (sd)", justify="right")
        table.add_column("Win share", justify="right")
        for seat in range(players):
            spread = statistics.pstdev(scores[seat]) if len(scores[seat]) > 1 else 0.0
            table.add_row(
                seat_label(seat),
                f"{statistics.fmean(scores[seat]):.1f}",
                f"{spread:.1f}",
                f"{wins[seat] / games:.1%}",
            )
        console.print(table)
        console.print(f"Mean decisions per game: {statistics.fmean(decisions):.1f}")
        if jsonl:
            console.print(f"Records written to {jsonl}")
