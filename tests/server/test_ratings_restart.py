"""A rated game's result and its rating are one transaction: ``kill -9`` never splits them.

The server process is killed (SIGKILL, no shutdown code runs) while the write that
finishes a rated game is inside its transaction, after the result is written and
before the rating is: a trigger the test puts on ``rated_games`` holds that write
there. Then nothing of it is on disk, neither the result nor the rating; the
restarted server plays the end again and rates the game once. Killed again right
after the finished game is acknowledged, and restarted, it never rates it twice.
"""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path

import httpx
from sqlalchemy import Engine, create_engine, text

from tests.server.ratings_support import counts, rated_table, run, seated, status, step
from tests.server.support import Database, ServerProcess

SERVE = ("--bot-delay", "0.01")


def hold_rating_writes(engine: Engine) -> None:
    """Make every insert into ``rated_games`` take (far) longer than the test waits."""
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(
                text(
                    "CREATE FUNCTION alea_hold() RETURNS trigger AS "
                    "$$ BEGIN PERFORM pg_sleep(120); RETURN NEW; END $$ LANGUAGE plpgsql"
                )
            )
            conn.execute(
                text(
                    "CREATE TRIGGER alea_hold BEFORE INSERT ON rated_games "
                    "FOR EACH ROW EXECUTE FUNCTION alea_hold()"
                )
            )
        else:
            # SQLite has no sleep: the trigger counts a cross join of 2^36 rows.
            conn.execute(text("CREATE TABLE alea_hold (x INTEGER)"))
            conn.execute(text("INSERT INTO alea_hold VALUES " + ",".join(["(1)"] * 4096)))
            conn.execute(
                text(
                    "CREATE TRIGGER alea_hold BEFORE INSERT ON rated_games BEGIN "
                    "SELECT count(*) FROM alea_hold a, alea_hold b, alea_hold c; END"
                )
            )


def release_rating_writes(engine: Engine) -> None:
    """Drop the trigger (and end the dead server's PostgreSQL session, still sleeping)."""
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE pid <> pg_backend_pid() AND query LIKE '%rated_games%'"
                )
            )
    deadline = time.time() + 30
    while True:
        try:
            with engine.begin() as conn:
                conn.execute(
                    text(
                        "DROP TRIGGER alea_hold"
                        + (" ON rated_games" if engine.dialect.name == "postgresql" else "")
                    )
                )
                if engine.dialect.name == "postgresql":
                    conn.execute(text("DROP FUNCTION alea_hold()"))
                else:
                    conn.execute(text("DROP TABLE alea_hold"))
            return
        except Exception:
            if time.time() > deadline:
                raise
            time.sleep(0.2)


def rating_in_progress(engine: Engine) -> bool:
    """Whether the server is inside the held rating write (not merely slow to move).

    PostgreSQL: a session sleeps in the trigger. SQLite: the database's write lock is
    still held a second later (every other write of the server takes milliseconds).
    """
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            found = conn.execute(
                text(
                    "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
                    "AND wait_event = 'PgSleep'"
                )
            ).scalar_one()
        return bool(found)
    path = engine.url.database
    assert path is not None
    probe = sqlite3.connect(path, timeout=1.0, isolation_level=None)
    try:
        probe.execute("BEGIN IMMEDIATE")
        probe.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError as err:
        assert "locked" in str(err)
        return True
    finally:
        probe.close()


def test_kill_between_result_and_rating_leaves_neither_and_rates_once(
    db: Database, tmp_path: Path
) -> None:
    rng = random.Random(7)
    engine = create_engine(db.url)
    proc = ServerProcess(db.url, tmp_path, *SERVE).start()
    try:
        table = rated_table(proc.base, bots=("easy", "medium"))
        hold_rating_writes(engine)

        async def until_stuck() -> None:
            clients = await seated(proc.ws_base, table)
            # Play until the game stops moving because the finishing write is held
            # inside its transaction (a busy machine's slow move is told apart).
            while await step(clients, rng, timeout=4.0) or not rating_in_progress(engine):
                assert clients[0].status != "finished", "the game ended: it was not held"
            assert clients[0].status != "finished"
            # Nothing of that transaction is visible from outside: not even the result.
            assert status(db.url, table.game_id) == "active"
            proc.kill()
            for c in clients:
                await c.close()

        run(until_stuck())
    finally:
        if proc.proc is not None and proc.proc.poll() is None:
            proc.kill()
    release_rating_writes(engine)
    # Killed between result and rating: neither is stored.
    assert status(db.url, table.game_id) == "active"
    assert counts(db.url, table.game_id) == {"guards": 0, "history": 0, "games": 0}

    again = ServerProcess(db.url, tmp_path, *SERVE).start()
    try:

        async def finish() -> int:
            clients = await seated(again.ws_base, table)
            moves = 0
            while await step(clients, rng):
                moves += 1
            for c in clients:
                await c.close()
            return moves

        # The game was held at its very last decision: one move ends it (none of ours when
        # that decision is a bot's, which the restarted server makes by itself).
        assert run(finish()) <= 1
        assert status(db.url, table.game_id) == "finished"
        assert counts(db.url, table.game_id) == {"guards": 1, "history": 2, "games": 2}
    finally:
        again.kill()  # right after the result and the rating: both are there
    assert counts(db.url, table.game_id) == {"guards": 1, "history": 2, "games": 2}
    third = ServerProcess(db.url, tmp_path, *SERVE).start()
    try:
        for browser in table.players:
            browser.close()
        profile = httpx.get(f"{third.base}/api/players/Alice").json()
        assert len(profile["history"]) == 1 and profile["ratings"][0]["games"] == 1
    finally:
        third.stop()
    assert counts(db.url, table.game_id) == {"guards": 1, "history": 2, "games": 2}
    engine.dispose()
