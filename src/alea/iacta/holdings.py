"""What a player holds at the end of a game, checked against the contents of the box.

RULES.md §5 scores a player's provinces, patricians, Senate cards, Fortuna tiles
and re-roll tokens. :class:`Holdings` is that value, validated when it is made
(unknown cards, a card in the wrong section, counts that cannot be); and
:func:`check_box` checks a whole table at once, since the box holds each province
and patrician once and each Senate card once (XIII twice). It is a module of its
own because every door into scoring (the engine at the end of a game, the
terminal scorer, the table-top scorer page, the bots' end-game estimates) builds
and checks holdings, while only some of them search for the best arrangement
(:mod:`alea.iacta.scoring`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, cast

from alea.iacta import cards
from alea.iacta.native import python_class

__all__ = ["MAX_SENATE_CARDS", "Holdings", "HoldingsError", "card_problem", "check_box"]

#: A player wins at most one Senate card per round, and a game has at most 6.
MAX_SENATE_CARDS: Final = 6

_COLOUR_INDEX: Final = {colour: i for i, colour in enumerate(cards.COLOURS)}


class HoldingsError(ValueError):
    """Holdings that no real game can produce, naming the offending token.

    ``token`` is the exact text (or value) at fault and ``section`` the part of
    the holdings it was found in (``"provinces"``, ``"fortuna"``, ...), so an
    interface can point at it.
    """

    def __init__(self, message: str, *, token: object = None, section: str = "") -> None:
        super().__init__(message)
        self.token = token
        self.section = section


# --------------------------------------------------------------------- holdings


def _as_tuple(value: Any) -> tuple[Any, ...]:
    if isinstance(value, tuple):
        return value
    if isinstance(value, str | bytes):
        # A lone string would otherwise become a tuple of letters.
        return (value,)
    return tuple(value)


@python_class  # accepts any iterable, stored as tuples: see alea.iacta.native
@dataclass(frozen=True)
class Holdings:
    """Everything one player owns at the end of the game that can score.

    Cards are their notation strings (RULES.md §8); Fortuna tiles are their
    values (1–3); ``tokens`` is the number of unused re-roll tokens. Any
    iterable is accepted for the card fields and stored as a tuple, so a
    ``Holdings`` is hashable and safe to share. The constructor does not check
    the cards against the box (the engine builds holdings from real games);
    use :meth:`checked` or :meth:`from_json` for outside input, or
    :meth:`validate` on an existing value.
    """

    provinces: tuple[str, ...] = ()
    patricians: tuple[str, ...] = ()
    senate: tuple[str, ...] = ()
    fortuna: tuple[int, ...] = ()
    tokens: int = 0

    def __post_init__(self) -> None:
        for name in ("provinces", "patricians", "senate", "fortuna"):
            object.__setattr__(self, name, _as_tuple(getattr(self, name)))

    @classmethod
    def checked(
        cls,
        provinces: Iterable[str] = (),
        patricians: Iterable[str] = (),
        senate: Iterable[str] = (),
        fortuna: Iterable[int] = (),
        tokens: int = 0,
    ) -> Holdings:
        """Build holdings and :meth:`validate` them (raises :class:`HoldingsError`)."""
        holdings = cls(tuple(provinces), tuple(patricians), tuple(senate), tuple(fortuna), tokens)
        holdings.validate()
        return holdings

    def validate(self) -> list[str]:
        """Check every token against the box; return warnings, raise on errors.

        Errors (:class:`HoldingsError`): a string that is no card, a card in
        the wrong section, more copies of a card than the box holds (XIII has
        2, every other card 1; Fortuna tiles 8 × 1, 14 × 2, 8 × 3), a negative
        or non-integer token count. Warnings: more than six Senate cards
        (possible to score, impossible to win in a game).
        """
        for token in self.provinces:
            if token not in cards.PROVINCES:
                raise HoldingsError(
                    card_problem(token, "provinces"), token=token, section="provinces"
                )
        for token in self.patricians:
            if token not in cards.PATRICIANS:
                raise HoldingsError(
                    card_problem(token, "patricians"), token=token, section="patricians"
                )
        for token in self.senate:
            if token not in cards.SENATE_CARDS:
                raise HoldingsError(card_problem(token, "senate"), token=token, section="senate")
        # Read as stored, untyped: the declared types are what is being verified, and a
        # compiled build checks a typed attribute's type as it reads it.
        stored: dict[str, object] = vars(self)
        tiles = cast(tuple[object, ...], stored["fortuna"])
        tokens = stored["tokens"]
        for tile in tiles:
            if isinstance(tile, bool) or not isinstance(tile, int) or tile not in (1, 2, 3):
                raise HoldingsError(
                    f"{tile!r} is not a Fortuna tile (tiles are worth 1, 2 or 3)",
                    token=tile,
                    section="fortuna",
                )
        if isinstance(tokens, bool) or not isinstance(tokens, int):
            raise HoldingsError(
                f"{tokens!r} is not a number of re-roll tokens (expected a whole number)",
                token=tokens,
                section="tokens",
            )
        if self.tokens < 0:
            raise HoldingsError(
                f"{self.tokens} re-roll tokens: a player cannot hold a negative number",
                token=self.tokens,
                section="tokens",
            )
        check_box({"": self})
        warnings = []
        if len(self.senate) > MAX_SENATE_CARDS:
            warnings.append(
                f"{len(self.senate)} Senate cards: a player wins at most one per round, "
                f"so at most {MAX_SENATE_CARDS} in a game (scored anyway)"
            )
        return warnings

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict with the five fields (lists for the tuples)."""
        return {
            "provinces": list(self.provinces),
            "patricians": list(self.patricians),
            "senate": list(self.senate),
            "fortuna": list(self.fortuna),
            "tokens": self.tokens,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Holdings:
        """Validated holdings from :meth:`to_json` output; missing fields are empty.

        Raises :class:`HoldingsError` for unknown keys, wrong types and every
        problem :meth:`validate` finds.
        """
        if not isinstance(data, Mapping):
            raise HoldingsError(
                f"expected an object with provinces, patricians, senate, fortuna, tokens; "
                f"got {type(data).__name__}",
                token=data,
            )
        known = ("provinces", "patricians", "senate", "fortuna", "tokens")
        for key in data:
            if key not in known:
                raise HoldingsError(
                    f"unknown field {key!r} (expected one of: {', '.join(known)})",
                    token=key,
                    section=str(key),
                )
        lists: dict[str, tuple[Any, ...]] = {}
        for key in known[:4]:
            value = data.get(key, [])
            if not isinstance(value, list | tuple):
                raise HoldingsError(
                    f"{key!r} must be a list, got {value!r}", token=value, section=key
                )
            for item in value:
                wanted = int if key == "fortuna" else str
                if isinstance(item, bool) or not isinstance(item, wanted):
                    what = "a tile value 1-3" if key == "fortuna" else "a card string"
                    raise HoldingsError(
                        f"{item!r} in {key!r} is not {what}", token=item, section=key
                    )
            lists[key] = tuple(value)
        tokens = data.get("tokens", 0)
        holdings = cls(
            lists["provinces"], lists["patricians"], lists["senate"], lists["fortuna"], tokens
        )
        holdings.validate()
        return holdings


def card_problem(token: str, section: str) -> str:
    """Why ``token`` is not a card of ``section``, in words a player understands."""
    kinds: dict[str, tuple[str, Mapping[str, object]]] = {
        "provinces": ("a province card", cards.PROVINCES),
        "patricians": ("a patrician tile", cards.PATRICIANS),
        "senate": ("a Senate card", cards.SENATE_CARDS),
    }
    wanted, _ = kinds[section]
    for other, (name, table) in kinds.items():
        if other != section and token in table:
            return f"{token!r} is {name}, not {wanted}: list it under {other}"
    if section == "senate" and token.startswith("XII-"):
        pair = token[4:].split("/")
        if len(pair) == 2 and all(c in _COLOUR_INDEX for c in pair):
            a, b = pair
            if (b, a) in cards.BORDER_PAIRS:
                return f"{token!r} is written XII-{b}/{a} (colours in ring order)"
            return (
                f"{token!r} does not exist: border provinces join neighbouring colours of the "
                f"ring ({', '.join(cards.BORDER_CARDS)})"
            )
        return f"{token!r} is not a border province ({', '.join(cards.BORDER_CARDS)})"
    if section == "senate":
        return f"{token!r} is not a Senate card (I-XI, XIII, or {', '.join(cards.BORDER_CARDS)})"
    colour = next((c for c in (*cards.COLOURS, cards.GREY) if token.startswith(c)), None)
    if colour is None:
        return f"{token!r} is not {wanted}: it starts with no colour ({', '.join(cards.COLOURS)})"
    rest = token[len(colour) :]
    if section == "provinces":
        if colour == cards.GREY:
            return f"{token!r} does not exist: the only grey province is the wild province grey0"
        if rest.isdigit():
            return f"{token!r} does not exist: province cards are worth 1 to 4"
        return f"{token!r} is not a province card (e.g. 'red4', or the wild province 'grey0')"
    if colour == cards.GREY:
        return f"{token!r} does not exist: patricians come in {', '.join(cards.COLOURS)}"
    if rest[:1] in ("m", "w") and rest[1:].isdigit():
        return f"{token!r} does not exist: patricians are worth 1 to 3"
    return f"{token!r} is not a patrician tile (colour, m or w, value 1-3, e.g. 'bluew2')"


def check_box(players: Mapping[str, Holdings]) -> None:
    """Raise :class:`HoldingsError` if the players together hold more than the box.

    Province cards and patrician tiles exist once each, XIII twice, every other
    Senate card once; Fortuna tiles 8 × 1, 14 × 2, 8 × 3. Re-roll tokens are
    an unlimited supply (RULES.md §9). Only call this with cards already known
    to exist (:meth:`Holdings.validate` does both in the right order).
    """
    names = [name for name in players if name]

    def who(found: list[str]) -> str:
        return f" (held by {', '.join(found)})" if any(found) else ""

    seen: dict[tuple[str, str | int], list[str]] = {}
    for name, holdings in players.items():
        sections: tuple[tuple[str, tuple[str | int, ...]], ...] = (
            ("provinces", holdings.provinces),
            ("patricians", holdings.patricians),
            ("senate", holdings.senate),
            ("fortuna", holdings.fortuna),
        )
        for section, items in sections:
            for item in items:
                seen.setdefault((section, item), []).append(name)
    for (section, item), holders in seen.items():
        if section == "fortuna":
            limit = cards.FORTUNA_COPIES.get(int(item), 0)
            if len(holders) > limit:
                raise HoldingsError(
                    f"{len(holders)} Fortuna tiles of value {item}: the box holds only {limit}"
                    + who(sorted(set(holders)) if names else []),
                    token=item,
                    section=section,
                )
            continue
        limit = cards.SENATE_COPIES.get(str(item), 0) if section == "senate" else 1
        if len(holders) > limit:
            copies = "once" if limit == 1 else f"{limit} times"
            raise HoldingsError(
                f"{item!r} appears {len(holders)} times but the box holds it {copies}"
                + who(holders if names else []),
                token=item,
                section=section,
            )
