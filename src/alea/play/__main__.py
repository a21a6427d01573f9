"""``python -m alea.play``: the ``alea play`` command on its own."""

from __future__ import annotations

import typer

from alea.commands.play import register


def main() -> None:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    register(app)

    @app.callback()
    def _root() -> None:
        """Alea Iacta Est in the terminal."""

    app(["play", *__import__("sys").argv[1:]])


if __name__ == "__main__":
    main()
