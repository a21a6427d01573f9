"""The referee's bank of riddles and questions (RULES.md B5).

The texts are data (``data/riddles.json`` and ``data/questions.json``), not
code, so that they can be proof-read, translated and extended without touching
the engine; they are read with :mod:`importlib.resources` so they work from an
installed wheel too. The engine only needs the ids and the right answers; the
terminal game shows the texts.

File shape (both files)::

    {"kind": "riddle", "items": [
        {"id": "R01",
         "it": {"text": "...", "choices": ["...", "...", "...", "..."]},
         "en": {"text": "...", "choices": ["...", "...", "...", "..."]},
         "answer": 2,                      # index 0-3 into choices, both languages
         "source": "Livy, Ab Urbe Condita I.7"}   # questions only
    ]}
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Final, Literal

ItemKind = Literal["riddle", "question"]
LANGUAGES: Final = ("it", "en")
CHOICES: Final = 4


@dataclass(frozen=True, slots=True)
class Item:
    """One riddle or question, in both languages, with its right answer."""

    id: str
    kind: ItemKind
    text: dict[str, str]
    choices: dict[str, tuple[str, ...]]
    answer: int
    source: str = ""

    def is_right(self, choice: int) -> bool:
        """Whether ``choice`` (numbered 1–4, as players type it) is the right answer."""
        return choice - 1 == self.answer


@dataclass(frozen=True, slots=True)
class Bank:
    """The riddles and questions, each kept in file order, with a lookup by id."""

    riddles: tuple[Item, ...]
    questions: tuple[Item, ...]
    _ids: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    _by_id: dict[str, Item] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Precomputed once: the engine asks for ids on every draw.
        ids = {
            "riddle": tuple(i.id for i in self.riddles),
            "question": tuple(i.id for i in self.questions),
        }
        object.__setattr__(self, "_ids", ids)
        object.__setattr__(self, "_by_id", {i.id: i for i in (*self.riddles, *self.questions)})

    def ids(self, kind: ItemKind) -> tuple[str, ...]:
        """The ids of every item of ``kind``, in file order (the draw order is by chance)."""
        return self._ids[kind]

    def get(self, item_id: str) -> Item:
        """The item with this id; ``KeyError`` if there is none."""
        return self._by_id[item_id]


def _item(raw: dict[str, Any], kind: ItemKind) -> Item:
    return Item(
        id=str(raw["id"]),
        kind=kind,
        text={lang: str(raw[lang]["text"]) for lang in LANGUAGES},
        choices={lang: tuple(str(c) for c in raw[lang]["choices"]) for lang in LANGUAGES},
        answer=int(raw["answer"]),
        source=str(raw.get("source", "")),
    )


def load_raw(name: str) -> dict[str, Any]:
    """The parsed JSON of a data file (``riddles.json`` or ``questions.json``)."""
    path = resources.files("alea.romano").joinpath("data", name)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@cache
def default_bank() -> Bank:
    """The built-in bank, read once per process."""
    riddles = tuple(_item(r, "riddle") for r in load_raw("riddles.json")["items"])
    questions = tuple(_item(q, "question") for q in load_raw("questions.json")["items"])
    return Bank(riddles, questions)


def problems(raw: dict[str, Any], kind: ItemKind) -> list[str]:
    """Everything wrong with one data file's content; empty when it is valid.

    Checked: the declared kind, each item's id, both languages with a
    non-empty text and four distinct non-empty choices, an answer index 0–3,
    a non-empty source for questions, and no duplicate id or text.
    """
    out: list[str] = []
    if raw.get("kind") != kind:
        out.append(f"file kind is {raw.get('kind')!r}, expected {kind!r}")
    items = raw.get("items")
    if not isinstance(items, list) or not items:
        return [*out, "no items"]
    seen_ids: set[str] = set()
    seen_texts: dict[str, set[str]] = {lang: set() for lang in LANGUAGES}
    for n, item in enumerate(items):
        where = f"item {n} ({item.get('id', '?') if isinstance(item, dict) else '?'})"
        if not isinstance(item, dict):
            out.append(f"{where}: not an object")
            continue
        item_id = item.get("id")
        if not isinstance(item_id, str) or not item_id:
            out.append(f"{where}: missing id")
        elif item_id in seen_ids:
            out.append(f"{where}: duplicate id")
        else:
            seen_ids.add(item_id)
        for lang in LANGUAGES:
            block = item.get(lang)
            if not isinstance(block, dict):
                out.append(f"{where}: no {lang!r} text")
                continue
            text = block.get("text")
            if not isinstance(text, str) or not text.strip():
                out.append(f"{where}: empty {lang!r} text")
            elif text.strip().casefold() in seen_texts[lang]:
                out.append(f"{where}: duplicate {lang!r} text")
            else:
                seen_texts[lang].add(text.strip().casefold())
            choices = block.get("choices")
            if not isinstance(choices, list) or len(choices) != CHOICES:
                out.append(f"{where}: {lang!r} needs exactly {CHOICES} choices")
                continue
            if not all(isinstance(c, str) and c.strip() for c in choices):
                out.append(f"{where}: empty {lang!r} choice")
            elif len({c.strip().casefold() for c in choices}) != CHOICES:
                out.append(f"{where}: {lang!r} choices are not distinct")
        ans = item.get("answer")
        if not isinstance(ans, int) or isinstance(ans, bool) or not 0 <= ans < CHOICES:
            out.append(f"{where}: answer must be an index 0-{CHOICES - 1}")
        source = item.get("source")
        if kind == "question" and (not isinstance(source, str) or not source.strip()):
            out.append(f"{where}: a question needs its source")
    return out
