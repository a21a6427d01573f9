"""POST /api/score and the scorer's pages: the table-top scorer over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from alea.server import Settings
from tests.iacta.test_scoring import antonio
from tests.server.support import LiveServer


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    db = tmp_path_factory.mktemp("score") / "db.sqlite"
    with (
        LiveServer(Settings(database_url=f"sqlite:///{db}")) as live,
        httpx.Client(base_url=live.base, timeout=30) as http,
    ):
        yield http


def table(*players: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"players": [{"name": name, "holdings": h} for name, h in players]}


def test_scores_a_table_and_names_the_winner(client: httpx.Client) -> None:
    body = table(("Antonio", antonio().to_json()), ("Bruna", {"provinces": ["green4"]}))
    answer = client.post("/api/score", json=body)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert [p["name"] for p in data["players"]] == ["Antonio", "Bruna"]
    assert data["players"][0]["score"] == 43
    assert data["players"][1]["score"] == 3  # green4 empty: 4 - 1
    assert data["winners"] == ["Antonio"] and data["decided_by"] == "score"
    assert data["ranking"][0] == {
        "rank": 1,
        "name": "Antonio",
        "score": 43,
        "tiebreak": 4,
        "shared": False,
    }
    place = data["players"][0]["places"][0]
    assert set(place) >= {"card", "kind", "patricians", "extra", "base", "points", "why"}


@pytest.mark.parametrize(
    ("players", "code"),
    [
        ((("A", {"provinces": ["red4"]}), ("B", {"provinces": ["red4"]})), "too_many"),
        ((("A", {"patricians": ["bluem9"]}),), "unknown_card"),
        ((("A", {"senate": ["red4"]}),), "wrong_section"),
        ((("A", {"tokens": -2}),), "out_of_range"),
        ((("A", {}), ("A", {})), "bad_players"),
        ((("A", {"provinces": 4}),), "bad_holdings"),
    ],
)
def test_refusals_are_typed_and_translated(
    client: httpx.Client, players: tuple[tuple[str, dict[str, Any]], ...], code: str
) -> None:
    for language in ("en", "it"):
        answer = client.post(
            "/api/score", json=table(*players), headers={"Accept-Language": language}
        )
        assert answer.status_code == 422
        error = answer.json()["error"]
        assert error["code"] == code
        assert error["message"] and error["detail"]
    italian = client.post("/api/score", json=table(*players), headers={"Accept-Language": "it"})
    english = client.post("/api/score", json=table(*players))
    assert italian.json()["error"]["message"] != english.json()["error"]["message"]


def test_a_malformed_body_is_a_bad_request(client: httpx.Client) -> None:
    for body in ({}, {"players": "Anna"}, {"players": [{"holdings": {}}]}):
        answer = client.post("/api/score", json=body)
        assert answer.status_code == 422
        assert answer.json()["error"]["code"] == "bad_request"


def test_the_pages_and_the_service_worker_are_served(client: httpx.Client) -> None:
    for path, needle in (("/score", "score.js"), ("/rules", "rules.js")):
        answer = client.get(path)
        assert answer.status_code == 200 and needle in answer.text
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["service-worker-allowed"] == "/"
    manifest = client.get("/static/score.webmanifest")
    assert manifest.status_code == 200 and '"start_url": "/score"' in manifest.text


def test_the_endpoint_is_in_the_openapi_description(client: httpx.Client) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "post" in paths["/api/score"]
