"""Terminal play: humans against bots, or several humans at one keyboard (hot seat).

:class:`Session` holds the game (seats, generators, undo, save/load) and
:class:`TerminalGame` talks to the players through a Rich console.
"""

from alea.play.session import HUMAN, Session
from alea.play.terminal import TerminalGame

__all__ = ["HUMAN", "Session", "TerminalGame"]
