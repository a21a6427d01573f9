"""The table page while the server's database is out of reach: the "reconnecting" state.

A move made while PostgreSQL cannot be reached is refused with
``database_unavailable``; the page must say so (``#conn.reconnecting``, not a bare
error toast that leaves it looking connected), keep the seat able to move, and come
back to "connected" by itself once the server's health check says the database
answers again. The outage is made at the connection level, as in
tests/server/test_faults.py: the server reaches the shared PostgreSQL through a
TCP relay the test cuts and restores (a real restart would break every other user).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import make_url

from tests.server.outage_support import TcpProxy
from tests.server.support import LiveServer, database
from tests.web.support import browser_settings, require_chromium
from tests.web.test_browser import act_once
from tests.web.test_table_browser import (
    open_page,
    play,
    seat_zero_decides,
    state,
    store_token,
    two_humans,
)

require_chromium()
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")


def test_the_page_shows_reconnecting_while_the_database_is_away(
    browser: Any, tmp_path: Path, shots: Path
) -> None:
    rng = random.Random(11)
    with database("postgresql", tmp_path) as db:
        target = make_url(db.url)
        with TcpProxy(target.host or "127.0.0.1", target.port or 5432) as proxy:
            url = target.set(host="127.0.0.1", port=proxy.port).render_as_string(
                hide_password=False
            )
            with LiveServer(browser_settings(url)) as server:
                base = server.base
                game_id, tokens = two_humans(base, "iacta")
                play(base, game_id, tokens, rng, moves=0, until=seat_zero_decides)
                context, page = open_page(browser)
                store_token(page, game_id, tokens[0], 0)
                page.goto(f"{base}/game/{game_id}")
                page.wait_for_selector("#conn.connected")
                page.wait_for_selector(".tray .die.pick, .tray .choices [data-action]")
                version = state(base, game_id, tokens[0])["version"]
                proxy.cut()
                # Seat 0 tries to move: refused, and the page says why, not "connected".
                for _ in range(40):
                    act_once(page, rng)
                    if page.query_selector("#conn.reconnecting") is not None:
                        break
                page.wait_for_selector("#conn.reconnecting", timeout=5000)
                assert "database" in (page.text_content("#conn") or "")
                page.screenshot(path=str(shots / "reconnecting-desktop.png"))
                proxy.restore()
                # Back by itself (the page asks the health check every 2 s), and it plays.
                page.wait_for_selector("#conn.connected", timeout=15000)
                for _ in range(40):
                    if state(base, game_id, tokens[0])["version"] > version:
                        break
                    act_once(page, rng)
                    page.wait_for_timeout(100)
                assert state(base, game_id, tokens[0])["version"] > version
                context.close()
