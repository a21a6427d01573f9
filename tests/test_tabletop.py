"""alea.tabletop: a physical table's holdings, checked against the box and scored."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from alea.cli import app
from alea.iacta import cards
from alea.iacta.scoring import best_arrangement
from alea.iacta.scoring_io import parse_holdings
from alea.tabletop import CODES, TableError, check_table, italian, score_table
from tests.iacta.test_scoring import antonio
from tests.test_score_cli import ANTONIO_TEXT


def code_of(players: list[tuple[str, Any]]) -> str:
    with pytest.raises(TableError) as caught:
        score_table(players)
    assert caught.value.code in CODES
    assert str(caught.value)
    return caught.value.code


def test_rule_book_example_scores_43_with_explanations_in_both_languages() -> None:
    result = score_table([("Antonio", antonio().to_json())])
    (antonio_,) = result["players"]
    assert antonio_["score"] == 43 and antonio_["tiebreak"] == 4
    assert antonio_["breakdown"]["total"] == 43
    assert result["winners"] == ["Antonio"] and result["decided_by"] == "alone"
    green = next(p for p in antonio_["places"] if p["card"] == "green1")
    assert green["points"] == 0
    assert green["why"] == {"en": "empty: value 1 - 1", "it": "vuota: valore 1 − 1"}
    seven = next(s for s in antonio_["senate"] if s["card"] == "VII")
    assert seven["points"] == 5
    assert seven["why"]["it"].startswith("colori dei luoghi: rosso")


def test_the_same_optimiser_as_alea_score() -> None:
    rng = random.Random(7)
    provinces, patricians = cards.province_deck(), cards.patrician_deck()
    rng.shuffle(provinces)
    rng.shuffle(patricians)
    table = [
        ("Anna", {"provinces": provinces[:5], "patricians": patricians[:8], "senate": ["V", "XI"]}),
        ("Bruno", {"provinces": provinces[5:9], "patricians": patricians[8:15], "tokens": 7}),
    ]
    result = score_table(table)
    for (name, data), player in zip(table, result["players"], strict=True):
        expected = best_arrangement(check_table([(name, data)])[0][1])
        assert player["name"] == name
        assert (player["score"], player["tiebreak"]) == (expected.score, expected.tiebreak)
        assert [p["card"] for p in player["places"]] == [p.card for p in expected.places]


def holdings(**fields: Any) -> dict[str, Any]:
    return fields


def test_ranking_tie_break_and_shared_victory() -> None:
    # Anna and Bruno both score 4; Anna leaves a 3 unplaced, Bruno a 1.
    anna = holdings(provinces=["red3"], patricians=["redm1", "bluew3"])  # 3+1 = 4, tie-break 3
    bruno = holdings(provinces=["green3"], patricians=["greenm1", "bluem1"])  # 4, tie-break 1
    carla = holdings(tokens=4)  # 2
    result = score_table([("Anna", anna), ("Bruno", bruno), ("Carla", carla)])
    assert [(r["name"], r["rank"], r["score"], r["tiebreak"]) for r in result["ranking"]] == [
        ("Anna", 1, 4, 3),
        ("Bruno", 2, 4, 1),
        ("Carla", 3, 0 + 2, 0),
    ]
    assert result["winners"] == ["Anna"] and result["decided_by"] == "tiebreak"
    dora = holdings(provinces=["yellow3"], patricians=["yellowm1", "purplew3"])
    shared = score_table([("Anna", anna), ("Dora", dora)])
    assert shared["winners"] == ["Anna", "Dora"] and shared["decided_by"] == "shared"
    assert all(r["shared"] for r in shared["ranking"])
    plain = score_table([("Anna", anna), ("Carla", carla)])
    assert plain["decided_by"] == "score" and plain["winners"] == ["Anna"]


def test_every_piece_exists_once_across_the_table() -> None:
    assert code_of([("A", {"provinces": ["red4"]}), ("B", {"provinces": ["red4"]})]) == "too_many"
    assert code_of([("A", {"patricians": ["redm1"]}), ("B", {"patricians": ["redm1"]})]) == (
        "too_many"
    )
    assert code_of([("A", {"senate": ["V"]}), ("B", {"senate": ["V"]})]) == "too_many"
    # XIII exists twice, a third is refused.
    score_table([("A", {"senate": ["XIII"]}), ("B", {"senate": ["XIII"]})])
    assert code_of([("A", {"senate": ["XIII", "XIII"]}), ("B", {"senate": ["XIII"]})]) == (
        "too_many"
    )
    # Fortuna: 8 tiles of value 1 in the box.
    assert code_of([("A", {"fortuna": [1] * 5}), ("B", {"fortuna": [1] * 4})]) == "too_many"
    with pytest.raises(TableError) as caught:
        score_table([("Anna", {"provinces": ["blue2"]}), ("Bruno", {"provinces": ["blue2"]})])
    assert "Anna" in caught.value.detail and "Bruno" in caught.value.detail
    assert caught.value.token == "blue2" and caught.value.section == "provinces"


def test_unknown_misplaced_and_out_of_range_pieces() -> None:
    assert code_of([("A", {"provinces": ["red5"]})]) == "unknown_card"
    assert code_of([("A", {"senate": ["XIV"]})]) == "unknown_card"
    assert code_of([("A", {"provinces": ["redm2"]})]) == "wrong_section"
    assert code_of([("A", {"patricians": ["V"]})]) == "wrong_section"
    assert code_of([("A", {"fortuna": [4]})]) == "out_of_range"
    assert code_of([("A", {"tokens": -1})]) == "out_of_range"
    assert code_of([("A", {"tokens": "many"})]) == "bad_holdings"
    assert code_of([("A", {"provinces": "red4 blue2"})]) == "bad_holdings"
    assert code_of([("A", {"province": ["red4"]})]) == "bad_holdings"
    assert code_of([("A", ["red4"])]) == "bad_holdings"
    with pytest.raises(TableError) as caught:
        score_table([("Anna", {}), ("Bruno", {"patricians": ["pinkw2"]})])
    assert caught.value.player == "Bruno" and caught.value.token == "pinkw2"


def test_the_players_at_the_table() -> None:
    assert code_of([]) == "bad_players"
    assert code_of([(f"P{i}", {}) for i in range(6)]) == "bad_players"
    assert code_of([("Anna", {}), ("anna ", {})]) == "bad_players"
    assert code_of([(" ", {})]) == "bad_players"
    assert code_of([("x" * 25, {})]) == "bad_players"
    assert len(score_table([(f"P{i}", {}) for i in range(5)])["players"]) == 5


def test_every_reason_the_engine_gives_has_an_italian_form() -> None:
    rng = random.Random(3)
    senate = list(cards.SENATE_CARDS)
    seen: set[str] = set()
    for _ in range(400):
        h = {
            "provinces": rng.sample(cards.province_deck(), rng.randint(0, 7)),
            "patricians": rng.sample(cards.patrician_deck(), rng.randint(0, 12)),
            "senate": rng.sample(senate, rng.randint(0, 6)),
            "fortuna": [rng.randint(1, 3) for _ in range(rng.randint(0, 5))],
            "tokens": rng.randint(0, 9),
        }
        player = score_table([("P", h)])["players"][0]
        for item in (*player["places"], *player["senate"]):
            assert item["why"]["en"] == item["reason"]
            it = item["why"]["it"]
            assert it and it != item["reason"], item["reason"]
            for english in ("empty", "card ", "patricians", "placed", "couple", "none", "beside"):
                assert english not in it, (item["reason"], it)
            seen.add(item["reason"].split(":")[0].split(" ")[0])
    assert len(seen) > 15  # the random tables reached most of the forms


def test_italian_refuses_a_form_it_does_not_know() -> None:
    assert italian("1 + 3 Senate cards") == "1 + 3 carte Senato"
    assert italian("card 4 + patricians 2+3; XI extra redw1 scores under XI") == (
        "carta 4 + patrizi 2+3; donna rossa 1 in più conta per XI"
    )
    assert italian("beside couples: yellowm3 (3) + bluew2 (2)") == (
        "accanto alle coppie: uomo giallo 3 (3) + donna blu 2 (2)"
    )
    assert italian("province cards with a patrician: red4, grey0") == (
        "carte provincia con un patrizio: rossa 4, provincia jolly"
    )
    with pytest.raises(KeyError):
        italian("a rule the engine has not got yet")


def test_the_table_scores_as_alea_score_does(tmp_path: Path) -> None:
    """The scorer page's answer and ``alea score --json`` agree on a whole table."""
    text = (
        f"{ANTONIO_TEXT}\n"
        "Anna: provinces: red4 blue2; patricians: redw3 redw2 bluew1 purplem2; senate: V XI; "
        "fortuna: 2 3; tokens: 5\n"
        "Bruno: prov: green3 yellow1; pat: greenm1 greenw3 greenw1; sen: XIII IX; tok: 2\n"
    )
    path = tmp_path / "table.txt"
    path.write_text(text, encoding="utf-8")
    answer = CliRunner().invoke(app, ["score", str(path), "--json"])
    assert answer.exit_code == 0, answer.output
    cli = json.loads(answer.stdout)
    table = [(name or "", h.to_json()) for name, h in parse_holdings(text)]
    page = score_table(table)
    assert page["ranking"] == cli["ranking"]
    for player in page["players"]:
        expected = cli["players"][player["name"]]
        assert player["score"] == expected["score"]
        assert player["places"] == [
            {
                **p,
                "why": player["places"][i]["why"],
                "extra_value": player["places"][i]["extra_value"],
            }
            for i, p in enumerate(expected["places"])
        ]
        assert player["breakdown"] == expected["breakdown"]
