"""Typed errors of the rules engine.

Every error is a :class:`ValueError`, so callers that only care about "bad
input" catch one thing, while interfaces that want to say *why* can tell a
malformed token from a well-formed but illegal move. The two move errors
subclass the bases every game shares (:mod:`alea.game`), so an interface that
hosts several games catches ``alea.game.IllegalActionError`` for all of them.
"""

from alea import game


class AleaError(ValueError):
    """Base of every error the engine raises for bad input."""


class IllegalActionError(AleaError, game.IllegalActionError):
    """An action or outcome that the rules do not allow here (or that is malformed).

    The message is meant for a player: it names the building and the rule,
    e.g. ``"Castrum: there is already a set of three 4s"``.
    """


class NotationError(IllegalActionError, game.NotationError):
    """A token that is not valid notation (RULES.md §7), e.g. ``"C:447x"``."""
