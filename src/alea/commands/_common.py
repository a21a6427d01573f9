"""Small helpers shared by the command modules: loading files and seeded generators."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

console = Console()
errors = Console(stderr=True)


def fail(message: str) -> typer.Exit:
    """Print ``message`` as an error and return the exit to raise (code 2)."""
    errors.print(f"[bold red]error:[/] {message}")
    return typer.Exit(code=2)


def read_json_documents(path: str) -> list[dict[str, Any]]:
    """One JSON document, or JSON lines, from a file or ``-`` (stdin)."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise fail(f"cannot read {path}: {err.strerror}") from None
    text = text.strip()
    if not text:
        raise fail(f"{path} is empty")
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        pass
    documents = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            documents.append(json.loads(line))
        except json.JSONDecodeError as err:
            raise fail(f"{path}, line {number}: not JSON ({err.msg})") from None
    return documents


def game_rng(seed: int | None, index: int) -> random.Random:
    """The generator of game ``index`` of a seeded series: independent of scheduling."""
    if seed is None:
        return random.Random()
    return random.Random(f"alea:{seed}:{index}")
