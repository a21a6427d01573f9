"""``alea legal``: the legal actions (or chance outcomes) of a saved position."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

import alea.iacta as iacta
from alea.commands._common import console, fail, read_json_documents
from alea.render import board


def register(app: typer.Typer) -> None:
    """Add ``alea legal`` to ``app``."""

    @app.command("legal")
    def legal(
        position: Annotated[
            str, typer.Argument(help="A saved position (State.to_json) or a game record.")
        ],
        show_board: Annotated[bool, typer.Option("--board", help="Also draw the table.")] = False,
    ) -> None:
        """Print the legal actions of a saved position (or a record's last position)."""
        data = read_json_documents(position)[0]
        try:
            state = iacta.replay(data) if "events" in data else iacta.State.from_json(data)
        except (KeyError, TypeError, ValueError) as err:
            raise fail(f"{position} is not a position or record: {err}") from None
        if show_board:
            console.print(board(state.view(None)))
        if state.is_terminal():
            console.print("The game is over: no legal actions.")
            return
        if state.is_chance():
            table = Table(title=f"Chance event next ({state.phase_name})")
            table.add_column("Outcome")
            table.add_column("Probability", justify="right")
            for outcome, probability in state.chance_outcomes():
                table.add_row(str(outcome), f"{probability:.4f}")
            console.print(table)
            return
        actions = state.legal_actions()
        table = Table(title=f"Seat {state.current_player()} to move ({state.phase_name})")
        table.add_column("#", justify="right")
        table.add_column("Action")
        for number, action in enumerate(actions, start=1):
            table.add_row(str(number), str(action))
        console.print(table)
