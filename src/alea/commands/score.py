"""``alea score FILE``: the end-game scoring calculator (RULES.md §5).

Reads one or several players' holdings (JSON or the short text form of
:mod:`alea.iacta.scoring_io`; ``-`` reads standard input), finds each
player's best arrangement and shows where every patrician goes and why each
place and card scores what it does, then the ranking. ``--json`` prints the
same machine-readable. Bad input is reported in one line naming the token at
fault, with exit code 2 and no traceback, because the people typing these
files are players, not programmers.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from alea.iacta.scoring import (
    Arrangement,
    HoldingsError,
    Standing,
    best_arrangement,
    ranking,
)
from alea.iacta.scoring_io import Players, parse_holdings

#: Exit code for input the calculator cannot score (same as a usage error).
EXIT_BAD_INPUT = 2

_KIND_LABEL = {
    "province": "province",
    "wild": "wild province",
    "free": "free province",
    "border": "border province",
}


def register(app: typer.Typer) -> None:
    """Add the ``score`` command to the ``alea`` application."""

    @app.command("score")
    def score(
        file: Annotated[
            str,
            typer.Argument(
                help="Holdings file: JSON, or one text line per player; '-' reads stdin.",
            ),
        ],
        as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    ) -> None:
        """Score players' end-game holdings with the best arrangement (RULES.md §5).

        Text form, one player per line, e.g.

        Anna: provinces: red4 blue2 grey0; patricians: redm2 redw3 bluew1;
        senate: V XII-green/blue; fortuna: 2 3; tokens: 5

        (sections may be shortened to 3 letters: prov, pat, sen, for, tok).
        """
        err = Console(stderr=True)
        try:
            text = _read(file)
            players = parse_holdings(text)
        except HoldingsError as error:
            err.print(Text(f"error: {error}", style="bold red"), soft_wrap=True)
            raise typer.Exit(EXIT_BAD_INPUT) from None
        results = _score_all(players)
        for name, arrangement in results:
            for warning in arrangement.warnings:
                prefix = f"{name}: " if name else ""
                err.print(Text(f"warning: {prefix}{warning}", style="yellow"), soft_wrap=True)
        if as_json:
            typer.echo(json.dumps(_json(results), indent=2, ensure_ascii=False))
            return
        _print(Console(), results)


def _read(file: str) -> str:
    """The input text; unreadable input becomes a :class:`HoldingsError`."""
    if file == "-":
        return sys.stdin.read()
    path = Path(file)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise HoldingsError(f"{file}: no such file", token=file) from None
    except IsADirectoryError:
        raise HoldingsError(f"{file}: is a directory, not a holdings file", token=file) from None
    except UnicodeDecodeError:
        raise HoldingsError(f"{file}: not a UTF-8 text file", token=file) from None
    except OSError as error:
        raise HoldingsError(f"{file}: cannot read ({error.strerror})", token=file) from None


def _score_all(players: Players) -> list[tuple[str | None, Arrangement]]:
    return [(name, best_arrangement(holdings)) for name, holdings in players]


def _standings(results: list[tuple[str | None, Arrangement]]) -> list[Standing]:
    return ranking({name or "": arrangement for name, arrangement in results})


def _json(results: list[tuple[str | None, Arrangement]]) -> dict[str, Any]:
    """One arrangement for one unnamed player, else players and ranking."""
    if len(results) == 1 and results[0][0] is None:
        return results[0][1].to_json()
    return {
        "players": {name: arrangement.to_json() for name, arrangement in results},
        "ranking": [s.to_json() for s in _standings(results)],
    }


def _print(console: Console, results: list[tuple[str | None, Arrangement]]) -> None:
    for name, arrangement in results:
        _print_player(console, name, arrangement)
    if len(results) > 1:
        _print_ranking(console, _standings(results))


def _print_player(console: Console, name: str | None, a: Arrangement) -> None:
    title = f"{name}: {a.score} points" if name else f"{a.score} points"
    places = Table(title=title, title_style="bold", show_lines=False, expand=False)
    places.add_column("Place")
    places.add_column("Patricians")
    places.add_column("Points", justify="right")
    places.add_column("Why")
    for place in a.places:
        who = " ".join(place.patricians) or "-"
        if place.extra:
            who += f" (+ {place.extra} by XI)"
        label = place.card
        if place.kind != "province":
            label += f" ({_KIND_LABEL[place.kind]})"
        places.add_row(label, who, str(place.points), place.reason)
    unplaced = " ".join(a.unplaced) or "-"
    places.add_row("unplaced", unplaced, "0", f"tie-break: {a.tiebreak} (their total value)")
    console.print(places)

    b = a.breakdown
    cards_table = Table(show_header=True, expand=False)
    cards_table.add_column("Scores")
    cards_table.add_column("Points", justify="right")
    cards_table.add_column("Why")
    for senate in b.senate:
        cards_table.add_row(f"Senate {senate.card}", str(senate.points), senate.reason)
    fortuna = " + ".join(str(v) for v in a.holdings.fortuna) or "none"
    cards_table.add_row("Fortuna", str(b.fortuna), f"tiles {fortuna}")
    cards_table.add_row("Re-roll tokens", str(b.tokens), f"{a.holdings.tokens} tokens // 2")
    console.print(cards_table)
    console.print(
        f"[bold]Total {a.score}[/bold] = province cards {b.province_cards}"
        f" + patricians {b.patricians} + Senate cards {b.senate_total}"
        f" + Fortuna {b.fortuna} + tokens {b.tokens}"
        f"   (tie-break {a.tiebreak})"
    )
    console.print()


def _print_ranking(console: Console, standings: list[Standing]) -> None:
    table = Table(title="Ranking", title_style="bold")
    table.add_column("Rank", justify="right")
    table.add_column("Player")
    table.add_column("Score", justify="right")
    table.add_column("Tie-break", justify="right")
    table.add_column("")
    for s in standings:
        note = ""
        if s.shared:
            note = "shared victory" if s.rank == 1 else "tied"
        elif s.rank == 1:
            note = "winner"
        table.add_row(
            str(s.rank), s.name, str(s.arrangement.score), str(s.arrangement.tiebreak), note
        )
    console.print(table)
