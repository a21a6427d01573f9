"""The board of the placement rules: the dice in the five buildings (RULES.md §4).

The building modules (:mod:`~alea.iacta.temple`, :mod:`~alea.iacta.senate`,
:mod:`~alea.iacta.castrum`, :mod:`~alea.iacta.forum`) decide what may be
placed from these fields alone. :class:`~alea.iacta.state.State` is a
:class:`Board` (it adds the rest of the game), and a bot that asks "what could
I place with this roll?" for a position it only sees through its view builds a
:class:`Board` of its own: both go through the same typed rules, which is what
lets the engine be compiled (a compiled function accepts only a real
``Board``, never a look-alike).
"""

from __future__ import annotations


class Board:
    """The placed dice, per building.

    ``temple[seat]`` is the seat's Temple group (sorted dice, ``()`` for none);
    ``senate[seat]`` its straight as ``(low, high)`` or None; ``castrum`` maps
    ``(owner, value)`` to the size of that set; ``forum`` is the row of
    ``(value, owner)`` sorted by value.
    """

    __slots__ = ("castrum", "forum", "players", "senate", "temple")

    players: int
    temple: list[tuple[int, ...]]
    senate: list[tuple[int, int] | None]
    castrum: dict[tuple[int, int], int]
    forum: list[tuple[int, int]]

    def __init__(
        self,
        players: int,
        temple: list[tuple[int, ...]],
        senate: list[tuple[int, int] | None],
        castrum: dict[tuple[int, int], int],
        forum: list[tuple[int, int]],
    ) -> None:
        self.players = players
        self.temple = temple
        self.senate = senate
        self.castrum = castrum
        self.forum = forum
