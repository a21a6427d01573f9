"""Projected scores during a game: what each seat would score if the game ended now.

Asked from a seat's **view** only (:func:`projection` takes the JSON of
``State.view(seat)``, never the state), so it cannot tell anyone more than the
view does:

* ``own``: the seat's best arrangement of everything it holds now, its own
  Senate cards included (RULES.md §5, the same optimiser as ``alea score`` and
  the end of the game);
* ``public``: every seat's estimate from public information alone, the same
  for everyone who asks, the asking seat included: provinces, patricians,
  Fortuna tiles and re-roll tokens are on the table, Senate cards are face
  down (counted, not scored: ``hidden_senate``).

A spectator's view gives ``own`` None and the same ``public`` estimates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from alea.iacta.holdings import Holdings
from alea.iacta.scoring import best_arrangement, best_score

__all__ = ["projection"]


def _holdings(player: Mapping[str, Any], senate: Sequence[str]) -> Holdings:
    return Holdings(
        provinces=tuple(str(c) for c in player["provinces"]),
        patricians=tuple(str(c) for c in player["patricians"]),
        senate=tuple(str(c) for c in senate),
        fortuna=tuple(int(v) for v in player["fortuna"]),
        tokens=int(player["tokens"]),
    )


def projection(view: Mapping[str, Any]) -> dict[str, Any]:
    """The projected scores of ``view``'s seat (``own``) and of every seat (``public``)."""
    players: list[Mapping[str, Any]] = list(view["players_info"])
    seat = view.get("seat")
    own: dict[str, Any] | None = None
    if isinstance(seat, int) and 0 <= seat < len(players):
        mine = players[seat]
        arrangement = best_arrangement(_holdings(mine, mine.get("senate") or ()))
        own = {"seat": seat, **arrangement.to_json()}
    public: list[dict[str, Any]] = []
    for index, player in enumerate(players):
        found = best_score(_holdings(player, ()))
        public.append(
            {
                "seat": index,
                "score": found.score,
                "tiebreak": found.tiebreak,
                "hidden_senate": int(player["senate_count"]),
            }
        )
    return {"seat": seat if isinstance(seat, int) else None, "own": own, "public": public}
