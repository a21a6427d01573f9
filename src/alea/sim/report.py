"""Rich output for tournaments: a progress bar with games/s and ETA, and the result table."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from alea.sim.runner import Progress as ProgressCallback
from alea.sim.stats import Summary


class RateColumn(ProgressColumn):
    """Games per second, from Rich's own speed estimate."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.2f} games/s" if speed else "– games/s", style="progress.data.speed")


@contextmanager
def progress_bar(console: Console, total: int, label: str = "games") -> Iterator[ProgressCallback]:
    """A Rich progress bar; yields the callback a runner reports to."""
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    ) as bar:
        task = bar.add_task(label, total=total)

        def update(done: int, _total: int) -> None:
            bar.update(task, completed=done)

        yield update


def result_table(summary: Summary) -> Table:
    """Win share with 95% interval, scores, per-seat win share and TrueSkill."""
    n = summary.tournament.players
    table = Table(
        title=f"{summary.games} games, {n} players, seed {summary.tournament.seed}",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column("bot", no_wrap=True)
    table.add_column("win share (95% CI)", justify="right", no_wrap=True)
    table.add_column("score±sd", justify="right", no_wrap=True)
    for s in range(n):
        table.add_column(f"s{s}", justify="right", no_wrap=True)
    table.add_column("TrueSkill", justify="right", no_wrap=True)
    for e in sorted(summary.entrants, key=lambda e: -e.win_share):
        table.add_row(
            e.label,
            f"{e.win_share:.1%} [{e.ci[0]:.0%}–{e.ci[1]:.0%}]",
            f"{e.mean_score:.1f}±{e.sd_score:.1f}",
            *(f"{share:.0%}" for share in e.seat_share),
            f"{e.rating[0]:.1f}±{e.rating[1]:.1f}",
        )
    table.add_section()
    table.add_row("by seat", "", "", *(f"{share:.0%}" for share in summary.seat_share), "")
    table.caption = "s0..: win share in each seat; TrueSkill: mu ± sigma"
    return table
