"""The HTTP API: creating and joining games, moves over HTTP, replays, errors, OpenAPI."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest

import alea.iacta as iacta
from alea.server import Settings
from tests.server.support import Database, LiveServer, create_game, human_game, quick_bots


@pytest.fixture
def server(db: Database) -> Any:
    settings = Settings(
        database_url=db.url, bot_delay=0.02, bot_factory=quick_bots, sqlite_synchronous="NORMAL"
    )
    with LiveServer(settings) as live:
        yield live


def error_code(answer: httpx.Response) -> str:
    body = answer.json()
    assert body["error"]["message"]
    code: str = body["error"]["code"]
    return code


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_create_validates_the_seats(server: LiveServer) -> None:
    base = server.base
    for seats in ([{"kind": "human"}], [{"kind": "human"}] * 6, []):
        answer = httpx.post(f"{base}/api/games", json={"seats": seats})
        assert answer.status_code == 422 and error_code(answer) == "bad_request"
    bad = [
        {"seats": [{"kind": "alien"}, {"kind": "human"}]},
        {"seats": [{"kind": "bot", "level": "godlike"}, {"kind": "human"}]},
        {"seats": [{"kind": "human"}, {"kind": "human"}], "colour": "red"},
        {"seats": [{"kind": "bot"}, {"kind": "human"}], "claim": 0},
        {"seats": [{"kind": "human"}, {"kind": "human"}], "claim": 4},
        {"seats": "two"},
    ]
    for body in bad:
        answer = httpx.post(f"{base}/api/games", json=body)
        assert answer.status_code == 422, body
        assert error_code(answer) == "bad_request"
    assert (
        httpx.post(
            f"{base}/api/games", content=b"{not json", headers={"Content-Type": "application/json"}
        ).status_code
        == 422
    )


def test_create_claim_and_lobby(server: LiveServer) -> None:
    base = server.base
    created = create_game(
        base,
        [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "hard"}],
        name="Ann <b>",
        title="Friday",
    )
    game = created["game"]
    assert created["seat"] == 0 and len(created["token"]) >= 40
    assert game["status"] == "open" and game["open_seats"] == [1]
    assert game["seats"][0]["name"] == "Ann <b>"
    assert game["seats"][2] == {**game["seats"][2], "kind": "bot", "level": "hard", "claimed": True}
    assert created["links"]["play"] == f"/game/{game['id']}"
    lobby = httpx.get(f"{base}/api/games", params={"status": "open"}).json()
    assert [g["id"] for g in lobby] == [game["id"]]
    # Claiming: the free seat once, then never again; a bot seat never.
    taken = httpx.post(f"{base}/api/games/{game['id']}/seats/1/claim", json={"name": "Bo"})
    assert taken.status_code == 200
    token = taken.json()["token"]
    again = httpx.post(f"{base}/api/games/{game['id']}/seats/1/claim", json={"name": "Cy"})
    assert again.status_code == 409 and error_code(again) == "seat_taken"
    bot = httpx.post(f"{base}/api/games/{game['id']}/seats/2/claim", json={})
    assert bot.status_code == 409 and error_code(bot) == "seat_taken"
    nowhere = httpx.post(f"{base}/api/games/{game['id']}/seats/7/claim", json={})
    assert nowhere.status_code == 404 and error_code(nowhere) == "no_such_seat"
    info = httpx.get(f"{base}/api/games/{game['id']}").json()
    assert info["status"] == "active" and info["open_seats"] == []
    assert "token" not in str(info).lower().replace("token", "", 0) or token not in str(info)
    assert httpx.get(f"{base}/api/games", params={"status": "open"}).json() == []
    assert httpx.get(f"{base}/api/games", params={"status": "bogus"}).status_code == 422
    private = create_game(base, [{"kind": "human"}, {"kind": "bot"}], public=False)
    assert private["game"]["id"] not in [g["id"] for g in httpx.get(f"{base}/api/games").json()]


def test_unknown_game_and_bad_tokens(server: LiveServer) -> None:
    base = server.base
    assert error_code(httpx.get(f"{base}/api/games/doesnotexist")) == "no_such_game"
    assert httpx.get(f"{base}/api/games/{'x' * 100}").status_code == 404
    game_id, tokens = human_game(base, 2)
    url = f"{base}/api/games/{game_id}"
    assert httpx.get(f"{url}/state", headers=bearer("wrong")).status_code == 403
    assert httpx.get(f"{url}/state", headers={"Authorization": "Basic abc"}).status_code == 403
    seat1 = httpx.get(f"{url}/state", headers=bearer(tokens[1])).json()
    assert seat1["seat"] == 1 and seat1["legal"] == []
    watcher = httpx.get(f"{url}/state").json()
    assert watcher["seat"] is None and watcher["legal"] == []
    assert watcher["log"] == [[e, a] for e, a in seat1["log"]]
    body = {"action": "F:1", "version": 0}
    assert error_code(httpx.post(f"{url}/actions", json=body)) == "spectator"
    assert error_code(httpx.post(f"{url}/actions", json=body, headers=bearer("x"))) == "bad_token"


def test_moves_over_http_with_every_refusal(server: LiveServer) -> None:
    base = server.base
    game_id, tokens = human_game(base, 2)
    url = f"{base}/api/games/{game_id}"
    state = httpx.get(f"{url}/state", headers=bearer(tokens[0])).json()
    version, legal = state["version"], state["legal"]
    assert legal
    refusals = [
        ({"action": legal[0], "version": version + 1}, tokens[0], 409, "stale_version"),
        ({"action": legal[0], "version": version}, tokens[1], 409, "not_your_turn"),
        ({"action": "Z:1", "version": version}, tokens[0], 422, "bad_notation"),
        ({"action": "K:I", "version": version}, tokens[0], 422, "illegal_action"),
        ({"action": "", "version": version}, tokens[0], 422, "bad_request"),
        ({"action": legal[0], "version": -1}, tokens[0], 422, "bad_request"),
        ({"action": legal[0]}, tokens[0], 422, "bad_request"),
        ({"action": legal[0], "version": version, "extra": 1}, tokens[0], 422, "bad_request"),
    ]
    for body, token, status, code in refusals:
        answer = httpx.post(f"{url}/actions", json=body, headers=bearer(token))
        assert (answer.status_code, error_code(answer)) == (status, code), body
    stale = httpx.post(f"{url}/actions", json=refusals[0][0], headers=bearer(tokens[0]))
    said = stale.json()["error"]["message"]
    assert "moved on" in said and not any(ch.isdigit() for ch in said)  # no internal numbers
    italian = httpx.post(
        f"{url}/actions",
        json=refusals[1][0],
        headers={**bearer(tokens[1]), "Accept-Language": "it-IT,it;q=0.9"},
    )
    assert italian.json()["error"]["message"] == "Non è il tuo turno."
    assert httpx.get(f"{url}/state").json()["version"] == version
    # Play the whole game over HTTP (one keep-alive connection).
    rng = random.Random(3)
    http = httpx.Client()
    while True:
        states = [http.get(f"{url}/state", headers=bearer(t)).json() for t in tokens]
        if states[0]["status"] == "finished":
            break
        seat = next(s["seat"] for s in states if s["legal"])
        mine = states[seat]
        action = rng.choice(mine["legal"])
        done = http.post(
            f"{url}/actions",
            json={"action": action, "version": mine["version"]},
            headers=bearer(tokens[seat]),
        )
        assert done.status_code == 200, done.text
        acted = done.json()
        assert acted["state"]["log"][acted["index"]] == [action, seat]
    http.close()
    final = states[0]["view"]["result"]
    assert final["winners"] and len(final["arrangements"]) == 2
    for body, code in (({"action": "F:1", "version": states[0]["version"]}, "game_over"),):
        answer = httpx.post(f"{url}/actions", json=body, headers=bearer(tokens[0]))
        assert error_code(answer) == code


def test_replay_of_a_finished_game(server: LiveServer) -> None:
    base = server.base
    created = create_game(base, [{"kind": "bot", "level": "easy"}] * 4, sit=False)
    game_id = created["game"]["id"]
    assert created["token"] is None
    url = f"{base}/api/games/{game_id}"
    answer = httpx.get(f"{url}/replay")
    assert answer.status_code == 409 and error_code(answer) == "not_finished"
    for _ in range(600):
        if httpx.get(url).json()["status"] == "finished":
            break
        time.sleep(0.05)
    replay = httpx.get(f"{url}/replay").json()
    events = replay["events"]
    state = iacta.replay({"players": 4, "events": events})
    assert state.is_terminal()
    assert replay["result"]["scores"] == [int(x) for x in state.returns()]
    assert len(replay["actors"]) == len(events)
    # Step through: every step is the table after that many events, all hands shown.
    partial = iacta.new_game(4)
    for step in (0, 1, 25, len(events) // 2, len(events)):
        while len(partial.history) < step:
            partial.apply(events[len(partial.history)])
        answer = httpx.get(f"{url}/replay/{step}").json()
        assert answer["step"] == step and answer["steps"] == len(events)
        assert answer["event"] == (events[step - 1] if step else None)
        view = answer["view"]
        assert view["round"] == partial.view(None)["round"]
        for seat, info in enumerate(view["players_info"]):
            assert info["fortuna_drawn_values"] == list(partial.fortuna_drawn[seat])
            assert info["senate"] == list(partial.senate_cards[seat])
    assert httpx.get(f"{url}/replay/{len(events) + 1}").status_code == 422
    assert httpx.get(f"{url}/replay/-1").status_code == 422
    finished = httpx.get(f"{base}/api/games", params={"status": "finished"}).json()
    assert game_id in [g["id"] for g in finished]


def test_fill_bots_takeover_and_reclaim_over_http(server: LiveServer) -> None:
    base = server.base
    created = create_game(base, [{"kind": "human"}] * 3)
    url = f"{base}/api/games/{created['game']['id']}"
    token = created["token"]
    assert error_code(httpx.post(f"{url}/fill-bots", json={"level": "easy"})) == "bad_token"
    filled = httpx.post(f"{url}/fill-bots", json={"level": "easy"}, headers=bearer(token))
    assert filled.status_code == 200 and filled.json()["status"] == "active"
    again = httpx.post(f"{url}/fill-bots", json={}, headers=bearer(token))
    assert error_code(again) == "not_allowed"
    answer = httpx.post(f"{url}/seats/1/takeover", json={}, headers=bearer(token))
    assert error_code(answer) == "not_human_seat"
    assert error_code(httpx.post(f"{url}/reclaim", headers=bearer(token))) == "not_allowed"


def test_openapi_health_and_pages(server: LiveServer) -> None:
    base = server.base
    spec = httpx.get(f"{base}/openapi.json").json()
    for path in (
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/seats/{seat}/claim",
        "/api/games/{game_id}/state",
        "/api/games/{game_id}/actions",
        "/api/games/{game_id}/replay",
        "/api/games/{game_id}/replay/{step}",
    ):
        assert path in spec["paths"], path
    assert "ErrorOut" in spec["components"]["schemas"]
    assert httpx.get(f"{base}/api/health").json()["ok"] is True
    for page in ("/", "/game/abc", "/replay/abc"):
        answer = httpx.get(base + page)
        assert answer.status_code == 200 and '<main id="app"' in answer.text
    for asset in ("/static/js/app.js", "/static/css/app.css", "/static/favicon.svg"):
        assert httpx.get(base + asset).status_code == 200, asset
    assert httpx.get(base + "/static/../server/app.py").status_code == 404
