"""A seat's view (RULES.md §6) written as JSON text, the public part encoded once per position.

The game server sends every seat of a table its view after every event, as JSON.
:func:`alea.iacta.views.view` already builds the public part of a position's
views once; but each seat's view was still a copy of that whole part (two dozen
dicts and lists) encoded whole (about 3 KB), four times per event at a table of
four, although the seats' views differ only in four places: the ``seat``, the
seat's own entry of ``players_info`` (its Fortuna tiles drawn and its Senate
cards), ``senate_hand`` and ``senate_bottom``
(:func:`~alea.iacta.knowledge.own_secrets`).

:func:`view_text` encodes the public part once per position with a mark in each
of those four places, and keeps the text cut at the marks, and each public
``players_info`` entry encoded, on the state (``State._view_text``, cleared by
``apply`` with the public view, so it can no more go stale than that can). A
seat's view is then those pieces joined with its own four values: only its own
entry is copied and encoded. The JSON *value* is exactly that of
``view(state, seat)`` encoded by the same encoder (the tests compare them at every
step of random games); only the order of the four keys in the text may differ.

The engine names no encoder: the caller passes one (the server's is orjson), and
what is kept is dropped if another encoder asks. Nothing is kept of any seat's
secrets: they are read from the state at every call, as :func:`view` reads them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from alea.iacta.knowledge import own_secrets
from alea.iacta.views import public_part, view

if TYPE_CHECKING:
    from alea.iacta.state import State

__all__ = ["Encode", "TextParts", "view_text"]

#: A value to its compact JSON text (the caller's encoder).
Encode = Callable[[Any], str]

#: The four places where the seats' views differ; a place is its index here and in
#: :data:`_MARKS`, and the order of the values :func:`_joined` is given.
_KEYS: Final = ("seat", "players_info", "senate_hand", "senate_bottom")
#: What stands in each place while the public part is encoded: strings no view holds
#: (a view's strings are the game's own names and notations, never a NUL).
_MARKS: Final = (
    "\x00alea:seat\x00",
    "\x00alea:players\x00",
    "\x00alea:hand\x00",
    "\x00alea:bottom\x00",
)


class TextParts:
    """The encoded public part of one position's views, cut at the four places."""

    def __init__(
        self,
        encode: Encode,
        pieces: list[str],
        order: list[int],
        players: list[str],
        public: dict[str, Any],
    ) -> None:
        #: The encoder the texts were written with.
        self.encode = encode
        #: The public part's text cut at the marks: one more piece than places.
        self.pieces = pieces
        #: Which place (an index of :data:`_KEYS`) comes after each piece but the last.
        self.order = order
        #: Each seat's public ``players_info`` entry, encoded.
        self.players = players
        #: The kept public view the texts were written from.
        self.public = public
        #: The spectator's whole view, written when first asked.
        self.spectator: str | None = None


def _parts(state: State, encode: Encode) -> TextParts | None:
    """The pieces of ``state``'s public part for ``encode``; None if the text could not be
    cut at the marks (each must appear exactly once; then the caller encodes whole)."""
    public = public_part(state)
    template = public.copy()
    for key, mark in zip(_KEYS, _MARKS, strict=True):
        template[key] = mark
    text = encode(template)
    found: list[tuple[int, int, int]] = []
    for place, mark in enumerate(_MARKS):
        written = encode(mark)  # per position, not kept per encoder: callers may pass lambdas
        at = text.find(written)
        if at < 0 or text.find(written, at + 1) >= 0:
            return None
        found.append((at, place, len(written)))
    found.sort()
    pieces: list[str] = []
    order: list[int] = []
    cut = 0
    for at, place, size in found:
        pieces.append(text[cut:at])
        order.append(place)
        cut = at + size
    pieces.append(text[cut:])
    entries: list[dict[str, Any]] = public["players_info"]
    return TextParts(encode, pieces, order, [encode(entry) for entry in entries], public)


def _joined(parts: TextParts, values: list[str]) -> str:
    """The pieces with each place's value between them."""
    out = [parts.pieces[0]]
    for i, place in enumerate(parts.order):
        out.append(values[place])
        out.append(parts.pieces[i + 1])
    return "".join(out)


def view_text(state: State, seat: int | None, encode: Encode) -> str:
    """``view(state, seat)`` as JSON text written by ``encode``: the same value, the public
    part encoded once per position (see the module's docstring)."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"seat {seat} does not exist in a {state.players}-player game")
    parts = state._view_text
    if parts is None or parts.encode is not encode:  # apply clears it with the public part
        parts = _parts(state, encode)
        if parts is None:
            return encode(view(state, seat))
        state._view_text = parts
    public = parts.public
    if seat is None:
        if parts.spectator is None:
            parts.spectator = _joined(
                parts,
                [
                    encode(public["seat"]),
                    "[" + ",".join(parts.players) + "]",
                    encode(public["senate_hand"]),
                    encode(public["senate_bottom"]),
                ],
            )
        return parts.spectator
    drawn, cards, hand, bottom = own_secrets(state, seat)
    entries: list[dict[str, Any]] = public["players_info"]
    mine = entries[seat].copy()
    mine["fortuna_drawn_values"] = list(drawn)
    mine["senate"] = list(cards)
    players = parts.players[:]
    players[seat] = encode(mine)
    return _joined(
        parts,
        [
            str(seat),
            "[" + ",".join(players) + "]",
            encode(list(hand)) if hand is not None else "null",
            encode(list(bottom)) if bottom else "[]",
        ],
    )
