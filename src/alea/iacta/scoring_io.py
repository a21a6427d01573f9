"""Reading holdings for the scoring calculator: JSON and a short text form.

The text form is meant to be typed at the table, one player per line::

    Anna: provinces: red4 blue2 grey0; patricians: redm2 redw3 bluew1; senate: V; tokens: 5
    Bruno: prov: green3; pat: greenm1; tok: 2

* a line is ``[name:] section; section; ...``; a section is ``keyword: items``;
* keywords are ``provinces``, ``patricians``, ``senate``, ``fortuna``,
  ``tokens``, or any prefix of at least three letters (``prov``, ``pat``,
  ``sen``, ``for``, ``tok``), singular forms included; case is ignored;
* items are separated by spaces and/or commas; card names ignore case
  (``Red4``, ``xii-Green/Blue``); ``fortuna`` takes tile values, ``tokens``
  one whole number; missing sections are empty;
* the name is whatever precedes the first ``:`` when a keyword follows it
  (so a player may be called ``Pat``); unnamed lines are ``Player 1``, ...;
* blank lines and everything after ``#`` are ignored.

JSON is either one player's holdings (``{"provinces": [...], "patricians":
[...], "senate": [...], "fortuna": [...], "tokens": 5}``) or several
(``{"players": {"Anna": {...}, "Bruno": {...}}}``); JSON cards must be written
exactly in the notation of RULES.md §8.

Every problem raises :class:`~alea.iacta.scoring.HoldingsError` naming the
exact token, where it is, and what is wrong.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

from alea.iacta import cards
from alea.iacta.holdings import Holdings, HoldingsError, card_problem, check_box

__all__ = ["KEYWORDS", "Players", "parse_holdings", "parse_json", "parse_text"]

#: The sections of one player's holdings, in the order they are written.
KEYWORDS: Final = ("provinces", "patricians", "senate", "fortuna", "tokens")

#: Parsed players: ``(name, holdings)`` in input order; a lone unnamed player
#: (one JSON object, or one text line without a name) has the name ``None``.
Players = list[tuple[str | None, Holdings]]

_INTEGER: Final = re.compile(r"[+-]?\d+")


def keyword(word: str) -> str | None:
    """The section keyword ``word`` abbreviates (3+ letters), or ``None``."""
    word = word.strip().lower()
    if len(word) < 3:
        return None
    matches = [k for k in KEYWORDS if k.startswith(word)]  # singulars are prefixes too
    return matches[0] if len(matches) == 1 else None


def _normalise(token: str, section: str) -> str:
    """The notation spelling of a card typed in any case."""
    if section == "senate":
        head, sep, tail = token.partition("-")
        return head.upper() + sep + tail.lower()
    return token.lower()


def parse_holdings(text: str) -> Players:
    """Players from JSON (if the text starts with ``{``) or from the text form.

    Also checks that all the players together hold no more than the box.
    """
    players = parse_json(text) if text.lstrip().startswith("{") else parse_text(text)
    if not players:
        raise HoldingsError("no holdings found: the input is empty")
    check_box({name or "": h for name, h in players})
    return players


def parse_json(text: str) -> Players:
    """Players from JSON text (see the module docstring)."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as error:
        raise HoldingsError(
            f"not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    if not isinstance(data, dict):
        raise HoldingsError("JSON input must be an object", token=data)
    if "players" in data:
        if set(data) != {"players"}:
            extra = sorted(set(data) - {"players"})[0]
            raise HoldingsError(
                f"unknown field {extra!r} next to 'players'", token=extra, section=extra
            )
        players = data["players"]
        if not isinstance(players, dict) or not players:
            raise HoldingsError("'players' must be a non-empty object of name: holdings")
        out: Players = []
        for name, holdings in players.items():
            try:
                out.append((str(name), Holdings.from_json(holdings)))
            except HoldingsError as error:
                raise _located(error, f"player {name!r}") from None
        return out
    return [(None, Holdings.from_json(data))]


def _located(error: HoldingsError, where: str) -> HoldingsError:
    return HoldingsError(f"{where}: {error}", token=error.token, section=error.section)


def parse_text(text: str) -> Players:
    """Players from the text form, one per non-blank line (see the module docstring)."""
    rows: list[tuple[str | None, Holdings]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            rows.append(_parse_line(line))
        except HoldingsError as error:
            raise _located(error, f"line {number}") from None
    if len(rows) > 1:
        return [(name or f"Player {i}", h) for i, (name, h) in enumerate(rows, start=1)]
    return rows


def _parse_line(line: str) -> tuple[str | None, Holdings]:
    name: str | None = None
    head, colon, rest = line.partition(":")
    after = rest.split(":", 1)[0].strip()
    if colon and ":" in rest and keyword(after) is not None:
        name = head.strip()
        line = rest
    sections: dict[str, list[str]] = {}
    for part in line.split(";"):
        part = part.strip()
        if not part:
            continue
        word, colon, items = part.partition(":")
        section = keyword(word)
        if not colon or section is None:
            shown = word.strip() if colon else part
            raise HoldingsError(
                f"{shown!r} is not a section: expected '<section>: items' with a section of "
                f"{', '.join(KEYWORDS)} (or 3+ letters of one), sections separated by ';'",
                token=shown,
            )
        if section in sections:
            raise HoldingsError(
                f"{section!r} is given twice (write all its items in one section)",
                token=word.strip(),
                section=section,
            )
        sections[section] = [t for t in re.split(r"[\s,]+", items) if t]
    try:
        where = f"player {name!r}" if name else ""
        holdings = _holdings(sections)
    except HoldingsError as error:
        raise (_located(error, where) if where else error) from None
    return name, holdings


def _holdings(sections: dict[str, list[str]]) -> Holdings:
    found: dict[str, list[str]] = {}
    tables: dict[str, Mapping[str, object]] = {
        "provinces": cards.PROVINCES,
        "patricians": cards.PATRICIANS,
        "senate": cards.SENATE_CARDS,
    }
    for section, table in tables.items():
        found[section] = []
        for token in sections.get(section, []):
            card = _normalise(token, section)
            if card not in table:
                message = card_problem(card, section)
                if card != token:
                    message = message.replace(repr(card), repr(token), 1)
                raise HoldingsError(f"{section}: {message}", token=token, section=section)
            found[section].append(card)
    fortuna: list[int] = []
    for token in sections.get("fortuna", []):
        if not _INTEGER.fullmatch(token) or int(token) not in (1, 2, 3):
            raise HoldingsError(
                f"fortuna: {token!r} is not a Fortuna tile (tiles are worth 1, 2 or 3)",
                token=token,
                section="fortuna",
            )
        fortuna.append(int(token))
    tokens = 0
    items = sections.get("tokens", [])
    if len(items) > 1:
        raise HoldingsError(
            f"tokens: {' '.join(items)!r}: give one number of re-roll tokens",
            token=items[1],
            section="tokens",
        )
    if items:
        token = items[0]
        if not _INTEGER.fullmatch(token):
            raise HoldingsError(
                f"tokens: {token!r} is not a number of re-roll tokens",
                token=token,
                section="tokens",
            )
        tokens = int(token)
        if tokens < 0:
            raise HoldingsError(
                f"tokens: {token!r}: a player cannot hold a negative number of re-roll tokens",
                token=token,
                section="tokens",
            )
    holdings = Holdings(
        tuple(found["provinces"]),
        tuple(found["patricians"]),
        tuple(found["senate"]),
        tuple(fortuna),
        tokens,
    )
    holdings.validate()
    return holdings
