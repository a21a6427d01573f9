"""Snapshots of the engine state, kept beside each game's log (:mod:`.state_snapshots`).

The core writes one every ``snapshot_every`` events; a start restores a game from
its snapshot and the events after it instead of replaying the whole log, and the
verifier replays the part the snapshot covers once the server serves, discarding
a snapshot that does not match (the log is the truth). This is that bookkeeping,
apart from the commit path it hangs on.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from alea.game import AnyState, GameInfo, IllegalActionError
from alea.server import state_snapshots
from alea.server.config import Settings
from alea.server.games import new_state
from alea.server.replaying import replay_log
from alea.server.room import ACTIVE, FINISHED, Game
from alea.server.storage import Store
from alea.server.tables import GameRecord, StorageError
from alea.undo import decider

log = logging.getLogger("alea.server")


class Host(Protocol):
    """What the keeper needs of :class:`alea.server.core.Core` (named here, not imported:
    the core imports this module)."""

    settings: Settings
    store: Store
    games: dict[str, Game]

    async def rebuild_from_store(self, game: Game) -> None: ...

    def notify(self, game: Game, *, announce: bool = True, start: int | None = None) -> None: ...


class SnapshotKeeper:
    """Writes, restores and verifies one process's snapshots."""

    def __init__(self, core: Host) -> None:
        self.core = core
        #: Games rebuilt from a snapshot, whose log the verifier still has to replay.
        self.verifier = state_snapshots.Verifier(self._replay_to_snapshot, self._discard)
        #: True while the server starts: the verifier waits until it serves (see
        #: :meth:`GameServer.start`), so its replays never slow the start down.
        self.starting = False
        #: Snapshot writes under way (kept so that they are not collected mid-flight).
        self._writes: set[asyncio.Task[None]] = set()

    def restore(
        self, info: GameInfo, record: GameRecord
    ) -> tuple[AnyState, list[int | None], list[int | None]] | None:
        """The state of ``record`` from its snapshot and the events after it, with each
        event's actor and decider, or None (no snapshot, or one that does not match the
        log: then the whole log is replayed).

        The events after the snapshot are re-checked by the engine as in a full
        replay; the verifier replays the part before it once the server serves. The
        deciders of the events the snapshot covers are not known (None), so a decision
        taken just before the snapshot cannot be taken back after a restart.
        """
        snapshot = record.snapshot
        if snapshot is None or record.version != len(record.events):
            return None
        restored = state_snapshots.restore(info, snapshot, record.events)
        if restored is None:
            log.warning("game %s: its snapshot does not match its log; replaying", record.id)
            return None
        state, actors = restored.state, restored.actors
        deciders: list[int | None] = [None] * snapshot.idx
        for index in range(snapshot.idx, len(record.events)):
            actors.append(state.actor())
            deciders.append(decider(info, state, record.events[index]))
            try:
                state.apply(record.events[index])
            except IllegalActionError:
                log.warning("game %s: event %d refused after its snapshot", record.id, index)
                return None
        self.verifier.pending.append(
            state_snapshots.Pending(
                record.id,
                info,
                record.players,
                record.referee,
                record.events[: snapshot.idx],
                restored.saved,
                restored.actors[: snapshot.idx],
            )
        )
        if not self.starting:
            self.verifier.kick()
        return state, actors, deciders

    def _replay_to_snapshot(
        self, pending: state_snapshots.Pending
    ) -> tuple[AnyState, list[int | None]]:
        """The state (and the actors) the log alone gives at a snapshot (the verifier's
        replay; any thread)."""
        record = GameRecord(
            id=pending.game_id,
            players=pending.players,
            status=ACTIVE,
            public=False,
            title="",
            created_at=0.0,
            updated_at=0.0,
            version=len(pending.events),
            result=None,
            events=pending.events,
            game=pending.info.name,
            referee=pending.referee,
        )
        fresh = new_state(pending.info, pending.players, pending.referee)
        try:
            state, actors, _ = replay_log(fresh, record)
        except ValueError:
            if not pending.info.table_options:
                raise
            plain = new_state(pending.info, pending.players, pending.referee, table=False)
            state, actors, _ = replay_log(plain, record)
        return state, actors

    async def _discard(self, game_id: str) -> None:
        """Delete ``game_id``'s snapshot and rebuild the game from its log alone."""
        await self.core.store.write(state_snapshots.op_drop(game_id))
        game = self.core.games.get(game_id)
        if game is not None:
            async with game.lock:
                game.snapshot_at = 0
                # The whole log again, not a catch-up: the state in memory came from the
                # snapshot just found wrong, while its version matches the log's.
                await self.core.rebuild_from_store(game)
                self.core.notify(game, announce=False)

    def save(self, game: Game) -> None:
        """Store a snapshot of ``game`` if ``snapshot_every`` events passed since the last.

        Queued behind the commit of the events it covers (so it is never ahead of the
        log), and not awaited: nobody waits for a snapshot, and one that fails to be
        stored only means a longer replay at the next start.
        """
        every = self.core.settings.snapshot_every
        if every <= 0 or game.status == FINISHED or game.version - game.snapshot_at < every:
            return
        snapshot = state_snapshots.encode(game.info, game.state, game.actors)
        game.snapshot_at = snapshot.idx
        task = asyncio.get_running_loop().create_task(self._store(game.id, snapshot))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _store(self, game_id: str, snapshot: Any) -> None:
        try:
            await self.core.store.write(state_snapshots.op_put(game_id, snapshot))
        except StorageError as err:
            log.warning("game %s: snapshot not stored: %s", game_id, err)

    async def stop(self) -> None:
        """Stop the verifier and queue the snapshot writes under way (before the store
        closes, which commits what is queued)."""
        await self.verifier.stop()
        if self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)
