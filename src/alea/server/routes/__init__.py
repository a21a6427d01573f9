"""The HTTP endpoints, one module per concern (each an ``APIRouter``).

* :mod:`.lobby`: create a game, list the lobby, one game's summary;
* :mod:`.seats`: claim a seat or the referee role, fill with bots, takeover, reclaim;
* :mod:`.play`: a seat's state, moves, the referee's exchange, and the WebSocket;
* :mod:`.replay`: the record of a finished game, step by step;
* :mod:`.tutorial`: the guided first game's table;
* :mod:`.players`: the leaderboards, players' profiles and their pages;
* :mod:`.pages`: the browser client.

:func:`alea.server.app.create_app` includes them all; each reaches the one
:class:`~alea.server.service.GameServer` through :func:`.common.server_of`.
"""
