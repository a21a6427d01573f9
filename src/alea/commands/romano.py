"""``alea romano``: play Dado Romano at the terminal (RULES.md Part B).

Only the command-line surface lives here; the game itself is
:mod:`alea.play.romano`, so it can be driven and tested without Typer.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from alea.play.romano import Options, play
from alea.romano.info import DEFAULT_TIME_LIMIT


class RefereeChoice(StrEnum):
    """Who poses the riddles and questions."""

    software = "software"
    human = "human"


class LangChoice(StrEnum):
    """The language of the game's texts and of the bank."""

    it = "it"
    en = "en"


def romano(
    players: Annotated[
        int, typer.Option("--players", "-p", min=2, max=12, help="Number of players (2-12).")
    ] = 3,
    referee: Annotated[
        RefereeChoice,
        typer.Option(
            "--referee",
            help="software: riddles and questions from the bank, answered 1-4; "
            "human: a person poses them and marks the answers right or wrong.",
        ),
    ] = RefereeChoice.software,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            min=0,
            help="Minutes of play; when they run out, the round under way is the last "
            "(0: the first round is the last). The rules' default, as on the server.",
        ),
    ] = DEFAULT_TIME_LIMIT,
    no_time_limit: Annotated[
        bool, typer.Option("--no-time-limit", help="Play on until someone reaches 150.")
    ] = False,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for the dice and the draws (replayable).")
    ] = None,
    lang: Annotated[LangChoice, typer.Option("--lang", help="Language: it or en.")] = (
        LangChoice.en
    ),
    names: Annotated[
        str | None, typer.Option("--names", help="Comma-separated player names, in seat order.")
    ] = None,
    record: Annotated[
        Path | None, typer.Option("--record", help="Save the game record (JSON) to this file.")
    ] = None,
) -> None:
    """Play Dado Romano, the Roman party dice game: reach exactly 150 points."""
    options = Options(
        players=players,
        referee="human" if referee is RefereeChoice.human else "software",
        time_limit=None if no_time_limit else time_limit,
        seed=seed,
        lang=lang.value,
        names=[n.strip() for n in names.split(",")] if names else [],
        record=record,
    )
    code = play(options, Console())
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add ``alea romano`` to the ``alea`` application."""
    app.command("romano")(romano)
