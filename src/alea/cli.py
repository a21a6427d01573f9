"""The ``alea`` command: one Typer application with a sub-command per task.

Each sub-command lives in its own module under :mod:`alea.commands` and adds
itself with ``register(app)``; this file only lists them, so that adding a
command never means editing another command's code.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="alea",
    help="Alea Iacta Est (and Dado Romano): play, score, simulate and research.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: Modules under alea.commands, each exposing ``register(app)``.
COMMAND_MODULES = (
    "demo",
    "simulate",
    "replay",
    "legal",
    "score",
    "serve",
    "tournament",
    "play",
    "romano",
    "analyse",
    "deploy",
)

for _name in COMMAND_MODULES:
    importlib.import_module(f"alea.commands.{_name}").register(app)


def main() -> None:
    """Entry point for ``python -m alea``."""
    app()
