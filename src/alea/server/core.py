"""The games in memory and the one path that changes them.

Every change of a game's log goes through :meth:`Core.advance`, under the
game's lock:

1. **validate**: the caller has checked the status, the version the client
   saw, the turn and the notation (:meth:`Core.act` for a player's move);
2. **apply on a copy**: the events are applied to a *copy* of the state;
3. **draw chance**: every chance event that follows (rolls, reveals, draws,
   riddles) is drawn on the copy with the game's secret random source
   (:func:`draw_chance`, the one loop that does it, also for a new game);
4. **store**: the new events are committed in one write (group-committed with
   other games' writes);
5. **swap**: only then does the copy become the game's state;
6. **notify**: connections are marked dirty, the deadline watcher and the bot
   loop (the :attr:`Core.followers`) look at the game again.

So a refused or failed action changes nothing anywhere, and nobody is ever
told of an action that is not on disk. A player's move (:meth:`Core.act`),
the clock's ``last-round`` (:meth:`Core._time_up`) and chance left over in a
log cut short by hand (:meth:`Core.advance_chance`) all take this path.
Changes of who sits where take its twin, :meth:`Core.seat_change`: store,
then change memory, then notify; when a change completes the table, play
begins in that same write (:meth:`Core.seat_change` with ``begins``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

from alea.game import AnyState, GameInfo, IllegalActionError
from alea.server import state_snapshots
from alea.server.auth import is_game_id
from alea.server.clock import Clock, DeadlineWatcher
from alea.server.config import Settings
from alea.server.errors import ServerError
from alea.server.games import hosted, new_state, parse_move
from alea.server.room import ACTIVE, FINISHED, OPEN, Game, Seat
from alea.server.storage import Store
from alea.server.tables import GameRecord, StorageError, VersionConflict
from alea.server.writes import op_append_events, op_create_game

log = logging.getLogger("alea.server")

#: A write of the store: a function of an open transaction.
Write = Callable[[Any], None]
#: Builds the write of a seating change, given the status and deadline it sets (or None).
SeatingWrite = Callable[[str | None, float | None], Write]


def replay_log(state: AnyState, record: GameRecord) -> tuple[AnyState, list[int | None]]:
    """``state`` with the stored events of ``record`` applied, and each event's actor;
    ValueError naming the first event the engine refuses."""
    actors: list[int | None] = []
    for index, token in enumerate(record.events):
        actors.append(state.actor())
        try:
            state.apply(token)
        except IllegalActionError as err:
            raise ValueError(f"event {index} ({token}): {err}") from None
    return state, actors


def draw_chance(state: AnyState, rng: Any) -> list[int | None]:
    """Draw every chance event due in ``state`` (in place), until someone must decide.

    Returns the seat each drawn event belongs to (its ``actor`` in the log).
    """
    actors: list[int | None] = []
    while state.is_chance():
        actors.append(state.actor())
        state.apply(state.sample_chance(rng))
    return actors


class Core:
    """Every game of one server process in memory, its store, and the one commit path."""

    def __init__(self, settings: Settings, store: Store, clock: Clock) -> None:
        self.settings = settings
        self.store = store
        self.clock = clock
        self.games: dict[str, Game] = {}
        self._finished_order: list[str] = []
        self.deadlines = DeadlineWatcher(clock, settings.deadline_poll, self._time_up)
        #: Called (lock held) after every change that may give someone a decision:
        #: the bot loop subscribes (see :mod:`alea.server.seats`).
        self.followers: list[Callable[[Game], None]] = []
        #: Games rebuilt from a snapshot, whose log the verifier still has to replay.
        self.verifier = state_snapshots.Verifier(self._replay_to_snapshot, self._discard_snapshot)
        #: True while the server starts: the verifier waits until it serves (see
        #: :meth:`GameServer.start`), so its replays never slow the start down.
        self.starting = False
        #: Snapshot writes under way (kept so that they are not collected mid-flight).
        self._snapshot_writes: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------- registry

    async def get(self, game_id: str) -> Game:
        """The game ``game_id`` (finished games are loaded from the store on demand)."""
        if not is_game_id(game_id):  # before any lookup: no NUL byte reaches the database
            raise ServerError("no_such_game", 404, game=str(game_id)[:40])
        game = self.games.get(game_id)
        if game is not None:
            return game
        record = await asyncio.to_thread(self.store.load_game, game_id)
        if record is None:
            raise ServerError("no_such_game", 404, game=game_id)
        game = self.games.get(game_id)  # loaded meanwhile by someone else?
        if game is None:
            game = self.rebuild(record)
            self.games[game_id] = game
            if game.status == FINISHED:
                self._remember_finished(game_id)
            else:  # started by another process on the same database
                self.track_deadline(game)
        return game

    def _remember_finished(self, game_id: str) -> None:
        """Keep at most ``finished_cache`` finished games in memory (watched ones stay)."""
        self._finished_order.append(game_id)
        excess = len(self._finished_order) - self.settings.finished_cache
        if excess <= 0:
            return
        kept: list[str] = []
        for old in self._finished_order:
            game = self.games.get(old)
            if excess > 0 and (game is None or not game.connections):
                self.games.pop(old, None)
                excess -= 1
            else:
                kept.append(old)
        self._finished_order = kept

    def lobby(self, status: str | None, limit: int) -> list[Game]:
        """Public games in memory, newest first; ``status`` filters (open/active/finished)."""
        found = [
            g for g in self.games.values() if g.public and (status is None or g.status == status)
        ]
        found.sort(key=lambda g: g.created_at, reverse=True)
        return found[:limit]

    def rebuild(self, record: GameRecord) -> Game:
        """The game ``record`` describes, its state rebuilt by replaying the stored log.

        The engine re-checks every event; an event it refuses is a ``ValueError``. A game
        stored before its game had table options (a pace, say) replays without
        them when its log does not replay with them.
        """
        info = hosted(record.game)
        restored = self._restore(info, record)
        if restored is not None:
            state, actors = restored
            return self._game(record, state, actors, self.settings.chance_rng(), snapshot=True)
        try:
            state, actors = replay_log(new_state(info, record.players, record.referee), record)
        except ValueError:
            if not info.table_options:
                raise
            plain = new_state(info, record.players, record.referee, table=False)
            state, actors = replay_log(plain, record)
        if record.version != len(record.events):
            raise StorageError(
                f"game {record.id}: version {record.version} but {len(record.events)} events"
            )
        return self._game(record, state, actors, self.settings.chance_rng())

    def _restore(
        self, info: GameInfo, record: GameRecord
    ) -> tuple[AnyState, list[int | None]] | None:
        """The state of ``record`` from its snapshot and the events after it, or None
        (no snapshot, or one that does not match the log: then the whole log is replayed).

        The events after the snapshot are re-checked by the engine as in a full
        replay; the verifier replays the part before it once the server serves.
        """
        snapshot = record.snapshot
        if snapshot is None or record.version != len(record.events):
            return None
        restored = state_snapshots.restore(info, snapshot, record.events)
        if restored is None:
            log.warning("game %s: its snapshot does not match its log; replaying", record.id)
            return None
        state, actors = restored.state, restored.actors
        for index in range(snapshot.idx, len(record.events)):
            actors.append(state.actor())
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
        return state, actors

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
            return replay_log(fresh, record)
        except ValueError:
            if not pending.info.table_options:
                raise
            plain = new_state(pending.info, pending.players, pending.referee, table=False)
            return replay_log(plain, record)

    async def _discard_snapshot(self, game_id: str) -> None:
        """Delete ``game_id``'s snapshot and rebuild the game from its log alone."""
        await self.store.write(state_snapshots.op_drop(game_id))
        game = self.games.get(game_id)
        if game is not None:
            async with game.lock:
                game.snapshot_at = 0
                await self._reload(game)

    def save_snapshot(self, game: Game) -> None:
        """Store a snapshot of ``game`` if ``snapshot_every`` events passed since the last.

        Queued behind the commit of the events it covers (so it is never ahead of the
        log), and not awaited: nobody waits for a snapshot, and one that fails to be
        stored only means a longer replay at the next start.
        """
        every = self.settings.snapshot_every
        if every <= 0 or game.status == FINISHED or game.version - game.snapshot_at < every:
            return
        snapshot = state_snapshots.encode(game.info, game.state, game.actors)
        game.snapshot_at = snapshot.idx
        task = asyncio.get_running_loop().create_task(self._store_snapshot(game.id, snapshot))
        self._snapshot_writes.add(task)
        task.add_done_callback(self._snapshot_writes.discard)

    async def _store_snapshot(self, game_id: str, snapshot: Any) -> None:
        try:
            await self.store.write(state_snapshots.op_put(game_id, snapshot))
        except StorageError as err:
            log.warning("game %s: snapshot not stored: %s", game_id, err)

    async def stop_snapshots(self) -> None:
        """Stop the verifier and queue the snapshot writes under way (before the store
        closes, which commits what is queued)."""
        await self.verifier.stop()
        if self._snapshot_writes:
            await asyncio.gather(*self._snapshot_writes, return_exceptions=True)

    def _game(
        self,
        record: GameRecord,
        state: AnyState,
        actors: list[int | None],
        rng: Any,
        *,
        snapshot: bool = False,
    ) -> Game:
        """The game in memory that ``record`` describes, with its engine ``state``
        (``snapshot``: rebuilt from the stored snapshot, which covers what it says)."""
        seats = [
            Seat(s.seat, s.kind, s.level, s.name, s.token_hash, s.replaced) for s in record.seats
        ]
        return Game(
            id=record.id,
            players=record.players,
            public=record.public,
            title=record.title,
            created_at=record.created_at,
            updated_at=record.updated_at,
            status=record.status,
            state=state,
            actors=actors,
            seats=seats,
            rng=rng,
            info=hosted(record.game),
            turn_since=self.clock.now(),
            result=record.result,
            time_limit=record.time_limit,
            deadline=record.deadline,
            referee=record.referee,
            referee_name=record.referee_name or "",
            referee_token=record.referee_token,
            exchange=record.exchange,
            snapshot_at=record.snapshot.idx if snapshot and record.snapshot else 0,
        )

    async def _reload(self, game: Game) -> None:
        """Replace ``game``'s state with the stored one (after another writer moved it)."""
        record = await asyncio.to_thread(self.store.load_game, game.id)
        if record is None:
            return
        fresh = self.rebuild(record)
        game.state, game.actors, game.status = fresh.state, fresh.actors, fresh.status
        game.result, game.deadline = fresh.result, fresh.deadline
        game.referee_name, game.referee_token = fresh.referee_name, fresh.referee_token
        game.exchange = fresh.exchange
        game.changed()

    # ------------------------------------------------------- the commit path

    async def write(self, op: Write) -> None:
        """Commit ``op`` (group-committed); a storage failure is ``storage_error``."""
        try:
            await self.store.write(op)
        except VersionConflict:
            raise
        except StorageError as err:
            log.error("storage error: %s", err)
            raise ServerError("storage_error", 503) from None

    def notify(self, game: Game) -> None:
        """``game`` changed: wake its connections, the deadline watcher and the bot loop."""
        game.changed()
        self.track_deadline(game)
        for follower in self.followers:
            follower(game)

    async def create(
        self,
        game_id: str,
        info: GameInfo,
        seats: list[Seat],
        *,
        public: bool,
        title: str,
        time_limit: int | None,
        referee: str,
        referee_name: str,
        referee_token: str | None,
        rng: Any = None,
    ) -> Game:
        """Store a new game of ``info`` and keep it: the set-up chance drawn, and play
        begun if every seat (and the referee role) is already taken. ``rng``: the game's
        chance source (a tutorial's seeded one), else :attr:`Settings.chance_rng`'s."""
        rng = rng if rng is not None else self.settings.chance_rng()
        state = new_state(info, len(seats), referee)
        actors = draw_chance(state, rng)
        now = self.clock.now()
        record = GameRecord(
            id=game_id,
            players=len(seats),
            status=OPEN,
            public=public,
            title=title,
            created_at=now,
            updated_at=now,
            version=len(state.history),
            result=None,
            seats=[s.record() for s in seats],
            events=list(state.history),
            game=info.name,
            time_limit=time_limit,
            deadline=None,
            referee=referee,
            referee_name=referee_name or None,
            referee_token=referee_token,
        )
        game = self._game(record, state, actors, rng)
        if game.all_claimed():
            game.begin(self.clock.deadline(time_limit), now)
            record.status, record.deadline = game.status, game.deadline
        await self.write(op_create_game(record, actors))
        self.games[game.id] = game
        self.notify(game)
        return game

    async def act(self, game: Game, seat: int, text: object, version: object) -> tuple[int, int]:
        """Make ``seat``'s move ``text`` if it is legal at ``version``.

        Returns ``(index of the action in the log, new version)``. Runs shielded
        from the caller's cancellation: once the checks pass, the commit and
        the swap happen together or not at all.
        """
        return await asyncio.shield(self._act(game, seat, text, version))

    async def _act(self, game: Game, seat: int, text: object, version: object) -> tuple[int, int]:
        if not isinstance(text, str) or not text or len(text) > 40:
            raise ServerError("malformed", detail="'action' must be a notation string")
        if isinstance(version, bool) or not isinstance(version, int):
            raise ServerError("malformed", detail="'version' must be the integer you saw")
        async with game.lock:
            if game.status == FINISHED:
                raise ServerError("game_over", 409)
            if game.status == OPEN:
                raise ServerError("not_started", 409)
            if version != game.version and not self._only_time_up_since(game, version):
                raise ServerError("stale_version", 409, sent=version, version=game.version)
            if game.state.current_player() != seat:
                raise ServerError("not_your_turn", 409)
            token = parse_move(game.info, text)
            # The seat's own decision, or the referee's mark of the answering seat's answer:
            # the engine says whose, as the replay on restart has it.
            start = await self.advance(game, [(token, game.state.actor())])
        return start, game.version

    async def advance(
        self, game: Game, events: Sequence[tuple[Any, int | None]], *, keep_turn: bool = False
    ) -> int:
        """Apply ``events`` (each with its actor) and the chance that follows: the commit
        path (the game's lock held). Returns the log index of the first new event.

        ``keep_turn``: the events are not the player's doing (the clock's ``last-round``),
        so the player's idle time keeps running. An event the engine refuses is
        ``illegal_action`` and changes nothing.
        """
        new = game.state.clone()
        start = game.version
        actors: list[int | None] = []
        for event, actor in events:
            try:
                new.apply(event)
            except IllegalActionError as err:
                raise ServerError("illegal_action", 422, detail=str(err)) from None
            actors.append(actor)
        actors.extend(draw_chance(new, game.rng))
        if actors:
            await self._commit(game, new, start, actors, keep_turn=keep_turn)
        return start

    async def _commit(
        self, game: Game, new: AnyState, start: int, actors: list[int | None], *, keep_turn: bool
    ) -> None:
        """Store the events from ``start`` on, then make ``new`` the game's state (lock held)."""
        events = new.history[start:]
        status: str | None = None
        result: dict[str, Any] | None = None
        if new.is_terminal():
            status = FINISHED
            result = new.result()
        now = self.clock.now()
        try:
            await self.write(
                op_append_events(
                    game.id, start, events, actors, status=status, result=result, now=now
                )
            )
        except VersionConflict:
            await self._reload(game)
            raise ServerError("stale_version", 409, sent=start, version=game.version) from None
        game.state = new
        game.actors.extend(actors)
        game.updated_at = now
        if not keep_turn:
            game.turn_since = now
        if status is not None:
            game.status = status
            game.result = result
            self._remember_finished(game.id)
        self.notify(game)
        self.save_snapshot(game)

    async def advance_chance(self, game: Game) -> None:
        """Draw and commit the chance events a game waits for (never after this server's
        own writes, which commit chance with the action before it; a log cut short by
        hand must not hang the game)."""
        async with game.lock:
            await self.advance(game, [])

    async def seat_change(
        self, game: Game, write: SeatingWrite, change: Callable[[], None], *, begins: bool
    ) -> None:
        """Store a change of who sits where, then make it (``change``) and notify: the
        commit path of seats and roles (the game's lock held).

        ``begins``: the change completes the table, so play begins: the status turns
        ``active`` and the time limit's deadline is fixed, in the same write.
        """
        deadline = self.clock.deadline(game.time_limit) if begins else None
        await self.write(write(ACTIVE if begins else None, deadline))
        change()
        now = self.clock.now()
        if begins:
            game.begin(deadline, now)
        game.updated_at = now
        self.notify(game)

    # ------------------------------------------------------------ time limits

    def track_deadline(self, game: Game) -> None:
        """Have the watcher declare ``game``'s last round at its deadline while it is due."""
        if (
            game.deadline is not None
            and game.status == ACTIVE
            and game.info.time_up_action is not None
            and game.state.can_declare_time_up()
        ):
            self.deadlines.watch(game.id, game.deadline)
        elif game.status == FINISHED:
            self.deadlines.forget(game.id)

    def _only_time_up_since(self, game: Game, version: object) -> bool:
        """Whether every event after ``version`` is the clock's ``last-round``.

        That event changes neither whose turn it is nor what they may do, so a move
        chosen just before the time ran out is still accepted rather than bounced
        as stale (the player would only have to click the same button again).
        """
        event = game.info.time_up_action
        if event is None or not isinstance(version, int) or not 0 <= version < game.version:
            return False
        return all(e == event for e in game.state.history[version:])

    async def _time_up(self, game_id: str) -> bool:
        """Declare the last round of ``game_id`` now (the watcher's call at a deadline).

        True when done (or nothing is left to do); False to be tried again shortly.
        """
        game = self.games.get(game_id)
        if game is None:
            return True
        try:
            # Shielded like a move: once the write is under way it completes, even if
            # the watcher is cancelled, so memory and disk never disagree.
            await asyncio.shield(self._declare_last_round(game))
        except ServerError as err:
            # stale_version: another process moved the game and it was reloaded; look
            # again shortly (the reloaded log may already hold the declaration).
            log.warning("game %s: last round not declared yet (%s); retrying", game_id, err.code)
            return False
        return True

    async def _declare_last_round(self, game: Game) -> None:
        """Apply the game's time-up action to ``game`` through the commit path."""
        async with game.lock:
            event = game.info.time_up_action
            state = game.state
            if event is None or game.status != ACTIVE or not state.can_declare_time_up():
                return  # finished meanwhile, or already declared (e.g. by the log on restart)
            await self.advance(game, [(event, None)], keep_turn=True)  # nobody's seat
            round_, _ = game.state.progress()
        log.info("game %s: time is up, round %s is the last", game.id, round_)
