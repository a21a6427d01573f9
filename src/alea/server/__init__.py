"""The online game server: FastAPI over HTTP and WebSockets, durable by its event log.

The server is the single authority for an online game (ARCHITECTURE.md): it
holds the full :class:`alea.iacta.State` of every unfinished game in memory,
asks the engine what is legal, commits every accepted action together with
the chance outcomes it triggers *before* anyone hears of it, and sends each
seat only what that seat may see (``state.view(seat)``, ``state.log(seat)``).

The public entry point is :func:`create_app`; ``alea serve`` wraps it.
"""

from alea.server.app import create_app
from alea.server.config import Settings

__all__ = ["Settings", "create_app"]
