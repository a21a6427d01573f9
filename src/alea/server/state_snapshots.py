"""Snapshots of the engine state beside the event log: a restart replays only the tail.

Why: on start the server rebuilt every game being played by replaying its whole
log through the engine, which re-checks every event. With a thousand games of a
few hundred events each that took longer than people wait for a table to come
back. So every :attr:`Settings.snapshot_every` events a game's full state
(``GameState.to_json``) is stored beside its log (table ``snapshots``, one row
per game, written through the group commit after the events it covers are
committed, so a snapshot is never ahead of the log), and a restart starts from
it and replays only the events after it.

The log stays the source of truth. A snapshot is *used* only if

* it was saved under the rules version the engine has now
  (:attr:`GameInfo.version`: a change of the rules' behaviour invalidates it),
* the engine reads it back (``GameInfo.from_json``), and
* the history it holds is exactly the first ``idx`` events of the stored log.

Then, once the server is serving, the :class:`Verifier` replays each restored
game's log up to the snapshot in the background and compares the two states
field by field (``to_json``), and the actors of those events; a snapshot that
does not match the replay of its events is deleted and the game is rebuilt from
its log alone. Anything that
fails these checks falls back to the full replay: a snapshot can make a start
faster, never change a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert

from alea.game import AnyState, GameInfo
from alea.server import wire
from alea.server.tables import SnapshotRecord, snapshots_table

log = logging.getLogger("alea.server.snapshots")

#: Events between two snapshots of a game, unless the settings say otherwise.
DEFAULT_EVERY = 64
#: Seconds after start-up before the verifier begins its replays (the server serves by then).
VERIFY_AFTER = 1.0


def encode(info: GameInfo, state: AnyState, actors: Sequence[int | None]) -> SnapshotRecord:
    """The snapshot of ``state`` (whose log's actors are ``actors``), ready to store."""
    text = wire.dumps({"state": state.to_json(), "actors": list(actors)})
    return SnapshotRecord(idx=len(state.history), rules=info.version, state=text)


#: The snapshot written in one statement on PostgreSQL (the event loop's connection,
#: :mod:`alea.server.loopwriter`): the game's one row replaced or added. ``%s``
#: placeholders, numbered there for asyncpg.
PG_PUT = (
    "INSERT INTO snapshots (game_id, idx, rules, state, created_at) "
    "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (game_id) DO UPDATE SET "
    "idx = EXCLUDED.idx, rules = EXCLUDED.rules, state = EXCLUDED.state, "
    "created_at = EXCLUDED.created_at"
)


class PutSnapshot:
    """Store ``snapshot`` as the game's one snapshot (replacing any older one).

    A write of the group commit (called with the writer thread's connection), and
    also the parameters of :data:`PG_PUT`, so that on PostgreSQL the event loop's
    own connection stores it in one statement (:mod:`alea.server.loopwriter`).
    Why: a snapshot every 64 events went through SQLAlchemy in the writer thread,
    a delete and an insert with their compilation and the hand-off each way, and
    that was a tenth of the server's CPU under load; the statement on the loop's
    connection costs what one move's commit does.
    """

    __slots__ = ("created_at", "game_id", "snapshot")

    def __init__(self, game_id: str, snapshot: SnapshotRecord) -> None:
        self.game_id = game_id
        self.snapshot = snapshot
        self.created_at = time.time()

    def params(self) -> tuple[str, int, int, str, float]:
        """The parameters of :data:`PG_PUT`."""
        s = self.snapshot
        return (self.game_id, s.idx, s.rules, s.state, self.created_at)

    def __call__(self, conn: Connection) -> None:
        conn.execute(delete(snapshots_table).where(snapshots_table.c.game_id == self.game_id))
        conn.execute(
            insert(snapshots_table).values(
                game_id=self.game_id,
                idx=self.snapshot.idx,
                rules=self.snapshot.rules,
                state=self.snapshot.state,
                created_at=self.created_at,
            )
        )


def op_put(game_id: str, snapshot: SnapshotRecord) -> PutSnapshot:
    """Store ``snapshot`` as the game's one snapshot (replacing any older one)."""
    return PutSnapshot(game_id, snapshot)


def op_drop(game_id: str) -> Callable[[Connection], None]:
    """Delete the game's snapshot (it did not match its log)."""

    def run(conn: Connection) -> None:
        conn.execute(delete(snapshots_table).where(snapshots_table.c.game_id == game_id))

    return run


@dataclass
class Restored:
    """A state read back from a snapshot that matches the stored log's prefix."""

    state: AnyState
    actors: list[int | None]
    #: The snapshot's own JSON of the state, for the background check.
    saved: dict[str, Any]


def restore(info: GameInfo, snapshot: SnapshotRecord, events: Sequence[str]) -> Restored | None:
    """The state ``snapshot`` holds, if it may be used for a log of ``events``; else None.

    The checks are those of the module docstring that cost no replay; the
    :class:`Verifier` replays afterwards.
    """
    if snapshot.rules != info.version or not 0 < snapshot.idx <= len(events):
        return None
    try:
        data = wire.loads(snapshot.state)
        saved = data["state"]
        actors = [None if a is None else int(a) for a in data["actors"]]
        state = info.from_json(saved)
    except Exception:  # anything unreadable is simply not used
        return None
    idx = snapshot.idx
    if len(actors) != idx or list(state.history) != list(events[:idx]):
        return None
    return Restored(state, actors, saved)


def matches_replay(replayed: AnyState, saved: dict[str, Any]) -> bool:
    """Whether the state replayed from the log equals the snapshot's, field by field
    (compared as JSON, as the snapshot was stored: tuples and lists alike)."""
    return bool(wire.loads(wire.dumps(replayed.to_json())) == wire.loads(wire.dumps(saved)))


@dataclass
class Pending:
    """A game restored from a snapshot, waiting for its background check."""

    game_id: str
    info: GameInfo
    players: int
    referee: str
    events: list[str]
    saved: dict[str, Any]
    #: The snapshot's actors of those events.
    actors: list[int | None]


class Verifier:
    """Replays the log of each game restored from a snapshot and compares (background).

    ``replay(pending)`` returns the state the log alone gives at the snapshot and the
    actors of its events (run in a thread: it is CPU work on states nobody else
    holds); ``discard(game_id)`` deletes the snapshot and rebuilds the game from its log.
    """

    def __init__(
        self,
        replay: Callable[[Pending], tuple[AnyState, list[int | None]]],
        discard: Callable[[str], Any],
    ) -> None:
        self._replay = replay
        self._discard = discard
        self.pending: list[Pending] = []
        self._task: asyncio.Task[None] | None = None
        #: Games checked, and snapshots discarded, since start (for tests and logs).
        self.checked = 0
        self.discarded = 0
        self.done = asyncio.Event()

    def kick(self) -> None:
        """Check the pending games in the background (on the running loop, if any)."""
        if self._task is not None and not self._task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # rebuilt outside a loop (a tool): checked at the next kick
            return
        self.done.clear()
        self._task = loop.create_task(self._run(), name="alea-verifier")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        try:
            while self.pending:
                item = self.pending.pop()
                try:
                    replayed, actors = await asyncio.to_thread(self._replay, item)
                    good = actors == item.actors and matches_replay(replayed, item.saved)
                except Exception as err:  # a log the engine refuses: the snapshot goes too
                    log.error("game %s: replaying its log failed: %s", item.game_id, err)
                    good = False
                self.checked += 1
                if not good:
                    self.discarded += 1
                    log.error(
                        "game %s: its snapshot does not match the replay of its log; "
                        "discarded, the game is rebuilt from the log",
                        item.game_id,
                    )
                    try:
                        await self._discard(item.game_id)
                    except Exception:  # e.g. moves made meanwhile that the log's state refuses
                        log.exception("game %s: rebuilding it from its log failed", item.game_id)
        finally:
            self.done.set()
