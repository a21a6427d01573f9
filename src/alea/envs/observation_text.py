"""The observation as text: what one seat sees, written for people.

OpenSpiel calls it ``observation_string``. It is built from
:meth:`alea.iacta.State.view`, the engine's single door for hidden information,
so the text cannot show more than the rules allow (RULES.md §6); it is kept
apart from the tensor builder of :mod:`alea.envs.observation`, which is written
for speed and shares nothing with this rendering.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from alea.iacta.cards import PLAYER_COLOURS
from alea.iacta.forum import columns
from alea.iacta.senate import describe

if TYPE_CHECKING:
    from alea.iacta.state import State

__all__ = ["observation_string"]


def _dice(values: list[int] | tuple[int, ...]) -> str:
    return "".join(str(v) for v in values) if values else "-"


def _card_list(cards: list[str]) -> str:
    return " ".join(cards) if cards else "-"


def observation_string(state: State, seat: int | None) -> str:
    """A human-readable rendering of what ``seat`` sees (``None``: a spectator).

    Built from :meth:`State.view`, the engine's single door for hidden
    information, so the text cannot show more than the rules allow.
    """
    v = state.view(seat)
    n = v["players"]
    who = "spectator" if seat is None else f"seat {seat} ({PLAYER_COLOURS[seat]})"
    to_move = v["to_move"]
    lines = [
        f"Alea Iacta Est, {n} players, round {v['round']}/{v['rounds']}, phase {v['phase']}, "
        f"start player {v['start_player']}, to move: {to_move}; you are {who}",
    ]
    turn = v["turn"]
    if turn["roll"] or turn["kept"]:
        extra = f" (keeping {_dice(turn['kept'])})" if turn["kept"] else ""
        lines.append(f"Roll: {_dice(turn['roll'])}{extra}")
    b = v["buildings"]
    if "temple" in b:
        groups = [f"{_dice(g)}({s})" for s, g in enumerate(b["temple"]) if g]
        lines.append(f"Temple: {' '.join(groups) or '-'}")
    straights = [f"{describe((g[0], g[-1]))}({s})" for s, g in enumerate(b["senate"]) if g]
    lines.append(f"Senate: {' '.join(straights) or '-'}")
    sets = [f"{str(c['value']) * c['count']}({c['seat']})" for c in b["castrum"]]
    lines.append(f"Castrum: {' '.join(sets) or '-'}")
    forum = [f"{f['value']}({f['seat']})" for f in b["forum"]]
    forum += ["_"] * (columns(n) - len(forum))
    lines.append(f"Forum: {' '.join(forum)}")
    lines.append(f"Latrine: {' '.join(str(c) for c in b['latrine'])}")
    lines.append(f"Provinces on offer: {_card_list(v['revealed']['provinces'])}")
    lines.append(f"Patricians on offer: {_card_list(v['revealed']['patricians'])}")
    decks = v["decks"]
    disc = decks["fortuna_discards"]
    lines.append(
        f"Decks: provinces {decks['provinces']}, patricians {decks['patricians']}, "
        f"Senate {decks['senate']}, Fortuna {decks['fortuna']} "
        f"(discards 1:{disc['1']} 2:{disc['2']} 3:{disc['3']})"
    )
    if v["senate_hand"] is not None:
        lines.append(f"Senate hand: {_card_list(v['senate_hand'])}")
    bottom = [c for c in v["senate_bottom"] if c is not None]
    if bottom:
        lines.append(f"You put under the Senate deck: {_card_list(bottom)}")
    for p in v["players_info"]:
        s = p["seat"]
        mark = " (you)" if s == seat else ""
        senate = (
            _card_list(p["senate"]) if p["senate"] is not None else f"{p['senate_count']} hidden"
        )
        drawn = f", drawn {p['fortuna_drawn']}"
        if p["fortuna_drawn_values"] is not None and p["fortuna_drawn"]:
            drawn += f" ({_dice(sorted(p['fortuna_drawn_values']))})"
        lines.append(
            f"Seat {s}{mark} {p['colour']}: dice {p['dice']}, tokens {p['tokens']}, "
            f"provinces {_card_list(p['provinces'])}, patricians {_card_list(p['patricians'])}, "
            f"Fortuna {_dice(sorted(p['fortuna']))}{drawn}, Senate {senate}"
        )
    if v["result"] is not None:
        r = v["result"]
        lines.append(f"Final scores: {r['scores']}, winners: {r['winners']}")
    return "\n".join(lines)
