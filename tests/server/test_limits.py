"""What one client may open: games per minute (429 with Retry-After) and bot tables at
once; other clients are not affected."""

from __future__ import annotations

import time
from typing import Any

import httpx

from alea.server import Settings
from tests.server.support import Database, LiveServer, quick_bots


def create(base: str, seats: list[dict[str, Any]], client: str) -> httpx.Response:
    """POST /api/games as if from ``client`` (uvicorn trusts X-Forwarded-For from loopback,
    as it would from a reverse proxy on the same host)."""
    return httpx.post(
        f"{base}/api/games", json={"seats": seats}, headers={"X-Forwarded-For": client}
    )


HUMANS = [{"kind": "human"}, {"kind": "human"}]
BOTS = [{"kind": "bot", "level": "easy"}] * 2


def test_creation_is_rate_limited_per_client(db: Database) -> None:
    settings = Settings(database_url=db.url, bot_factory=quick_bots, create_rate="3/minute")
    with LiveServer(settings) as server:
        for _ in range(3):
            assert create(server.base, HUMANS, "10.0.0.1").status_code == 201
        refused = create(server.base, HUMANS, "10.0.0.1")
        assert refused.status_code == 429, refused.text
        body = refused.json()["error"]
        assert body["code"] == "rate_limited" and body["message"]
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        # Another client is not affected; the refused one stays refused.
        assert create(server.base, HUMANS, "10.0.0.2").status_code == 201
        assert create(server.base, HUMANS, "10.0.0.1").status_code == 429
        assert len(server.games.games) == 4


def test_bot_tables_per_client_are_bounded_until_one_ends(db: Database) -> None:
    settings = Settings(
        database_url=db.url,
        bot_factory=quick_bots,
        # Slow enough that no all-bot table ends while the limit is checked (a table
        # ending frees its place: the test's last step waits for that).
        bot_delay=0.05,
        bot_processes=0,
        create_rate="",
        bot_tables_per_client=2,
    )
    with LiveServer(settings) as server:
        mine = "10.0.0.7"
        seated = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
        first = create(server.base, seated, mine)  # waits for its human: never ends here
        assert first.status_code == 201
        assert create(server.base, BOTS, mine).status_code == 201
        refused = create(server.base, BOTS, mine)
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        assert "retry-after" in refused.headers
        # Tables of humans only are not bot work; neither are other clients' tables.
        human = create(server.base, HUMANS, mine)
        assert human.status_code == 201
        assert create(server.base, BOTS, "10.0.0.8").status_code == 201
        # Filling a table with bots is a bot table too.
        token = human.json()["token"]
        fill = httpx.post(
            f"{server.base}/api/games/{human.json()['game']['id']}/fill-bots",
            json={},
            headers={"Authorization": f"Bearer {token}", "X-Forwarded-For": mine},
        )
        assert fill.status_code == 429
        # Once the all-bot table has played to its end, there is room again.
        deadline = time.time() + 120
        while time.time() < deadline:
            answer = create(server.base, BOTS, mine)
            if answer.status_code == 201:
                break
            time.sleep(0.5)
        assert answer.status_code == 201
