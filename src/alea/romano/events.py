"""What happened in a game of Dado Romano, event by event, for narration and statistics.

The moves of a game (its record) are the truth; :class:`Event` records are
derived from them while they are applied, so that the terminal game can tell
the story and the statistics can count causes without re-deriving the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for narration (the terminal game) and statistics.

    Events are derived from the moves; they are kept in the state (and in its
    JSON) so that an interface never has to re-derive what a move did.

    ``kind`` and the fields it uses:

    - ``round``: value = the round that starts;
    - ``last-round``: value = the round declared the last;
    - ``turn``: seat; value = turns played (this one included); text =
      ``normal``, ``declaration`` or ``return``;
    - ``skip``: seat (a Caracalla skip consumed);
    - ``declare``: seat; text = the two declared numbers (``"53"``);
    - ``roll``: seat who rolled; value; text = the roll's purpose;
    - ``figure``: seat; cause = the pair (``"1-4"``);
    - ``marcus-applied``: seat = the player who rolled Marcus Aurelius; other =
      the player whose rolls count; value = their sum;
    - ``declaration``: seat; value = 0, 1 or 2 positions right; text = declared;
    - ``score``: seat; old; new; delta = the nominal change (0 for *set to*);
      inverted; cause = pair, ``declaration`` or ``1-4`` for a Messalina swap;
      text = ``change``, ``set`` or ``swap``;
    - ``eliminated``, ``skip-next``, ``marcus``: seat;
    - ``return``: seat; value = declared number; text = ``back`` or ``out``;
    - ``draw``: seat; item = the riddle's or question's id; cause = pair;
    - ``answer``: seat; value = choice; text = ``right`` or ``wrong``; item;
    - ``mark``: seat; text = ``right`` or ``wrong``;
    - ``challenge``: seat = challenger, other = challenged; ``decline``: seat;
    - ``challenge-result``: seat, other; text = ``won``, ``tie`` or ``lost``
      (from the challenger's side);
    - ``end``: text = ``150`` or ``time``; ``win``: seat.
    """

    kind: str
    seat: int = -1
    other: int = -1
    value: int = 0
    old: int = 0
    new: int = 0
    delta: int = 0
    inverted: bool = False
    cause: str = ""
    text: str = ""
    item: str = ""

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object (every field, so it round-trips)."""
        return {name: getattr(self, name) for name in _EVENT_FIELDS}


_EVENT_FIELDS: Final = tuple(f.name for f in fields(Event))
