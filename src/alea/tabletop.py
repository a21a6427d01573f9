"""Scoring a physical game's table: every player's holdings, checked and scored.

The ``/score`` page and ``POST /api/score`` send what each player of a real
table holds at the end of the game. This module turns that into the answer the
page draws: each player's best arrangement (from :mod:`alea.iacta.scoring`,
the same optimiser as ``alea score``), the explanations in English and
Italian, the ranking with its tie-breaks, and the winner(s).

Legality is the engine's: every card, count and box limit is checked by
:meth:`~alea.iacta.scoring.Holdings.from_json` and
:func:`~alea.iacta.scoring.check_box`; this module only sorts the engine's
:class:`~alea.iacta.scoring.HoldingsError` into stable error codes a client
can act on (:class:`TableError`) and checks what only a table has: names and
the number of players. The engine's explanations are English; :func:`italian`
translates each of their fixed forms, and a test pins that every form the
engine produces has a translation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

import alea.iacta as iacta
from alea.iacta import cards
from alea.iacta.holdings import MAX_SENATE_CARDS, Holdings, HoldingsError, check_box
from alea.iacta.scoring import Arrangement, best_arrangement, ranking

__all__ = [
    "CODES",
    "MAX_NAME",
    "TableError",
    "box",
    "check_table",
    "italian",
    "score_table",
]

#: The longest player name the page accepts (it is drawn on a phone's width).
MAX_NAME: Final = 24

#: Every error code :class:`TableError` may carry, and what it means.
CODES: Final = {
    "unknown_card": "a string that is no card of the box",
    "wrong_section": "a real card listed under the wrong kind of piece",
    "too_many": "more copies of a card or Fortuna tile than the box holds, across the table",
    "out_of_range": "a Fortuna tile value or a number of re-roll tokens that cannot be",
    "bad_players": "no players, too many, or a name that is empty, too long or repeated",
    "bad_holdings": "holdings that are not an object of lists of cards, tiles and a number",
}

_SECTIONS: Final[dict[str, Mapping[str, object]]] = {
    "provinces": cards.PROVINCES,
    "patricians": cards.PATRICIANS,
    "senate": cards.SENATE_CARDS,
}


class TableError(ValueError):
    """Holdings no real table can produce: a stable ``code`` (:data:`CODES`) and the detail.

    ``player`` names the player at fault (``None`` for the table as a whole),
    ``section`` and ``token`` the engine's pointer to the piece, so a page can
    mark it.
    """

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        player: str | None = None,
        section: str = "",
        token: object = None,
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.player = player
        self.section = section
        self.token = token


def box() -> dict[str, Any]:
    """What the box holds and a table allows, from the engine's own tables.

    The ``/score`` page builds its pieces from this and refuses, before
    sending, what the box cannot produce; the server checks again anyway.
    """
    return {
        "colours": list(cards.COLOURS),
        "provinces": list(cards.PROVINCES),
        "patricians": list(cards.PATRICIANS),
        "senate": dict(cards.SENATE_COPIES),
        "fortuna": {str(value): copies for value, copies in cards.FORTUNA_COPIES.items()},
        "max_senate": MAX_SENATE_CARDS,
        "min_players": 1,
        "max_players": iacta.INFO.max_players,
        "max_name": MAX_NAME,
    }


def _classify(error: HoldingsError, data: object = None) -> str:
    """The :data:`CODES` entry of an engine refusal, from where it points.

    ``data`` is the one player's holdings that were refused (``None`` when the
    table as a whole was): a section that is not a list is a shape error even
    when its text happens to look like a card.
    """
    section, token = error.section, error.token
    if (
        isinstance(data, Mapping)
        and section in _SECTIONS
        and not isinstance(data.get(section), list | tuple)
    ):
        return "bad_holdings"
    if section in _SECTIONS:
        if not isinstance(token, str):
            return "bad_holdings"
        if token in _SECTIONS[section]:
            return "too_many"  # a real card of its section: only the box limit refuses it
        if any(token in table for table in _SECTIONS.values()):
            return "wrong_section"
        return "unknown_card"
    if section == "fortuna":
        if isinstance(token, int) and not isinstance(token, bool) and token in (1, 2, 3):
            return "too_many"
        return "out_of_range" if isinstance(token, int) else "bad_holdings"
    if section == "tokens":
        return "out_of_range" if isinstance(token, int) else "bad_holdings"
    return "bad_holdings"


def _check_names(names: Sequence[str]) -> None:
    most = iacta.INFO.max_players
    if not names or len(names) > most:
        raise TableError(
            "bad_players", f"a table has 1 to {most} players to score, not {len(names)}"
        )
    seen: set[str] = set()
    for name in names:
        if not name.strip() or len(name) > MAX_NAME:
            raise TableError(
                "bad_players",
                f"{name!r}: a name has 1 to {MAX_NAME} characters",
                player=name,
            )
        key = name.strip().casefold()
        if key in seen:
            raise TableError("bad_players", f"{name!r} is at the table twice", player=name)
        seen.add(key)


def check_table(players: Sequence[tuple[str, Any]]) -> list[tuple[str, Holdings]]:
    """Every player's holdings validated by the engine, then the table against the box.

    ``players`` is ``[(name, holdings JSON), ...]`` in seating order. Raises
    :class:`TableError` for the first problem found.
    """
    _check_names([name for name, _ in players])
    checked: list[tuple[str, Holdings]] = []
    for name, data in players:
        try:
            checked.append((name, Holdings.from_json(data)))
        except HoldingsError as error:
            raise TableError(
                _classify(error, data),
                f"{name}: {error}",
                player=name,
                section=error.section,
                token=error.token,
            ) from None
    try:
        check_box(dict(checked))
    except HoldingsError as error:
        raise TableError(
            _classify(error), str(error), section=error.section, token=error.token
        ) from None
    return checked


def _words(reason: str) -> dict[str, str]:
    return {"en": reason, "it": italian(reason)}


def _player(name: str, a: Arrangement) -> dict[str, Any]:
    b = a.breakdown
    return {
        "name": name,
        "score": a.score,
        "tiebreak": a.tiebreak,
        "places": [
            {**p.to_json(), "why": _words(p.reason), "extra_value": _value(p.extra)}
            for p in a.places
        ],
        "unplaced": list(a.unplaced),
        "senate": [{**s.to_json(), "why": _words(s.reason)} for s in b.senate],
        "breakdown": b.to_json(),
        "holdings": a.holdings.to_json(),
        "warnings": list(a.warnings),
    }


def _value(patrician: str | None) -> int:
    return cards.PATRICIANS[patrician].value if patrician else 0


def score_table(players: Sequence[tuple[str, Any]]) -> dict[str, Any]:
    """The answer of ``POST /api/score``: arrangements, ranking, tie-breaks and winners.

    ``players`` is ``[(name, holdings JSON), ...]``. The result keeps the
    players in input order; ``ranking`` orders them by score, then tie-break
    (RULES.md §5.3). ``decided_by`` says what settled first place:
    ``"score"``, ``"tiebreak"`` (equal scores, different unplaced values),
    ``"shared"`` (equal on both) or ``"alone"`` (one player).
    """
    checked = check_table(players)
    arrangements = {name: best_arrangement(h) for name, h in checked}
    standings = ranking(arrangements)
    top = standings[0].arrangement
    winners = [s.name for s in standings if s.rank == 1]
    level = [s for s in standings if s.arrangement.score == top.score]
    if len(standings) == 1:
        decided_by = "alone"
    elif len(winners) > 1:
        decided_by = "shared"
    elif len(level) > 1:
        decided_by = "tiebreak"
    else:
        decided_by = "score"
    return {
        "players": [_player(name, arrangements[name]) for name, _ in checked],
        "ranking": [s.to_json() for s in standings],
        "winners": winners,
        "decided_by": decided_by,
    }


# ------------------------------------------------------------------ Italian

_COLOURS_IT: Final = {
    "red": "rosso",
    "orange": "arancione",
    "yellow": "giallo",
    "green": "verde",
    "blue": "blu",
    "purple": "viola",
    "grey": "grigio",
}


#: Feminine forms, for women and provinces (``provincia rossa``, ``donna gialla``).
_FEMININE_IT: Final = {"rosso": "rossa", "giallo": "gialla"}

_CARD: Final = re.compile(r"\b(?:[a-z]+[mw][1-3]|[a-z]+[1-4]|grey0)\b")


def _card_it(match: re.Match[str]) -> str:
    """A patrician or province card in Italian words (``redw3`` -> ``donna rossa 3``)."""
    token = match[0]
    if token in cards.PATRICIANS:
        info = cards.PATRICIANS[token]
        colour = _COLOURS_IT[info.colour]
        if info.sex == "w":
            return f"donna {_FEMININE_IT.get(colour, colour)} {info.value}"
        return f"uomo {colour} {info.value}"
    if token == cards.WILD_PROVINCE:
        return "provincia jolly"
    if token in cards.PROVINCES:
        province = cards.PROVINCES[token]
        colour = _COLOURS_IT[province.colour]
        return f"{_FEMININE_IT.get(colour, colour)} {province.value}"
    return token


def _cards_it(text: str) -> str:
    return _CARD.sub(_card_it, text)


def _colour_list(text: str) -> str:
    if text == "none":
        return "nessuno"
    return ", ".join(_COLOURS_IT.get(c, c) for c in text.split(", "))


def _count(n: str, one: str, many: str) -> str:
    return f"{n} {one if n == '1' else many}"


def _none(text: str) -> str:
    return "nessuna" if text == "none" else text


#: Each fixed form of the engine's reasons (:mod:`alea.iacta.scoring`) and its Italian.
#: A form is a full-match pattern; a template's ``{n}`` fields take the groups by name,
#: a callable builds the text from the match.
_FORMS: Final[tuple[tuple[re.Pattern[str], Any], ...]] = tuple(
    (re.compile(pattern), template)
    for pattern, template in (
        (r"empty: value (?P<v>\d) - 1", "vuota: valore {v} − 1"),
        (r"card (?P<v>\d) \+ patricians (?P<p>[\d+]+)", "carta {v} + patrizi {p}"),
        (r"empty wild province: -1", "provincia jolly vuota: −1"),
        (r"wild 0 \+ patricians (?P<p>[\d+]+)", "jolly 0 + patrizi {p}"),
        (r"empty free province: 0", "provincia libera vuota: 0"),
        (r"free 1 \+ patricians (?P<p>[\d+]+)", "libera 1 + patrizi {p}"),
        (r"free 1", "libera 1"),
        (r"empty border province: 0", "provincia di confine vuota: 0"),
        (r"one of each colour: 3 \+ patricians (?P<p>[\d+]+)", "uno per colore: 3 + patrizi {p}"),
        (r"one of each colour: 3", "uno per colore: 3"),
        (
            r"not one of each colour: 0 \+ patricians (?P<p>[\d+]+)",
            "non uno per colore: 0 + patrizi {p}",
        ),
        (r"not one of each colour: 0", "non uno per colore: 0"),
        (r"1 \+ (?P<n>\d+) places owned // 2", "1 + {n} luoghi posseduti // 2"),
        (r"(?P<n>\d+) placed // 2", "{n} piazzati // 2"),
        (r"1 \+ (?P<n>\d+) Senate cards", "1 + {n} carte Senato"),
        (r"1 \+ 2 x \((?P<n>\d+) Fortuna tiles // 3\)", "1 + 2 × ({n} tessere Fortuna // 3)"),
        (r"1 \+ (?P<n>\d+) couples?", lambda m: f"1 + {_count(m['n'], 'coppia', 'coppie')}"),
        (r"colours placed: (?P<c>.+)", lambda m: "colori piazzati: " + _colour_list(m["c"])),
        (
            r"colours of places: (?P<c>.+)",
            lambda m: "colori dei luoghi: " + _colour_list(m["c"]),
        ),
        (
            r"province cards with a patrician: (?P<c>.+)",
            lambda m: "carte provincia con un patrizio: " + _cards_it(_none(m["c"])),
        ),
        (
            r"(?P<n>\d+) wom[ae]n placed",
            lambda m: _count(m["n"], "donna piazzata", "donne piazzate"),
        ),
        (r"(?P<n>\d+) m[ae]n placed", lambda m: _count(m["n"], "uomo piazzato", "uomini piazzati")),
        (r"beside couples: (?P<p>.+)", lambda m: "accanto alle coppie: " + _cards_it(m["p"])),
        (
            r"no unplaced patrician of a couple's colour",
            "nessun patrizio non piazzato del colore di una coppia",
        ),
        (r"no couple", "nessuna coppia"),
    )
)

_EXTRA: Final = re.compile(r"(?P<head>.+); XI extra (?P<p>\w+) scores under XI")


def italian(reason: str) -> str:
    """The Italian of one of the engine's reasons; raises ``KeyError`` for an unknown form.

    Raising (instead of passing the English through) keeps a new form in the
    engine from reaching Italian players untranslated: the tests score many
    holdings and translate every reason.
    """
    extra = _EXTRA.fullmatch(reason)
    if extra:
        return f"{italian(extra['head'])}; {_cards_it(extra['p'])} in più conta per XI"
    for pattern, template in _FORMS:
        match = pattern.fullmatch(reason)
        if match:
            if callable(template):
                return str(template(match))
            return str(template).format(**match.groupdict())
    raise KeyError(f"no Italian for the reason {reason!r}")
