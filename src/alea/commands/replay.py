"""``alea replay``: a recorded game, move by move, with the table after each round."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.rule import Rule

import alea.game as game
import alea.iacta as iacta
from alea.commands._common import console, fail, read_json_documents
from alea.render import board, describe, score_table


def replay_record(record: dict[str, Any], verify: bool, quiet: bool) -> bool:
    """Print one record; return whether it verified (always True without ``verify``)."""
    kind = record.get("game", iacta.INFO.game)
    if kind != iacta.INFO.game:
        try:
            title = game.info(str(kind)).title
        except KeyError:
            raise fail(f"a record of an unknown game {kind!r}") from None
        raise fail(f"a {title} record: alea replay shows Alea Iacta Est games")
    try:
        players = int(record["players"])
        events = list(record["events"])
    except (KeyError, TypeError, ValueError):
        raise fail("a record needs 'players' and 'events' (see docs/records.md)") from None
    if players not in (2, 3, 4, 5):
        raise fail(f"a record of {players} players: Alea Iacta Est is for 2 to 5")
    state = iacta.new_game(players)
    for index, event in enumerate(events, start=1):
        mover: int | str = state.player if not state.is_terminal() else "terminal"
        before_round = state.round
        try:
            state.apply(event)
        except iacta.IllegalActionError as err:
            raise fail(f"event {index} ({event}) is not legal: {err}") from None
        if not quiet:
            console.print(describe(event, mover))
            if state.round != before_round or state.is_terminal():
                console.print(board(state.view(None), title=f"After round {before_round + 1}"))
    if not state.is_terminal():
        console.print(f"[yellow]The record ends before the game does ({state.phase_name}).[/]")
        return not verify
    final = state.view(None)
    console.print(score_table(final, arrangements=not quiet))
    if not verify:
        return True
    expected = record.get("result")
    if not expected:
        console.print("[yellow]--verify: the record holds no result to compare with[/]")
        return False
    scores = [int(s) for s in state.returns()]
    winners = state.winners()
    ok = bool(expected.get("scores") == scores and expected.get("winners", winners) == winners)
    if ok:
        console.print(f"[bold green]verified:[/] scores {scores}, winners {state.winners()}")
    else:
        console.print(
            f"[bold red]mismatch:[/] recorded {expected.get('scores')} / "
            f"{expected.get('winners')}, "
            f"replayed {scores} / {state.winners()}"
        )
    return ok


def register(app: typer.Typer) -> None:
    """Add ``alea replay`` to ``app``."""

    @app.command("replay")
    def replay(
        file: Annotated[
            str, typer.Argument(help="A game record (JSON) or JSON lines; - for stdin.")
        ],
        verify: Annotated[bool, typer.Option(help="Check the recorded final scores.")] = False,
        quiet: Annotated[
            bool, typer.Option(help="Only the final table (and verification).")
        ] = False,
    ) -> None:
        """Replay a recorded game move by move, with the table after each round."""
        records = read_json_documents(file)
        results = []
        for number, record in enumerate(records, start=1):
            if len(records) > 1:
                console.print(Rule(f"game {number}"))
            results.append(replay_record(record, verify, quiet))
        if verify and not all(results):
            raise typer.Exit(code=1)
