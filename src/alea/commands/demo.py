"""``alea demo``: a full game between bots, shown move by move, with the final scores.

Every screen is drawn from the spectator's view, so the demo shows exactly
what an onlooker at the table would see.
"""

from __future__ import annotations

import random
import time
from typing import Annotated, Any

import typer

import alea.iacta as iacta
from alea.commands._common import console, fail
from alea.render import board, describe, score_table


def _make_bots(levels: list[str]) -> list[Any]:
    try:
        from alea import bots
    except ImportError:  # pragma: no cover - bots ship with the package
        return [None] * len(levels)
    return [bots.make(level) for level in levels]


def register(app: typer.Typer) -> None:
    """Add ``alea demo`` to ``app``."""

    @app.command("demo")
    def demo(
        players: Annotated[int, typer.Option(help="Players (2–5).")] = 4,
        bots: Annotated[str, typer.Option(help="Bot levels by seat, comma-separated.")] = "medium",
        seed: Annotated[int | None, typer.Option(help="Seed for dice, cards and bots.")] = None,
        delay: Annotated[float, typer.Option(help="Seconds to pause after each decision.")] = 0.0,
    ) -> None:
        """Watch bots play a whole game of Alea Iacta Est."""
        if players not in (2, 3, 4, 5):
            raise fail("Alea Iacta Est is played by 2 to 5 players")
        levels = [b.strip() for b in bots.split(",") if b.strip()] or ["medium"]
        levels = (levels * players)[:players]
        try:
            seat_bots = _make_bots(levels)
        except (KeyError, ValueError) as err:
            raise fail(str(err)) from None
        rng = random.Random(seed)
        state = iacta.new_game(players)
        console.print(
            f"[bold]Alea Iacta Est[/] · {players} players · bots: {', '.join(levels)}"
            + (f" · seed {seed}" if seed is not None else "")
        )
        while not state.is_terminal():
            mover: int | str = state.player
            before_round = state.round
            if state.is_chance():
                event: str = state.sample_chance(rng)
            else:
                seat = state.current_player()
                bot = seat_bots[seat]
                legal = state.legal_actions()
                event = bot.act(state.view(seat), legal, rng) if bot else rng.choice(legal)
            state.apply(event)
            console.print(describe(event, mover))
            if not event.split(":")[0].islower() and delay:
                time.sleep(delay)
            if state.round != before_round or state.is_terminal():
                console.print(board(state.view(None), title=f"After round {before_round + 1}"))
        console.print(score_table(state.view(None)))
