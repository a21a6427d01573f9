"""``alea play``: play Alea Iacta Est in the terminal against bots or at a hot seat."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console


def seats_for(players: int, bots: list[str], hotseat: bool, seat: int | None) -> list[str]:
    """Who sits where: bots fill the seats the humans do not take.

    Without ``hotseat`` there is exactly one human, in ``seat`` (default 0).
    With it, every seat not given to a bot is a human, humans first.
    """
    from alea.play.session import HUMAN

    humans = players - len(bots)
    if humans < 1:
        raise ValueError(
            f"{players} players and {len(bots)} bots leave no seat for a human: "
            f"name at most {players - 1} bots"
        )
    if not hotseat and humans != 1:
        raise ValueError(
            f"{players} players with {len(bots)} bots means {humans} humans: add --hotseat "
            f"to share the keyboard, or name {players - 1} bots"
        )
    if not hotseat:
        where = 0 if seat is None else seat
        if not 0 <= where < players:
            raise ValueError(f"--seat must be 0 to {players - 1}")
        seats = list(bots)
        seats.insert(where, HUMAN)
        return seats
    return [HUMAN] * humans + list(bots)


def play(
    players: Annotated[int, typer.Option("--players", "-p", help="Players (2-5).")] = 4,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Comma-separated bots for the other seats: easy, medium, hard, expert, random, "
            "greedy, ismcts (options after colons).",
        ),
    ] = "",
    hotseat: Annotated[
        bool, typer.Option("--hotseat", help="Several humans share this keyboard.")
    ] = False,
    seat: Annotated[
        int | None, typer.Option("--seat", help="Your seat (0 starts), without --hotseat.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for the dice and cards.")] = None,
    load: Annotated[
        Path | None, typer.Option("--load", help="Resume a game saved with 'save'.")
    ] = None,
    names: Annotated[
        str | None, typer.Option("--names", help="Comma-separated player names, by seat.")
    ] = None,
) -> None:
    """Play in the terminal: you against bots, or several people at one keyboard.

    Without --bots and --hotseat, the other seats are 'medium' bots.
    """
    from alea.play.session import Session
    from alea.play.terminal import TerminalGame

    console = Console()
    if load is not None:
        try:
            session = Session.load(load)
        except (OSError, ValueError) as err:
            raise typer.BadParameter(str(err), param_hint="--load") from None
    else:
        chosen = [b.strip() for b in bots.split(",") if b.strip()]
        if not chosen and not hotseat:
            chosen = ["medium"] * (players - 1)
        try:
            seats = seats_for(players, chosen, hotseat, seat)
            label = [n.strip() for n in names.split(",")] if names else None
            if label is not None and len(label) != players:
                raise ValueError(f"--names needs {players} names, one per seat")
            session = Session(seats, seed, label)
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
    TerminalGame(session, console).run()


def register(app: typer.Typer) -> None:
    """Add ``alea play`` to the command-line application."""
    app.command("play")(play)
