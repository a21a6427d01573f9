"""The referee's bank: shape and content of the data files, and the validator itself."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from alea.romano.bank import LANGUAGES, default_bank, load_raw, problems
from alea.romano.texts import EFFECTS


@pytest.mark.parametrize(
    ("name", "kind", "minimum"),
    [("riddles.json", "riddle", 40), ("questions.json", "question", 60)],
)
def test_data_file_is_valid(name: str, kind: Any, minimum: int) -> None:
    raw = load_raw(name)
    assert problems(raw, kind) == []
    assert len(raw["items"]) >= minimum


def test_ids_are_unique_across_both_files_and_prefixed() -> None:
    bank = default_bank()
    ids = [i.id for i in (*bank.riddles, *bank.questions)]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"R\d\d", i.id) for i in bank.riddles)
    assert all(re.fullmatch(r"Q\d\d", i.id) for i in bank.questions)


def test_every_question_has_a_source_and_riddles_none() -> None:
    bank = default_bank()
    assert all(q.source.strip() for q in bank.questions)
    assert all(not r.source for r in bank.riddles)


def test_right_answers_are_spread_over_the_four_positions() -> None:
    bank = default_bank()
    for items in (bank.riddles, bank.questions):
        counts = [sum(1 for i in items if i.answer == k) for k in range(4)]
        assert min(counts) >= len(items) // 8  # no position is a giveaway


def test_both_languages_agree_on_shape() -> None:
    for item in (*default_bank().riddles, *default_bank().questions):
        for lang in LANGUAGES:
            assert item.text[lang].strip() and len(item.choices[lang]) == 4
        assert item.is_right(item.answer + 1) and not item.is_right((item.answer + 1) % 4 + 1)


def good() -> dict[str, Any]:
    return copy.deepcopy(load_raw("questions.json"))


def test_validator_catches_duplicate_ids_and_texts() -> None:
    raw = good()
    raw["items"][1]["id"] = raw["items"][0]["id"]
    raw["items"][2]["en"]["text"] = raw["items"][0]["en"]["text"]
    found = problems(raw, "question")
    assert any("duplicate id" in p for p in found)
    assert any("duplicate 'en' text" in p for p in found)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda it: it["it"]["choices"].pop(), "exactly 4 choices"),
        (lambda it: it["en"]["choices"].__setitem__(1, it["en"]["choices"][0]), "not distinct"),
        (lambda it: it["en"]["choices"].__setitem__(1, " "), "empty 'en' choice"),
        (lambda it: it.__setitem__("answer", 4), "answer must be"),
        (lambda it: it.__setitem__("answer", True), "answer must be"),
        (lambda it: it.pop("en"), "no 'en' text"),
        (lambda it: it["it"].__setitem__("text", ""), "empty 'it' text"),
        (lambda it: it.pop("source"), "needs its source"),
        (lambda it: it.pop("id"), "missing id"),
    ],
)
def test_validator_catches_bad_items(change: Any, message: str) -> None:
    raw = good()
    change(raw["items"][3])
    assert any(message in p for p in problems(raw, "question")), problems(raw, "question")


def test_validator_checks_the_kind_and_emptiness() -> None:
    assert problems({"kind": "riddle", "items": []}, "riddle") == ["no items"]
    assert any("file kind" in p for p in problems(good(), "riddle"))


def test_effect_texts_exist_in_both_languages() -> None:
    assert set(EFFECTS["it"]) == set(EFFECTS["en"])
    assert len(EFFECTS["en"]) == 36
