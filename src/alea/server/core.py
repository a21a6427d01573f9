"""The games in memory and the one path that changes them.

Every change of a game's log goes through :meth:`Core.advance`, under the
game's lock:

1. **validate**: the caller has checked the status, the version the client
   saw, the turn and the notation (:meth:`Core.act` for a player's move);
2. **apply on a copy**: the events are applied to a *copy* of the state;
3. **draw chance**: every chance event that follows (rolls, reveals, draws,
   riddles) is drawn on the copy with the game's secret random source
   (:func:`alea.server.replaying.draw_chance`, the one loop that does it, also for a new game);
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
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from alea.game import AnyState, GameInfo, IllegalActionError
from alea.server import catchup, outage, writelock
from alea.server.auth import is_game_id
from alea.server.clock import Clock, DeadlineWatcher
from alea.server.config import Settings
from alea.server.errors import ServerError
from alea.server.games import hosted, new_state, parse_move
from alea.server.rating_store import finish_rated, op_rate_game
from alea.server.replaying import draw_chance, replay_log
from alea.server.room import ACTIVE, FINISHED, OPEN, OVER, Game, Seat, new_game_record
from alea.server.snapshot_keeper import SnapshotKeeper
from alea.server.storage import Store
from alea.server.tables import GameRecord, StorageError, VersionConflict
from alea.server.timecontrol import TimeControl
from alea.server.writes import op_append_events, op_create_game, op_truncate_events
from alea.undo import decider, taken_back

log = logging.getLogger("alea.server")

#: A write of the store: a function of an open transaction.
Write = Callable[[Any], Any]
#: Builds the write of a seating change, given the status and deadline it sets (or None).
SeatingWrite = Callable[[str | None, float | None], Write]
#: Told ``(log index, new version)`` of a committed change before anyone hears of it.
OnCommit = Callable[[int, int], None]


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
        #: Called after every change this process commits (not one it caught up with):
        #: the fan-out to the other processes subscribes (:mod:`alea.server.cluster`).
        #: Each gets the game and, for appended events, the log index of the first new one.
        self.announcers: list[Callable[[Game, int | None], None]] = []
        #: True when other processes share the database (``Settings.redis_url``): games in
        #: memory are then caught up from the stored log before they are trusted.
        self.shared = False
        #: With other processes: whether this one may act on a game's deadline now (it
        #: holds the game's lease); None: always (one process).
        self.may_drive: Callable[[str], Awaitable[bool]] | None = None
        #: Snapshots of the engine state: written as games go on, used and verified at start.
        self.snapshots = SnapshotKeeper(self)
        #: Games rebuilt from a snapshot, whose log the verifier still has to replay.
        self.verifier = self.snapshots.verifier

    @property
    def starting(self) -> bool:
        """True while the server starts (the snapshots' verifier waits until it serves)."""
        return self.snapshots.starting

    @starting.setter
    def starting(self, value: bool) -> None:
        self.snapshots.starting = value

    # ------------------------------------------------------------- registry

    async def get(self, game_id: str) -> Game:
        """The game ``game_id`` (finished games are loaded from the store on demand)."""
        if not is_game_id(game_id):  # before any lookup: no NUL byte reaches the database
            raise ServerError("no_such_game", 404, game=str(game_id)[:40])
        game = self.games.get(game_id)
        if game is not None:
            if self.shared and game.status != FINISHED:
                # Another process may have moved it a moment ago: read your writes anywhere.
                # Any read of the log begun after this lookup arrived will do: the seats of
                # a game connecting together share one read instead of one each. (While the
                # database is out of reach nobody writes: memory is the latest.)
                asked = game.reads
                async with game.lock:
                    if game.reads == asked:
                        with contextlib.suppress(outage.DatabaseOutage):
                            await catchup.catch_up(self, game)
            return game
        record = await outage.read(catchup.load_record, self.store.engine, game_id)
        if record is None:
            raise ServerError("no_such_game", 404, game=game_id)
        game = self.games.get(game_id)  # loaded meanwhile by someone else?
        if game is None:
            game = self.rebuild(record)
            self.games[game_id] = game
            if game.status in OVER:
                self.remember_finished(game_id)
            else:  # started by another process on the same database
                self.track_deadline(game)
        return game

    def remember_finished(self, game_id: str) -> None:
        """``game_id`` is over (finished or abandoned): keep at most ``finished_cache`` such
        games in memory (watched ones stay)."""
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
        restored = self.snapshots.restore(info, record)
        if restored is not None:
            state, actors, deciders = restored
            return self._game(
                record, state, actors, self.settings.chance_rng(), deciders, snapshot=True
            )
        try:
            state, actors, deciders = replay_log(
                new_state(info, record.players, record.referee), record
            )
        except ValueError:
            if not info.table_options:
                raise
            plain = new_state(info, record.players, record.referee, table=False)
            state, actors, deciders = replay_log(plain, record)
        if record.version != len(record.events):
            raise StorageError(
                f"game {record.id}: version {record.version} but {len(record.events)} events"
            )
        return self._game(record, state, actors, self.settings.chance_rng(), deciders)

    def save_snapshot(self, game: Game) -> None:
        """Store a snapshot of ``game`` if it is due (:class:`SnapshotKeeper.save`)."""
        self.snapshots.save(game)

    async def stop_snapshots(self) -> None:
        """Stop the verifier and wait for the snapshot writes under way."""
        await self.snapshots.stop()

    def _game(
        self,
        record: GameRecord,
        state: AnyState,
        actors: list[int | None],
        rng: Any,
        deciders: list[int | None],
        *,
        snapshot: bool = False,
    ) -> Game:
        """The game in memory that ``record`` describes, with its engine ``state``
        (``snapshot``: rebuilt from the stored snapshot, which covers what it says)."""
        seats = [
            Seat(s.seat, s.kind, s.level, s.name, s.token_hash, s.replaced, user_id=s.user_id)
            for s in record.seats
        ]
        clock = record.clock
        game = Game(
            id=record.id,
            players=record.players,
            public=record.public,
            title=record.title,
            created_at=record.created_at,
            updated_at=record.updated_at,
            status=record.status,
            state=state,
            actors=actors,
            deciders=deciders,
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
            seen_version=len(state.history),
            seen_status=record.status,
            human_seen=record.updated_at,
            rated=record.rated,
            snapshot_at=record.snapshot.idx if snapshot and record.snapshot else 0,
        )
        if clock is not None:
            game.control = TimeControl(clock.mode, clock.per_move, clock.bank, clock.on_timeout)
            game.clock_seat = clock.turn_seat
            game.clock_started = clock.turn_started or 0.0
            game.banks = list(clock.banks) or [float(clock.bank)] * record.players
            if record.human_seen is not None:  # not the last change: it may be a timeout's
                game.human_seen = record.human_seen
        if record.human_seen is not None:  # a process saw a human there (games.human_seen)
            game.human_seen = max(game.human_seen, record.human_seen)
            game.seen_stored = record.human_seen
        return game

    async def _reload(self, game: Game) -> None:
        """Bring ``game`` up to the stored log (after another writer moved it; lock held)."""
        if not await catchup.catch_up(self, game):
            game.changed()

    async def rebuild_from_store(self, game: Game) -> None:
        """Replace ``game``'s state with the stored one, replaying its whole log."""
        record = await asyncio.to_thread(catchup.load_record, self.store.engine, game.id)
        if record is None:
            return
        fresh = self.rebuild(record)
        game.state, game.actors, game.status = fresh.state, fresh.actors, fresh.status
        game.deciders = fresh.deciders
        game.rewound()
        game.result, game.deadline = fresh.result, fresh.deadline
        game.referee_name, game.referee_token = fresh.referee_name, fresh.referee_token
        game.exchange = fresh.exchange
        for old, new in zip(game.seats, fresh.seats, strict=False):
            new.connections = old.connections
        game.seats = fresh.seats
        game.updated_at = fresh.updated_at
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
            raise outage.refusal(err) from None

    def notify(self, game: Game, *, announce: bool = True, start: int | None = None) -> None:
        """``game`` changed: wake its connections, the deadline watcher and the bot loop;
        with ``announce``, tell the other processes too (a change committed here; ``start``:
        the log index of the first event it appended, if it appended any)."""
        game.changed()
        self.track_deadline(game)
        for follower in self.followers:
            follower(game)
        if announce:
            for announcer in self.announcers:
                announcer(game, start)

    async def write_seats(self, game: Game, op: Write) -> None:
        """Commit a change of who sits where, made on what memory shows of ``game``.

        With other processes, the write first locks the game's row and checks that
        the stored version, status and seats are still the ones in memory
        (:mod:`alea.server.writelock`); if not, it is a ``VersionConflict`` and
        nothing is stored (the caller catches up and decides again).
        """
        await self.write(writelock.guarded(game, op) if self.shared else op)

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
        control: TimeControl | None = None,
        rated: bool = False,
    ) -> Game:
        """Store a new game of ``info`` and keep it: the set-up chance drawn, and play
        begun if every seat (and the referee role) is already taken. ``rng``: the game's
        chance source (a tutorial's seeded one), else :attr:`Settings.chance_rng`'s."""
        rng = rng if rng is not None else self.settings.chance_rng()
        state = new_state(info, len(seats), referee)
        actors = draw_chance(state, rng)
        now = self.clock.now()
        record = new_game_record(
            game_id,
            info.name,
            state.history,
            [s.record() for s in seats],
            now,
            public=public,
            title=title,
            time_limit=time_limit,
            referee=referee,
            referee_name=referee_name,
            referee_token=referee_token,
            rated=rated,
            control=control,
        )
        game = self._game(record, state, actors, rng, [None] * len(actors))
        if game.all_claimed():
            game.begin(self.clock.deadline(time_limit), now)
            record.status, record.deadline = game.status, game.deadline
        await self.write(op_create_game(record, actors))
        self.games[game.id] = game
        self.notify(game)
        return game

    async def act(
        self,
        game: Game,
        seat: int,
        text: object,
        version: object,
        on_commit: OnCommit | None = None,
    ) -> tuple[int, int]:
        """Make ``seat``'s move ``text`` if it is legal at ``version``.

        Returns ``(index of the action in the log, new version)``. Runs shielded
        from the caller's cancellation: once the checks pass, the commit and
        the swap happen together or not at all. ``on_commit`` is called with the
        same two numbers once the move is stored and in memory, *before* anyone is
        woken to hear of it (the WebSocket acknowledges the move in the update the
        mover is then sent; see :mod:`alea.server.hub`).
        """
        return await asyncio.shield(self._act(game, seat, text, version, on_commit))

    async def _act(
        self, game: Game, seat: int, text: object, version: object, on_commit: OnCommit | None
    ) -> tuple[int, int]:
        if not isinstance(text, str) or not text or len(text) > 40:
            raise ServerError("malformed", detail="'action' must be a notation string")
        if isinstance(version, bool) or not isinstance(version, int):
            raise ServerError("malformed", detail="'version' must be the integer you saw")
        async with game.lock:
            if game.status in OVER:
                raise ServerError("game_over", 409)
            if game.status == OPEN:
                raise ServerError("not_started", 409)
            if self.shared and version != game.version:
                await catchup.catch_up(self, game)  # the client may know more than memory
            if version != game.version and not game.only_time_up_since(version):
                raise ServerError("stale_version", 409, sent=version, version=game.version)
            if game.state.current_player() != seat:
                raise ServerError("not_your_turn", 409)
            token = parse_move(game.info, text)
            # The seat's own decision, or the referee's mark of the answering seat's answer:
            # the engine says whose, as the replay on restart has it.
            start = await self.advance(game, [(token, game.state.actor())], on_commit=on_commit)
        return start, game.version

    async def undo(
        self, game: Game, seat: int, version: object, on_commit: OnCommit | None = None
    ) -> int:
        """Take back ``seat``'s own last decision, seen at ``version`` (the rule of
        :mod:`alea.undo`: nothing but that decision has happened since). Returns the
        new version.

        Stored by truncation: the decision's row leaves the event log in the same
        transaction that moves the game's version back, so the log is always the game
        as it stands and a restart replays it without the decision. Refused, with
        nothing changed, in rated games, at a stale version and whenever the rule says
        no. Shielded from the caller's cancellation like a move; ``on_commit`` as for
        :meth:`act` (the index is where the log was cut).
        """
        return await asyncio.shield(self._undo(game, seat, version, on_commit))

    async def _undo(
        self, game: Game, seat: int, version: object, on_commit: OnCommit | None
    ) -> int:
        if isinstance(version, bool) or not isinstance(version, int):
            raise ServerError("malformed", detail="'version' must be the integer you saw")
        async with game.lock:
            if game.status in OVER:  # finished, or abandoned
                raise ServerError("game_over", 409)
            if game.status == OPEN:
                raise ServerError("not_started", 409)
            if game.rated:
                raise ServerError("undo_rated", 409)
            if self.shared and version != game.version:
                await catchup.catch_up(self, game)  # the client may know more than memory
            if version != game.version:
                raise ServerError("stale_version", 409, sent=version, version=game.version)
            index = game.undo_index(seat)
            new = taken_back(game.state, index)
            now = self.clock.now()
            try:
                await self.write(op_truncate_events(game.id, index, game.version, now=now))
            except VersionConflict:
                await self._reload(game)
                raise ServerError(
                    "stale_version", 409, sent=version, version=game.version
                ) from None
            game.state = new
            del game.actors[index:]
            del game.deciders[index:]
            game.rewound()
            game.updated_at = game.turn_since = now
            if on_commit is not None:
                on_commit(index, game.version)
            self.notify(game)
            log.info("game %s: seat %d took back event %d", game.id, seat, index)
            return game.version

    async def advance(
        self,
        game: Game,
        events: Sequence[tuple[Any, int | None]],
        *,
        keep_turn: bool = False,
        on_commit: OnCommit | None = None,
    ) -> int:
        """Apply ``events`` (each with its actor) and the chance that follows: the commit
        path (the game's lock held). Returns the log index of the first new event.

        ``keep_turn``: the events are not the player's doing (the clock's ``last-round``),
        so the player's idle time keeps running. An event the engine refuses is
        ``illegal_action`` and changes nothing. ``on_commit``: as for :meth:`act`.
        """
        new = game.state.clone()
        start = game.version
        actors: list[int | None] = []
        deciders: list[int | None] = []
        for event, actor in events:
            who = decider(game.info, new, event)
            try:
                new.apply(event)
            except IllegalActionError as err:
                raise ServerError("illegal_action", 422, detail=str(err)) from None
            actors.append(actor)
            deciders.append(who)
        drawn = draw_chance(new, game.rng)
        actors.extend(drawn)
        deciders.extend([None] * len(drawn))
        if actors:
            await self._commit(
                game, new, start, actors, deciders, keep_turn=keep_turn, on_commit=on_commit
            )
        return start

    async def _commit(
        self,
        game: Game,
        new: AnyState,
        start: int,
        actors: list[int | None],
        deciders: list[int | None],
        *,
        keep_turn: bool,
        on_commit: OnCommit | None = None,
    ) -> None:
        """Store the events from ``start`` on, then make ``new`` the game's state (lock held)."""
        events = new.history[start:]
        status: str | None = None
        result: dict[str, Any] | None = None
        if new.is_terminal():
            status = FINISHED
            result = new.result()
        now = self.clock.now()
        append = op_append_events(
            game.id, start, events, actors, status=status, result=result, now=now
        )
        write: Write = append
        if status == FINISHED and game.rated and result is not None:
            write = finish_rated(append, op_rate_game(game.id, game.game_name, result, now))
        try:
            await self.write(write)
        except VersionConflict:
            await self._reload(game)
            raise ServerError("stale_version", 409, sent=start, version=game.version) from None
        game.state = new
        game.actors.extend(actors)
        game.deciders.extend(deciders)
        game.updated_at = now
        if not keep_turn:
            game.turn_since = now
        if status is not None:
            game.status = status
            game.result = result
            self.remember_finished(game.id)
        if on_commit is not None:
            on_commit(start, game.version)
        self.notify(game, start=start)
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
        await self.write_seats(game, write(ACTIVE if begins else None, deadline))
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
        elif game.status in OVER:
            self.deadlines.forget(game.id)

    async def _time_up(self, game_id: str) -> bool:
        """Declare the last round of ``game_id`` now (the watcher's call at a deadline).

        True when done (or nothing is left to do); False to be tried again shortly.
        """
        game = self.games.get(game_id)
        if game is None:
            return True
        if self.may_drive is not None and not await self.may_drive(game_id):
            return True  # another process holds the game's lease and acts on it
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
