"""The online game server: FastAPI over HTTP and WebSockets, durable by its event log.

The server is the single authority for an online game (ARCHITECTURE.md): it
holds the full engine state of every unfinished game in memory, asks the
engine what is legal, commits every accepted action together with the chance
outcomes it triggers *before* anyone hears of it, and sends each seat only
what that seat may see (``state.view(seat)``, ``state.log(seat)``). Its
modules, one job each, are mapped in docs/architecture.md ("The server").

The public entry point is :func:`create_app`; ``alea serve`` wraps it. Both
names are loaded on first use, so that importing one part of the server (the
hosted games, :mod:`alea.server.games`, say) does not load the web framework.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from alea.server.app import create_app
    from alea.server.config import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from alea.server.app import create_app

        return create_app
    if name == "Settings":
        from alea.server.config import Settings

        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
