"""The engine's interface: notation, illegal moves, records, JSON, views, draws."""

from __future__ import annotations

import json
import math
import random

import pytest
from romano_helpers import play, right_choice, snapshot, start

import alea.romano as romano
from alea.romano import CHANCE, REFEREE, TERMINAL, IllegalActionError
from alea.romano.notation import Action, Outcome, parse


@pytest.mark.parametrize(
    "text",
    [
        "roll:1",
        "roll:6",
        "D:53",
        "D:11",
        "M:0",
        "M:12",
        "M:pass",
        "N:4",
        "A:1",
        "A:4",
        "mark:right",
        "mark:wrong",
        "throw",
        "riddle:R07",
        "question:Q12",
        "last-round",
    ],
)
def test_notation_round_trips(text: str) -> None:
    move = parse(text)
    assert str(move) == text
    assert isinstance(
        move, Outcome if text.split(":")[0] in ("roll", "riddle", "question") else Action
    )
    assert parse(f"  {text} ") == move


@pytest.mark.parametrize("text", ["", "roll:7", "roll:0", "D:5", "D:57", "A:5", "N:0", "M:", "x"])
def test_malformed_notation_is_rejected_with_the_valid_forms(text: str) -> None:
    with pytest.raises(IllegalActionError, match="not a Dado Romano move") as err:
        parse(text)
    assert isinstance(err.value, ValueError)
    assert "roll:4" in str(err.value)


def test_new_game_shape() -> None:
    s = romano.new_game(players=3, time_limit_rounds=None)
    assert s.current_player() == CHANCE and s.is_chance() and not s.is_terminal()
    assert s.legal_actions() == []
    outcomes = s.chance_outcomes()
    assert [str(o) for o, _ in outcomes] == [f"roll:{v}" for v in range(1, 7)]
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    assert s.returns() == [0.0, 0.0, 0.0] and s.winners() == []


@pytest.mark.parametrize("players", [1, 0, -2])
def test_too_few_players(players: int) -> None:
    with pytest.raises(ValueError, match="at least 2"):
        romano.new_game(players)


def test_bad_options() -> None:
    with pytest.raises(ValueError):
        romano.new_game(2, time_limit_rounds=0)
    with pytest.raises(ValueError):
        romano.new_game(2, referee="robot")  # type: ignore[arg-type]


def test_illegal_moves_change_nothing() -> None:
    s = play(start([40, 30, 20], turns_played=[2, 0, 0]))
    cases = {
        "declare": (s, ["roll:3", "M:1", "A:1", "N:3", "mark:right", "riddle:R01"]),
    }
    s2 = play(start([40, 30]), "roll:1", "roll:4")
    cases["challenge"] = (s2, ["roll:1", "D:11", "M:0", "M:5", "A:2"])
    s3 = play(start([40, 30]), "roll:1", "roll:2")
    cases["draw"] = (s3, ["roll:1", "question:Q01", "riddle:NOPE", "A:1"])
    s4 = play(start([40, 30]), "roll:1", "roll:2", "riddle:R01")
    cases["answer"] = (s4, ["roll:1", "mark:right", "D:11", "M:pass"])
    s5 = play(start([40, 30], referee="human"), "roll:1", "roll:2")
    cases["mark"] = (s5, ["A:1", "roll:2", "riddle:R01"])
    s6 = start([40, 30], eliminated=[True, False])
    cases["return"] = (s6, ["roll:1", "D:11", "M:pass"])
    s7 = play(start([140, 30]), "roll:2", "roll:4")
    cases["over"] = (s7, ["roll:1", "last-round", "D:11"])
    for phase, (state, moves) in cases.items():
        before = snapshot(state)
        for move in moves:
            with pytest.raises(IllegalActionError):
                state.apply(move)
            assert snapshot(state) == before, (phase, move)


def test_error_messages_say_what_is_expected() -> None:
    s = play(start([40, 30]), "roll:1", "roll:2")
    with pytest.raises(IllegalActionError, match="draws a riddle"):
        s.apply("A:1")
    s.apply("riddle:R03")
    with pytest.raises(IllegalActionError, match=r"answers the riddle .*A:1"):
        s.apply("roll:2")
    s.apply(right_choice(s))
    s2 = play(start([40, 30]), "roll:1", "roll:2", "riddle:R03", "A:1")
    assert s2.seat == 1
    with pytest.raises(IllegalActionError, match="already asked"):
        play(s2, "roll:1", "roll:2", "riddle:R03")


def test_current_player_in_each_phase() -> None:
    assert start([40, 30], turns_played=[2, 0]).current_player() == 0
    assert play(start([40, 30]), "roll:1", "roll:4").current_player() == 0
    assert play(start([40, 30]), "roll:1", "roll:2").current_player() == CHANCE
    assert play(start([40, 30]), "roll:1", "roll:2", "riddle:R01").current_player() == 0
    assert play(start([40, 30], referee="human"), "roll:1", "roll:2").current_player() == REFEREE
    assert play(start([140, 30]), "roll:2", "roll:4").current_player() == TERMINAL


def test_human_referee_marks_right_or_wrong() -> None:
    s = play(start([40, 30], referee="human"), "roll:2", "roll:5")
    assert [str(a) for a in s.legal_actions()] == ["mark:right", "mark:wrong"]
    assert s.chance_outcomes() == []
    play(s, "mark:right")
    assert s.scores[0] == 60
    s = play(start([40, 30], referee="human"), "roll:4", "roll:5", "mark:wrong")
    assert s.scores[0] == 0


def test_bank_draws_do_not_repeat_until_the_bank_is_used_up() -> None:
    s = play(start([40, 30]), "roll:1", "roll:2")
    riddles = romano.default_bank().ids("riddle")
    outcomes = s.chance_outcomes()
    assert len(outcomes) == len(riddles)
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    s.used["riddle"] = list(riddles[1:])  # all but the first already asked
    assert [str(o) for o, _ in s.chance_outcomes()] == [f"riddle:{riddles[0]}"]
    s.apply(f"riddle:{riddles[0]}")
    assert sorted(s.used["riddle"]) == sorted(riddles)
    s.apply("A:1")
    s2 = play(s, "roll:1", "roll:2")  # seat 1 rolls a riddle: the bank starts over
    assert len(s2.chance_outcomes()) == len(riddles)
    s2.apply(f"riddle:{riddles[5]}")
    assert s2.used["riddle"] == [riddles[5]]


def test_questions_are_drawn_for_question_figures() -> None:
    s = play(start([40, 30]), "roll:6", "roll:3")
    assert all(o.kind == "question" for o, _ in s.chance_outcomes())
    assert s.item_kind == "question"


def test_sample_chance_follows_the_rng_and_leaves_the_state_alone() -> None:
    s = romano.new_game(2)
    before = snapshot(s)
    a = [str(s.sample_chance(random.Random(7))) for _ in range(3)]
    assert a[0] == a[1] == a[2]
    assert snapshot(s) == before
    s.apply("roll:1")
    s.apply("roll:1")
    with pytest.raises(IllegalActionError):
        play(start([40, 30]), "roll:1", "roll:4").sample_chance(random.Random(1))


def random_game(seed: int, players: int = 3, referee: str = "software") -> romano.State:
    rng = random.Random(seed)
    s = romano.new_game(players, time_limit_rounds=12, referee=referee)  # type: ignore[arg-type]
    while not s.is_terminal():
        if rng.random() < 0.01 and s.can_declare_last_round():
            s.apply("last-round")
        elif s.is_chance():
            s.apply(s.sample_chance(rng))
        else:
            s.apply(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("seed", range(8))
def test_record_replays_exactly(seed: int) -> None:
    s = random_game(seed, players=2 + seed % 4, referee="human" if seed % 3 == 0 else "software")
    record = json.loads(json.dumps(s.record()))
    assert record["game"] == "dado-romano" and record["players"] == s.players
    again = romano.replay(record)
    assert again == s
    assert again.history == s.history and again.events == s.events


def test_replay_of_a_custom_start_position() -> None:
    s = play(start([160, 110], turns_played=[2, 0]), "D:14", "roll:1", "roll:4", "M:1")
    record = json.loads(json.dumps(s.record()))
    assert record["options"]["start"]["scores"] == [160, 110]
    assert romano.replay(record) == s
    assert "start" not in romano.new_game(2).record()["options"]


def test_replay_names_the_bad_move() -> None:
    record = romano.new_game(2).record()
    record["events"] = ["roll:1", "roll:3", "D:11"]
    with pytest.raises(IllegalActionError, match=r"move 2 \('D:11'\)"):
        romano.replay(record)
    with pytest.raises(ValueError, match="not a Dado Romano record"):
        romano.replay({"game": "alea-iacta-est", "players": 2, "moves": []})


def test_records_share_the_layout_of_every_game_and_old_ones_still_replay() -> None:
    s = random_game(1, players=2, referee="software")
    record = s.record()
    assert list(record) == ["game", "format", "players", "options", "events", "result"]
    assert record["result"] == {"scores": s.scores, "winners": s.winners(), "reason": s.end_reason}
    assert "result" not in romano.new_game(2).record()
    # The first records had no format and listed the moves under "moves".
    old = {"game": "dado-romano", "players": 2, "options": record["options"]}
    old["moves"] = record["events"]
    assert romano.replay(old) == s


@pytest.mark.parametrize("seed", range(4))
def test_json_round_trip_at_every_step(seed: int) -> None:
    rng = random.Random(seed)
    s = romano.new_game(3, time_limit_rounds=4)
    while not s.is_terminal():
        data = json.loads(json.dumps(s.to_json()))
        copy = romano.State.from_json(data)
        assert copy == s and copy.to_json() == s.to_json()
        assert copy.legal_actions() == s.legal_actions()
        assert copy.chance_outcomes() == s.chance_outcomes()
        move = s.sample_chance(rng) if s.is_chance() else rng.choice(s.legal_actions())
        s.apply(move)
        copy.apply(move)
        assert copy == s


def test_clone_is_independent() -> None:
    s = romano.new_game(2)
    c = s.clone()
    assert c == s
    c.apply("roll:2")
    assert c != s and s.history == [] and c.history == ["roll:2"]


def test_view_shows_the_public_state_but_not_the_answer() -> None:
    s = play(start([40, 30]), "roll:1", "roll:2", "riddle:R01")
    v = s.view(1)
    assert v["seat"] == 1 and v["turn_of"] == 0 and v["phase"] == "answer"
    assert v["item"] == "R01" and v["legal_actions"] == ["A:1", "A:2", "A:3", "A:4"]
    assert not {"answer", "right_answer", "solution"} & set(v)
    # The words of the table: the riddle with its four choices, never its answer.
    item = s.bank.get("R01")
    assert v["item_text"] == {
        "id": "R01",
        "kind": "riddle",
        "text": dict(item.text),
        "choices": {lang: list(c) for lang, c in item.choices.items()},
    }
    assert v["figure"] == "1-2" and v["figure_name"] == romano.FIGURES["1-2"].name
    assert set(v["figure_effect"]) == {"it", "en"}
    with pytest.raises(ValueError):
        s.view(2)
    spectator = s.view(None)
    assert spectator["seat"] is None and {**spectator, "seat": 1} == v
    assert s.log(None) == s.log(0) == s.history


def test_apply_accepts_objects_and_strings_alike() -> None:
    a = romano.new_game(2)
    b = romano.new_game(2)
    a.apply("roll:1")
    b.apply(Outcome("roll", 1))
    assert a == b


def test_the_record_example_in_the_docs_replays() -> None:
    from pathlib import Path

    doc = Path(__file__).resolve().parents[2] / "docs" / "romano.md"
    text = doc.read_text("utf-8")
    block = text.split("```json\n", 1)[1].split("```", 1)[0]
    state = romano.replay(json.loads(block))
    assert state.is_terminal() and state.end_reason == "time"
    assert state.scores == [0, 10] and state.winners() == [1]  # +10, then the swap
