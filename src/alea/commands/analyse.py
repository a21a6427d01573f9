"""``alea analyse``: every decision of a seat in a recorded game, judged from its view."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

import alea.analysis as analysis
import alea.game as game
from alea.analysis.words import explain
from alea.commands._common import console, fail, read_json_documents

#: Characters of the winning-chance sparkline, from 0% to 100%.
_BARS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[float]) -> str:
    """Winning chances in [0, 1] as a line of block characters."""
    return "".join(_BARS[min(len(_BARS) - 1, int(v * len(_BARS)))] for v in values)


def register(app: typer.Typer) -> None:
    """Add ``alea analyse`` to ``app``."""

    @app.command("analyse")
    def analyse(
        file: Annotated[str, typer.Argument(help="A game record (JSON); - for stdin.")],
        seat: Annotated[int, typer.Option(help="The seat to analyse, from 1.")] = 1,
        samples: Annotated[
            int, typer.Option(help="Sampled deals of the hidden cards and dice per decision.")
        ] = analysis.SAMPLES,
        threshold: Annotated[
            float, typer.Option(help="Points of expected margin lost that make a mistake.")
        ] = analysis.THRESHOLD,
        seed: Annotated[int, typer.Option(help="Seed of the sampling (reproducible).")] = 0,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print the analysis as JSON.")
        ] = False,
        every: Annotated[
            bool, typer.Option("--all", help="List every decision, not only the mistakes.")
        ] = False,
    ) -> None:
        """Judge each decision of one seat from what that seat knew (never hidden cards).

        For every decision the moves worth considering are played out on the same
        sampled deals; the expected final-score margin of the move played is compared
        with the best one found, and clear losses are flagged as mistakes.
        """
        documents = read_json_documents(file)
        if len(documents) != 1:
            raise fail(f"{file} holds {len(documents)} records: analyse one game at a time")
        record = documents[0]
        kind = str(record.get("game", "alea-iacta-est"))
        known = {g.game: g for g in game.games()}
        if kind not in known:
            raise fail(f"a record of an unknown game {kind!r}")
        info = known[kind]
        if not analysis.supports(info.name):
            raise fail(f"{info.title} games cannot be analysed")
        if samples < 2:
            raise fail("--samples must be at least 2")
        try:
            todo = list(analysis.points(info.name, record, seat - 1))
        except (ValueError, KeyError, TypeError) as err:
            raise fail(f"cannot replay the record: {err}") from None
        result = analysis.Analysis(info.name, seat - 1, samples, threshold, seed)
        with Progress(
            TextColumn("[bold]analysing"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
            disable=as_json,
        ) as progress:
            task = progress.add_task("decisions", total=len(todo))
            for point in todo:
                result.decisions.append(analysis.assess(info.name, point, samples, threshold, seed))
                progress.update(task, advance=1)
        if as_json:
            console.print_json(json.dumps(result.to_json()))
            return
        shown = result.decisions if every else result.flagged()
        console.print(
            f"[bold]Seat {seat}[/]: {len(result.flagged())} mistakes in "
            f"{len(result.decisions)} decisions ({samples} sampled deals each, "
            f"threshold {threshold:g} points)"
        )
        for d in shown:
            where = f"round {d.round}, " if d.round is not None else ""
            mark = "[bold red]✗[/]" if d.flagged else "[green]·[/]"
            console.print(
                f"{mark} [bold]{where}decision {d.number}[/] (event {d.step + 1}): {explain(d)}"
            )
        chances = [d.verdict.played_win for d in result.decisions]
        console.print(f"Winning chances across the game: {sparkline(chances)}")
