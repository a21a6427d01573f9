"""``alea tournament``: seeded, seat-balanced games between bots, with statistics."""

from __future__ import annotations

import json
from importlib.util import find_spec
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console


def split_bots(text: str) -> list[str]:
    """``"hard,medium,easy"`` → ``["hard", "medium", "easy"]`` (specs keep their ``:`` options)."""
    return [part.strip() for part in text.split(",") if part.strip()]


def tournament(
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Comma-separated bots, one per seat: random, greedy, ismcts, easy, medium, "
            "hard, expert; options after colons (ismcts:iterations=100).",
        ),
    ],
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help="Players per game (default: the number of bots)."),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Tournament seed (reproducible).")] = 0,
    workers: Annotated[
        int | None, typer.Option("--workers", "-j", help="Processes (default: every core).")
    ] = None,
    backend: Annotated[
        str, typer.Option("--backend", help="multiprocessing, ray or serial.")
    ] = "multiprocessing",
    address: Annotated[
        str | None, typer.Option("--address", help="Ray cluster address (with --backend ray).")
    ] = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write PNG charts into this directory.")
    ] = None,
    jsonl: Annotated[
        Path | None, typer.Option("--jsonl", help="Write every game record to this JSONL file.")
    ] = None,
    summary_json: Annotated[
        Path | None, typer.Option("--json", help="Write the summary statistics as JSON.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Play bots against each other; print win shares, scores, seats and ratings.

    Seats rotate so that every bot plays every seat equally often; each game
    is seeded from --seed and its index, so the results are the same on any
    number of workers and on either backend.
    """
    from alea.sim.plots import write_plots
    from alea.sim.report import progress_bar, result_table
    from alea.sim.runner import Tournament, iter_json, run
    from alea.sim.stats import summarize

    console = Console()
    entrants = split_bots(bots)
    if players is not None and players != len(entrants):
        raise typer.BadParameter(
            f"--players {players} but {len(entrants)} bots were given: name one bot per seat",
            param_hint="--bots",
        )
    if backend not in ("multiprocessing", "mp", "ray", "serial"):
        raise typer.BadParameter("choose multiprocessing, ray or serial", param_hint="--backend")
    # Optional extras are checked before any game is played, with the command that installs them.
    if backend == "ray" and find_spec("ray") is None:
        raise typer.BadParameter("the Ray backend needs ray: pip install 'alea[sim]'")
    if plot is not None and find_spec("matplotlib") is None:
        raise typer.BadParameter("--plot needs matplotlib: pip install 'alea[sim]'")
    if address and backend != "ray":
        raise typer.BadParameter("--address is for --backend ray", param_hint="--address")
    try:
        t = Tournament(tuple(entrants), games, seed, keep_records=jsonl is not None)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--bots") from None
    if games % t.players:
        console.print(
            f"[yellow]note:[/] {games} games is not a multiple of {t.players}: seats are "
            "balanced only over whole rotations"
        )
    if quiet:
        results = run(t, backend=backend, workers=workers, address=address)
    else:
        with progress_bar(console, games) as update:
            results = run(t, backend=backend, workers=workers, address=address, progress=update)
    summary = summarize(t, results)
    console.print(result_table(summary))
    if jsonl is not None:
        with jsonl.open("w", encoding="utf-8") as out:
            for line in iter_json(t, results):
                out.write(json.dumps(line) + "\n")
        console.print(f"game records: {jsonl}")
    if summary_json is not None:
        summary_json.write_text(json.dumps(summary.to_json(), indent=2), encoding="utf-8")
    if plot is not None:
        for path in write_plots(summary, plot):
            console.print(f"chart: {path}")


def register(app: typer.Typer) -> None:
    """Add ``alea tournament`` to the command-line application."""
    app.command("tournament")(tournament)
