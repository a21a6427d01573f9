"""The cards and tiles in the box (RULES.md §1 and §8).

Every card is represented by its notation string (``"red4"``, ``"purplew3"``,
``"XII-red/orange"``): strings are hashable, JSON-ready and already the
notation every interface must speak, so nothing ever has to be converted on
the way in or out. The tables below give the parsed attributes of each card so
that code never re-parses a string in a hot loop.
"""

from __future__ import annotations

from typing import Final, NamedTuple

#: The six colours, in ring order (RULES.md §1): border provinces join neighbours.
COLOURS: Final = ("red", "orange", "yellow", "green", "blue", "purple")
#: Colour of the wild province and of an empty wild or free province (Senate VII).
GREY: Final = "grey"
WILD_PROVINCE: Final = "grey0"

#: Player colours of the dice, by seat.
PLAYER_COLOURS: Final = ("gray", "brown", "blue", "green", "yellow")


class ProvinceInfo(NamedTuple):
    """A province card: its colour (``grey`` for the wild province) and value."""

    colour: str
    value: int


class PatricianInfo(NamedTuple):
    """A patrician tile: colour, sex (``m`` man, ``w`` woman) and value 1–3."""

    colour: str
    sex: str
    value: int


class SenateInfo(NamedTuple):
    """A Senate card: its numeral (1–13) and, for XII, the two border colours."""

    number: int
    colours: tuple[str, ...]


ROMAN: Final = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII")

#: The six border provinces: the adjacent pairs of the colour ring.
BORDER_PAIRS: Final = tuple((COLOURS[i], COLOURS[(i + 1) % 6]) for i in range(6))
BORDER_CARDS: Final = tuple(f"XII-{a}/{b}" for a, b in BORDER_PAIRS)
FREE_PROVINCE: Final = "XIII"

PROVINCES: Final[dict[str, ProvinceInfo]] = {
    f"{c}{v}": ProvinceInfo(c, v) for c in COLOURS for v in (1, 2, 3, 4)
}
PROVINCES[WILD_PROVINCE] = ProvinceInfo(GREY, 0)

PATRICIANS: Final[dict[str, PatricianInfo]] = {
    f"{c}{s}{v}": PatricianInfo(c, s, v) for c in COLOURS for s in ("m", "w") for v in (1, 2, 3)
}

SENATE_CARDS: Final[dict[str, SenateInfo]] = {ROMAN[i]: SenateInfo(i + 1, ()) for i in range(11)}
SENATE_CARDS.update(
    {card: SenateInfo(12, pair) for card, pair in zip(BORDER_CARDS, BORDER_PAIRS, strict=True)}
)
SENATE_CARDS[FREE_PROVINCE] = SenateInfo(13, ())

#: How many copies of each Senate card the box holds (XIII twice, the rest once).
SENATE_COPIES: Final[dict[str, int]] = {card: 1 for card in SENATE_CARDS}
SENATE_COPIES[FREE_PROVINCE] = 2

#: Fortuna tiles in the box, by value (RULES.md §1).
FORTUNA_COPIES: Final[dict[int, int]] = {1: 8, 2: 14, 3: 8}


def senate_deck(players: int) -> list[str]:
    """The Senate deck for a player count: 19 cards, IV removed with 2–3 players."""
    deck: list[str] = []
    for card, copies in SENATE_COPIES.items():
        if card == "IV" and players < 4:
            continue
        deck.extend([card] * copies)
    return deck


def province_deck() -> list[str]:
    """All 25 province cards (24 coloured plus the wild province)."""
    return list(PROVINCES)


def patrician_deck() -> list[str]:
    """All 36 patrician tiles."""
    return list(PATRICIANS)


def fortuna_stack() -> dict[int, int]:
    """The full Fortuna stack as counts by value."""
    return dict(FORTUNA_COPIES)


class UnknownCardError(ValueError):
    """A string that names no card of the box."""


def check_province(text: str) -> str:
    """Return ``text`` if it names a province card, else raise :class:`UnknownCardError`."""
    if text not in PROVINCES:
        raise UnknownCardError(
            f"{text!r} is not a province card (expected a colour and 1–4, e.g. 'red4', "
            f"or the wild province 'grey0'; colours: {', '.join(COLOURS)})"
        )
    return text


def check_patrician(text: str) -> str:
    """Return ``text`` if it names a patrician tile, else raise :class:`UnknownCardError`."""
    if text not in PATRICIANS:
        raise UnknownCardError(
            f"{text!r} is not a patrician tile (expected colour, m or w, and 1–3, "
            f"e.g. 'bluew2'; colours: {', '.join(COLOURS)})"
        )
    return text


def check_senate(text: str) -> str:
    """Return ``text`` if it names a Senate card, else raise :class:`UnknownCardError`."""
    if text not in SENATE_CARDS:
        raise UnknownCardError(
            f"{text!r} is not a Senate card (expected I–XI, XIII, or a border province "
            f"{', '.join(BORDER_CARDS)})"
        )
    return text
