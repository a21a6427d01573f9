"""What the browser tests share: Debian's Chromium, and what a page says and receives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from alea.server import Settings

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]


def require_chromium() -> None:
    """Skips the calling test module where Debian's Chromium is not installed."""
    if not CHROMIUM.exists():
        pytest.skip(
            f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)",
            allow_module_level=True,
        )


def watch_errors(page: Any) -> list[str]:
    """Every uncaught exception and console error of ``page``, as text."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def record_frames(page: Any, direction: str = "framereceived") -> list[str]:
    """Every WebSocket frame the page receives (or, with ``framesent``, sends), as text."""
    frames: list[str] = []

    def on_socket(ws: Any) -> None:
        ws.on(
            direction,
            lambda payload: frames.append(
                payload if isinstance(payload, str) else payload.decode()
            ),
        )

    page.on("websocket", on_socket)
    return frames


def browser_settings(database_url: str, **extra: Any) -> Settings:
    """The settings of a browser module's live server: SQLite without fsync, no idle
    takeover during a test, and no per-client limits (one browser on loopback opens every
    table of the module); ``extra`` sets the module's own (bots, clock, chance)."""
    fields: dict[str, Any] = {
        "database_url": database_url,
        "sqlite_synchronous": "NORMAL",
        "idle_timeout": 600,
        "create_rate": "",
        "bot_tables_per_client": 0,
    }
    fields.update(extra)
    return Settings(**fields)
