"""Why a placement is not allowed, in the player's words and language.

The engine (``alea.iacta.State.explain``) says why a move is illegal in one English
sentence that names seats by number ("seat 2 already has the straight 3-4-5"). A
player clicking a building the selected dice cannot go to is told the same reason,
but with the other players' names and in Italian or English: each sentence the
placement rules can give is matched here and said again from its parts. A sentence
no pattern knows is shown as the engine wrote it (tests/server/test_reasons.py
makes every sentence the placement rules give known, so that does not happen).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

#: The castrum's set sizes as words ("three 4s"), English and Italian.
_NUMBERS_EN: Final = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")
_NUMBERS_IT: Final = ("nessun", "un", "due", "tre", "quattro", "cinque", "sei", "sette", "otto")

_Say = Callable[[re.Match[str], Sequence[str], str], str]


def _seat(names: Sequence[str], text: str) -> str:
    index = int(text)
    return names[index] if 0 <= index < len(names) else f"{index + 1}"


def _set(words: str, lang: str) -> str:
    """A castrum set as the engine says it ("three 4s") in ``lang`` ("tre 4")."""
    word, _, value = words.partition(" ")
    value = value.rstrip("s")
    if lang == "it":
        count = _NUMBERS_EN.index(word) if word in _NUMBERS_EN else None
        return f"{_NUMBERS_IT[count] if count is not None else word} {value}"
    return words


def _say(it: str, en: str, seats: Sequence[int] = ()) -> _Say:
    """A sentence from a match: ``{1}``, ``{2}`` … are its groups (those in ``seats``, names)."""

    def say(m: re.Match[str], names: Sequence[str], lang: str) -> str:
        parts = ["", *(g or "" for g in m.groups())]
        for key in seats:
            parts[key] = _seat(names, parts[key])
        return (it if lang == "it" else en).format(*parts)

    return say


def _castrum_clash(m: re.Match[str], names: Sequence[str], lang: str) -> str:
    owner, theirs, what = _seat(names, m.group(1)), _set(m.group(2), lang), m.group(3)
    grown = re.fullmatch(r"your set would become (\w+ \d+s?)", what)
    if lang == "it":
        tail = f"il tuo diventerebbe {_set(grown.group(1), lang)}" if grown else "sarebbe uguale"
        return f"{owner} ha già un set di {theirs} e {tail}: due set non possono essere uguali."
    tail = f"yours would become {_set(grown.group(1), lang)}" if grown else "yours would match"
    return f"{owner} already has a set of {theirs} and {tail}: no two sets may be identical."


_PATTERNS: Final[list[tuple[re.Pattern[str], _Say]]] = [
    (
        re.compile(r"Temple: the Temple is only used with 4 or 5 players"),
        _say(
            "il Tempio si usa solo con 4 o 5 giocatori.",
            "the Temple is only used with 4 or 5 players.",
        ),
    ),
    (
        re.compile(
            r"Temple: the leading group has (\d+) dice, so your group of (\d+) must grow to "
            r"exactly (\d+): add (\d+) dice"
        ),
        _say(
            "il gruppo in testa ha {1} dadi: il tuo gruppo di {2} deve arrivare a {3}, "
            "aggiungi esattamente {4} dadi.",
            "the leading group has {1} dice: your group of {2} must grow to exactly {3}, "
            "so add {4} dice.",
        ),
    ),
    (
        re.compile(
            r"Temple: the leading group has (\d+) dice, so a new group must have exactly (\d+)"
        ),
        _say(
            "il gruppo in testa ha {1} dadi: un nuovo gruppo deve averne esattamente {2}.",
            "the leading group has {1} dice: a new group must have exactly {2}.",
        ),
    ),
    (
        re.compile(
            r"Temple: your group must add up to more than the leading group's (\d+): the dice "
            r"you add must sum to at least (\d+)"
        ),
        _say(
            "il tuo gruppo deve sommare più del gruppo in testa ({1}): i dadi che aggiungi "
            "devono sommare almeno {2}.",
            "your group must add up to more than the leading group's {1}: the dice you add "
            "must sum to at least {2}.",
        ),
    ),
    (
        re.compile(r"Senate: a straight is dice of consecutive, different values, e.g. 3-4-5"),
        _say(
            "una scala è fatta di dadi di valori consecutivi e diversi, per esempio 3-4-5.",
            "a straight is dice of consecutive, different values, e.g. 3-4-5.",
        ),
    ),
    (
        re.compile(
            r"Senate: you already have the straight ([\d-]+); you may only extend it at either "
            r"end with consecutive values"
        ),
        _say(
            "hai già la scala {1}: puoi solo allungarla a un capo con valori consecutivi.",
            "you already have the straight {1}: you may only extend it at either end with "
            "consecutive values.",
        ),
    ),
    (
        re.compile(
            r"Senate: seat (\d+) already has the straight ([\d-]+); no two straights may be "
            r"identical"
        ),
        _say(
            "{1} ha già la scala {2}: due scale non possono essere uguali.",
            "{1} already has the straight {2}: no two straights may be identical.",
            seats=(1,),
        ),
    ),
    (
        re.compile(
            r"Castrum: place one set of equal dice, or add equal dice to one of your sets; "
            r"never two values in one turn"
        ),
        _say(
            "piazza un set di dadi uguali, o aggiungi dadi uguali a un tuo set: mai due valori "
            "nello stesso turno.",
            "place one set of equal dice, or add equal dice to one of your sets: never two "
            "values in one turn.",
        ),
    ),
    (
        re.compile(
            r"Castrum: seat (\d+) already has a set of (\w+ \d+s?) and (.+); no two sets may "
            r"be identical"
        ),
        _castrum_clash,
    ),
    (
        re.compile(r"Forum: place one die of any value, or two dice that sum to 5 .*"),
        _say(
            "piazza un dado di qualsiasi valore, o due dadi che sommano 5 (1+4 o 2+3).",
            "place one die of any value, or two dice that sum to 5 (1+4 or 2+3).",
        ),
    ),
    (
        re.compile(
            r"Forum: the row has only (\d+) columns; a die you place may not itself be pushed "
            r"off the end"
        ),
        _say(
            "la fila ha solo {1} colonne: un dado che piazzi non può finire spinto fuori.",
            "the row has only {1} columns: a die you place may not itself be pushed off the end.",
        ),
    ),
    (
        re.compile(
            r"Latrine: a die may go to the Latrine only when no other building can take any "
            r"of your dice"
        ),
        _say(
            "un dado va in Latrina solo quando nessun altro edificio può accogliere i tuoi dadi.",
            "a die may go to the Latrine only when no other building can take any of your dice.",
        ),
    ),
    (
        re.compile(r"Latrine: place exactly one die in the Latrine"),
        _say("in Latrina va esattamente un dado.", "place exactly one die in the Latrine."),
    ),
    (
        re.compile(r"\w+:\d+: you did not roll those dice \(your dice: (\d*)\)"),
        _say(
            "non hai questi dadi (i tuoi dadi: {1}).",
            "you did not roll those dice (your dice: {1}).",
        ),
    ),
    (
        re.compile(r"(Senate|Castrum): that placement is not allowed"),
        _say("questa mossa non è consentita.", "that placement is not allowed."),
    ),
]


def translate(reason: str, names: Sequence[str], lang: str) -> str | None:
    """``reason`` (the engine's) in ``lang`` with seats named by ``names``; None if unknown."""
    for pattern, say in _PATTERNS:
        found = pattern.fullmatch(reason)
        if found:
            return say(found, names, lang)
    return None


def explain(reason: str, names: Sequence[str], lang: str) -> str:
    """Like :func:`translate`, but an unknown sentence is given as the engine wrote it."""
    said = translate(reason, names, lang)
    return reason if said is None else said
