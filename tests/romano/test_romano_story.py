"""The view's ``story``: what happened, told by the engine, with the answer revealed only
once it has been given."""

from __future__ import annotations

import json

from romano_helpers import play, right_choice, start, wrong_choice


def test_the_story_names_the_figure_its_effect_and_the_score_change() -> None:
    s = play(start([0, 0]), "roll:4", "roll:2")  # Romulus: +40
    story = s.view(1)["story"]
    figure = next(e for e in story if e["kind"] == "figure")
    assert figure["name"] == "Romulus" and figure["cause"] == "4-2"
    assert figure["effect"] == {"en": "+40", "it": "+40"}
    score = next(e for e in story if e["kind"] == "score")
    assert (score["seat"], score["old"], score["new"], score["delta"]) == (0, 0, 40, 40)
    assert [e["index"] for e in story] == list(range(len(s.events)))
    assert s.view(None)["events_total"] == len(s.events)


def test_the_story_keeps_only_the_latest_events() -> None:
    s = start([0, 0], turns_played=[3, 3])  # past the declaration turn
    for _ in range(30):
        play(s, "roll:2", "roll:1")  # Constantinus, -5: a turn of four events or more
    story = s.view(0)["story"]
    assert len(story) == 40 and story[-1]["index"] == len(s.events) - 1


def test_the_right_answer_is_told_once_given_and_not_before() -> None:
    s = play(start([0, 0]), "roll:2", "roll:4", "roll:1", "roll:2")  # seat 1: Iuvenalis
    s.apply(s.chance_outcomes()[0][0])
    item = s.bank.get(s.item)
    asking = json.dumps(s.view(0))
    assert "right_choice" not in asking and "right_text" not in asking
    wrong = wrong_choice(s)
    s.apply(wrong)
    told = next(e for e in s.view(0)["story"] if e["kind"] == "answer")
    assert told["text"] == "wrong" and told["value"] == int(wrong[2:])
    assert told["right_choice"] == item.answer + 1
    assert told["right_text"]["en"] == item.choices["en"][item.answer]
    assert told["right_text"]["it"] == item.choices["it"][item.answer]
    assert told["given_text"]["en"] == item.choices["en"][int(wrong[2:]) - 1]


def test_a_right_answer_is_told_as_right() -> None:
    s = play(start([0, 0]), "roll:1", "roll:2")  # Iuvenalis: +10 if solved
    s.apply(s.chance_outcomes()[0][0])
    s.apply(right_choice(s))
    told = next(e for e in s.view(None)["story"] if e["kind"] == "answer")
    assert told["text"] == "right" and told["value"] == told["right_choice"]
    assert s.scores[0] == 10
