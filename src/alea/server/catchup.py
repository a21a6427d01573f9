"""Catching a game in memory up with its stored log, by version.

With several processes on one database, a game's log may grow through any of
them. A process whose copy is behind (it heard of the change through the
fan-out, a write of its own met the version guard, or a client quoted a
version it has not seen) reads only what it is missing: the game's row, its
seats, and the events from its own version on. The events are applied to a
*copy* of the state through the engine (which re-checks every one of them, as
a replay at start does) and the copy is swapped in, so a connection never sees
half a catch-up. If the stored log does not continue the one in memory (it
never should), the game is rebuilt from the whole log instead.

Nothing here guesses: what a client is shown afterwards is exactly the stored
log, and its updates start from the version it had.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Engine, select

from alea.game import IllegalActionError
from alea.server import outage
from alea.server.clock import Clock
from alea.server.games import hosted
from alea.server.room import ACTIVE, FINISHED, Game, Seat
from alea.server.storage import Store, _clock, _game_record
from alea.server.tables import (
    ClockRecord,
    GameRecord,
    SeatRecord,
    StorageError,
    events_table,
    games_table,
    seats_table,
)
from alea.undo import decider

log = logging.getLogger("alea.server.cluster")


class Core(Protocol):
    """What a catch-up needs of :class:`alea.server.core.Core` (which imports this module)."""

    store: Store
    clock: Clock

    async def rebuild_from_store(self, game: Game) -> None: ...

    def remember_finished(self, game_id: str) -> None: ...

    def notify(self, game: Game, *, announce: bool = True, start: int | None = None) -> None: ...


@dataclass
class Stored:
    """A game's row and seats as stored now, and its events from some version on."""

    record: GameRecord
    #: ``(idx, event, actor)`` from the version asked for on, in order.
    events: list[tuple[int, str, int | None]]
    #: The ``game_clocks`` row (None: no time control).
    clock: ClockRecord | None = None


def load_since(engine: Engine, game_id: str, start: int) -> Stored | None:
    """The stored row and seats of ``game_id`` and its events from ``start`` on (blocking)."""
    with engine.connect() as conn:
        row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
        if row is None:
            return None
        record = _game_record(row._mapping)
        seats = conn.execute(
            select(seats_table).where(seats_table.c.game_id == game_id).order_by(seats_table.c.seat)
        ).all()
        record.seats = [
            SeatRecord(
                int(s.seat),
                str(s.kind),
                s.level,
                str(s.name),
                s.token_hash,
                bool(s.replaced),
                # The account link too: a rated claim made at another process must be
                # known here (an account sits once at a rated table).
                s.user_id,
            )
            for s in seats
        ]
        events = conn.execute(
            select(events_table.c.idx, events_table.c.event, events_table.c.actor)
            .where(
                events_table.c.game_id == game_id,
                events_table.c.idx >= start,
                # Only what the row read above counts: an append committed in between
                # is heard of next time, never half.
                events_table.c.idx < record.version,
            )
            .order_by(events_table.c.idx)
        ).all()
        return Stored(
            record,
            [(int(e[0]), str(e[1]), None if e[2] is None else int(e[2])) for e in events],
            _clock(conn, game_id),
        )


def load_record(engine: Engine, game_id: str) -> GameRecord | None:
    """One game with its seats and every event up to its stored version (blocking).

    Unlike a plain read of the row and then the events, an append another process
    commits between the two reads is left out rather than making the log look longer
    than the version (which a rebuild refuses).
    """
    stored = load_since(engine, game_id, 0)
    if stored is None:
        return None
    if [idx for idx, _, _ in stored.events] != list(range(len(stored.events))):
        raise StorageError(f"game {game_id}: the stored event log has gaps")
    stored.record.events = [event for _, event, _ in stored.events]
    # The time control too: without it a game loaded here from another process's table
    # would not be timed here at all.
    stored.record.clock = stored.clock
    return stored.record


def apply_stored(game: Game, stored: Stored, now: float) -> bool | None:
    """Bring ``game`` up to ``stored`` (the game's lock held). True if anything changed;
    None if the stored log does not continue the one in memory (rebuild it instead)."""
    record = stored.record
    if record.version < game.version or (stored.events and stored.events[0][0] != game.version):
        return None
    changed = False
    if stored.events:
        new = game.state.clone()
        info = hosted(game.game_name)
        actors: list[int | None] = []
        deciders: list[int | None] = []
        for idx, event, actor in stored.events:
            if idx != game.version + len(actors):
                return None
            who = decider(info, new, event)
            try:
                new.apply(event)
            except IllegalActionError:
                return None
            actors.append(actor)
            deciders.append(who)
        game.state = new
        game.actors.extend(actors)
        game.deciders.extend(deciders)
        game.turn_since = now
        changed = True
    if game.version != record.version:
        return None
    for s in record.seats:
        if s.seat >= len(game.seats):
            return None
        mine = game.seats[s.seat]
        if (mine.kind, mine.level, mine.name, mine.token_hash, mine.replaced, mine.user_id) != (
            s.kind,
            s.level,
            s.name,
            s.token_hash,
            s.replaced,
            s.user_id,
        ):
            game.seats[s.seat] = Seat(
                s.seat,
                s.kind,
                s.level,
                s.name,
                s.token_hash,
                s.replaced,
                mine.connections,
                s.user_id,
            )
            if s.kind == "human" and mine.kind != "human":
                game.turn_since = now  # a reclaimed seat's idle clock starts afresh
            changed = True
    fields = (
        record.status,
        record.result,
        record.deadline,
        record.referee_name or "",
        record.referee_token,
        record.exchange,
    )
    mine_fields = (
        game.status,
        game.result,
        game.deadline,
        game.referee_name,
        game.referee_token,
        game.exchange,
    )
    if fields != mine_fields:
        if game.status != record.status and record.status != FINISHED:
            game.turn_since = now  # play began elsewhere: the first decision's clock starts
        (
            game.status,
            game.result,
            game.deadline,
            game.referee_name,
            game.referee_token,
            game.exchange,
        ) = fields
        changed = True
    game.updated_at = record.updated_at
    if record.human_seen is not None:  # a human was seen at another process: not abandoned
        game.human_seen = max(game.human_seen, record.human_seen)
        game.seen_stored = max(game.seen_stored, record.human_seen)
    return changed


def apply_heard(
    game: Game, start: int, events: list[str], actors: list[int | None], now: float
) -> bool:
    """Append the events another process announced it stored at ``start`` (lock held).

    The announcement saves the read of the log: the engine checks the events as a
    catch-up would. False if they do not continue memory (then read the log instead).
    """
    if start != game.version or not events or len(actors) != len(events):
        return False
    new = game.state.clone()
    info = hosted(game.game_name)
    deciders: list[int | None] = []
    try:
        for event in events:
            deciders.append(decider(info, new, event))
            new.apply(event)
    except (IllegalActionError, ValueError, KeyError):
        return False
    game.state = new
    game.actors.extend(actors)
    game.deciders.extend(deciders)
    game.turn_since = now
    game.updated_at = now
    if new.is_terminal():
        game.status = FINISHED
        game.result = new.result()
    return True


async def catch_up(core: Core, game: Game, heard_clock: object = None) -> bool:
    """Bring ``game`` up to what is stored (its lock held); True if it changed.

    Connections, the deadline watcher and the bot loop hear of a change as of
    any other (without announcing it to the other processes again). A timed
    table's clock is taken as the process that passed the turn set it: from
    ``heard_clock`` (its announcement) if that is of the version now in memory,
    else from the stored clock row if that is of the turn now being played.
    """
    game.reads += 1
    kept = len(game.heard)  # announcements kept unapplied so far: this read holds them
    stored = await outage.read(load_since, core.store.engine, game.id, game.version)
    del game.heard[:kept]  # (kept if the read failed: they still show the game as it is)
    if stored is None:
        return False
    was_finished = game.status == FINISHED
    changed = apply_stored(game, stored, core.clock.now())
    if changed is None:
        log.warning("game %s: the stored log does not continue memory; rebuilding", game.id)
        await core.rebuild_from_store(game)
        changed = True
    if take_clock(game, heard_clock) or take_stored_clock(game, stored.clock):
        changed = True
    if changed:
        if game.status == FINISHED and not was_finished:
            core.remember_finished(game.id)
        core.notify(game, announce=False)
    return changed


# ------------------------------------------------------------------ clocks
#
# A timed table's clock (:mod:`alea.server.turns`) is set by the process that commits
# the change passing the turn, with its own "now". The other processes take that
# clock rather than start the turn again on their own clocks a few milliseconds
# later, so that every process shows the same deadline and banks, and the one
# holding the game's lease times the turn out at the moment the mover's set.


def clock_state(game: Game) -> dict[str, Any] | None:
    """The turn clock of a timed table, for the announcement of a change (None: none)."""
    if game.control is None:
        return None
    banks = list(game.banks)  # a copy: the message is encoded later
    return {"v": game.version, "t": game.clock_seat, "at": game.clock_started, "b": banks}


def take_clock(game: Game, found: object) -> bool:
    """Take a clock announced for the version now in memory (lock held); True if it
    changed memory. Anything else (another version, a malformed one) is ignored."""
    if game.control is None or not isinstance(found, dict) or found.get("v") != game.version:
        return False
    seat, started, banks = found.get("t"), found.get("at"), found.get("b")
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < game.players):
        return False
    if not isinstance(started, int | float) or not isinstance(banks, list):
        return False
    if len(banks) != len(game.banks) or not all(isinstance(b, int | float) for b in banks):
        return False
    taken = (seat, float(started), [float(b) for b in banks])
    if taken == (game.clock_seat, game.clock_started, game.banks):
        return False
    game.clock_seat, game.clock_started, game.banks = taken
    return True


def take_stored_clock(game: Game, clock: ClockRecord | None) -> bool:
    """Take the stored clock row if it times the turn now being played (lock held).

    The row is written just after the move that passed the turn, so a catch-up may
    read the one before it: a row of another seat than the one to move, or older
    than the turn memory already times, is left alone.
    """
    if game.control is None or clock is None or game.status != ACTIVE:
        return False
    seat, started = clock.turn_seat, clock.turn_started
    if seat is None or started is None or seat != game.to_move():
        return False
    if len(clock.banks) != len(game.banks):
        return False
    if seat == game.clock_seat and started <= game.clock_started:
        return False
    game.clock_seat, game.clock_started, game.banks = seat, started, list(clock.banks)
    return True
