"""Time controls of a table: what a creator may choose, checked, and the arithmetic of it.

A table is played either without a per-move clock (the default), in **real
time** (seconds per move plus a bank of extra seconds each seat may draw on,
like a chess clock's increment-free byoyomi), or **turn-based** (hours or days
per move; players come back when it is their turn, told by the dashboard, the
page and e-mail). What happens when a seat's time runs out is the table's
``on_timeout``: ``bot_move`` (a bot plays that turn for the seat, which stays
its owner's) or ``bot_seat`` (the seat passes to a bot until its owner
reclaims it).

"A move" here is a *turn*: the stretch of consecutive decisions one seat makes
while it is to move (an Iacta turn is a roll and several choices). The clock
of a seat starts when the turn passes to it and stops when it passes on.

This module is pure: it checks what a client asked for (``bad_time_control``
with the allowed ranges, in English and Italian through
:mod:`alea.server.i18n`) and computes deadlines and banks; the service that
watches the clocks is :mod:`alea.server.turns`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from alea.server.errors import ServerError

REALTIME: Final = "realtime"
TURN: Final = "turn"
MODES: Final = (REALTIME, TURN)

BOT_MOVE: Final = "bot_move"
BOT_SEAT: Final = "bot_seat"
TIMEOUT_POLICIES: Final = (BOT_MOVE, BOT_SEAT)

#: Seconds per move of a real-time table: ten seconds to an hour.
REALTIME_MIN: Final = 10
REALTIME_MAX: Final = 3600
#: The bank of a real-time table, in seconds per seat (0: none): up to two hours.
BANK_MAX: Final = 7200
#: Seconds per move of a turn-based table: one hour to fourteen days.
TURN_MIN: Final = 3600
TURN_MAX: Final = 14 * 86400


@dataclass(frozen=True)
class TimeControl:
    """A table's time control: its mode, seconds per move, the bank, the timeout policy."""

    mode: str
    per_move: int
    bank: int = 0
    on_timeout: str = BOT_MOVE

    @property
    def turn_based(self) -> bool:
        return self.mode == TURN

    def to_json(self) -> dict[str, object]:
        return {
            "mode": self.mode,
            "per_move": self.per_move,
            "bank": self.bank,
            "on_timeout": self.on_timeout,
        }


def _refuse(detail: str) -> ServerError:
    return ServerError(
        "bad_time_control",
        422,
        detail=detail,
        rt_low=REALTIME_MIN,
        rt_high=REALTIME_MAX,
        bank_high=BANK_MAX,
        turn_low=TURN_MIN // 3600,
        turn_high=TURN_MAX // 86400,
    )


def _whole(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _refuse(f"{name} must be a whole number of seconds, not {value!r}")
    return value


def parse_time_control(asked: Mapping[str, object] | None) -> TimeControl | None:
    """The time control ``asked`` stands for (None: none), or ``bad_time_control``.

    Every field is checked here rather than by the request schema, so that the
    refusal names the allowed ranges in the client's language.
    """
    if asked is None:
        return None
    unknown = set(asked) - {"mode", "per_move", "bank", "on_timeout"}
    if unknown:
        raise _refuse(f"unknown fields {sorted(unknown)}")
    mode = asked.get("mode")
    if mode not in MODES:
        raise _refuse(f"mode must be 'realtime' or 'turn', not {mode!r}")
    per_move = _whole(asked.get("per_move"), "per_move")
    bank = _whole(asked.get("bank", 0), "bank")
    policy = asked.get("on_timeout", BOT_MOVE)
    if policy not in TIMEOUT_POLICIES:
        raise _refuse(f"on_timeout must be 'bot_move' or 'bot_seat', not {policy!r}")
    if mode == REALTIME:
        if not REALTIME_MIN <= per_move <= REALTIME_MAX:
            raise _refuse(f"per_move {per_move} is not {REALTIME_MIN} to {REALTIME_MAX} seconds")
        if not 0 <= bank <= BANK_MAX:
            raise _refuse(f"bank {bank} is not 0 to {BANK_MAX} seconds")
    else:
        if not TURN_MIN <= per_move <= TURN_MAX:
            raise _refuse(f"per_move {per_move} is not {TURN_MIN} to {TURN_MAX} seconds")
        if bank != 0:
            raise _refuse("a turn-based table has no bank")
    return TimeControl(str(mode), per_move, bank, str(policy))


def deadline(control: TimeControl, started: float, bank_left: float) -> float:
    """When a turn that began at ``started`` runs out, the seat's bank ``bank_left`` included."""
    extra = max(0.0, bank_left) if control.mode == REALTIME else 0.0
    return started + control.per_move + extra


def bank_after(control: TimeControl, used: float, bank_left: float) -> float:
    """The bank a seat keeps after a turn of ``used`` seconds: what ran past ``per_move``
    comes out of it (never below zero)."""
    if control.mode != REALTIME:
        return 0.0
    return max(0.0, bank_left - max(0.0, used - control.per_move))


def abandon_after(control: TimeControl | None, players: int, base: float) -> float:
    """Seconds without any human at a table before it is closed as abandoned.

    ``base`` (``Settings.abandon_after``) for most tables. A turn-based table
    waits at least two full rounds of maximal turns, since there players are
    expected to stay away for a whole turn and bots move for the late ones.
    """
    if control is None or control.mode != TURN:
        return base
    return max(base, 2.0 * players * control.per_move)
