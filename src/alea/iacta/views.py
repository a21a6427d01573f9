"""What each seat may see (RULES.md §6), and the history redacted for a seat.

This is the only door through which state leaves the engine for a player, a
bot, a spectator or a browser: anything not listed as public in §6 is shown
only to the seat that may know it. Deck *orders* do not exist in the state
(see :mod:`alea.iacta.state`), so there is nothing to leak there; deck sizes
are public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from alea.iacta.cards import PLAYER_COLOURS
from alea.iacta.castrum import ranking
from alea.iacta.forum import columns
from alea.iacta.notation import FORTUNA, SENATE_DRAW

if TYPE_CHECKING:
    from alea.iacta.state import State

HIDDEN = "?"


def _to_move(state: State) -> int | str:
    from alea.iacta.state import CHANCE, TERMINAL

    player = state.current_player()
    if player == CHANCE:
        return "chance"
    if player == TERMINAL:
        return "terminal"
    return player


def sees_senate_hand(state: State, seat: int | None) -> bool:
    """Whether ``seat`` has held the Senate cards currently being passed."""
    from alea.iacta.state import CHOOSE_SENATE_CARD, DRAW_SENATE

    if seat is None or not state.senate_takers:
        return False
    if state.phase == DRAW_SENATE:
        return seat == state.senate_takers[0]
    if state.phase == CHOOSE_SENATE_CARD:
        return seat in state.senate_takers[: state.senate_turn + 1]
    return False


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of ``state`` for ``seat`` (``None``: a spectator)."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"seat {seat} does not exist in a {state.players}-player game")
    over = state.is_terminal()
    n = state.players
    players: list[dict[str, Any]] = []
    for s in range(n):
        own = seat == s
        players.append(
            {
                "seat": s,
                "colour": PLAYER_COLOURS[s],
                "dice": state.dice_left[s],
                "tokens": state.tokens[s],
                "provinces": list(state.provinces[s]),
                "patricians": list(state.patricians[s]),
                "fortuna": list(state.fortuna_kept[s]),
                "fortuna_drawn": len(state.fortuna_drawn[s]),
                "fortuna_drawn_values": list(state.fortuna_drawn[s]) if own else None,
                "senate_count": len(state.senate_cards[s]),
                "senate": list(state.senate_cards[s]) if own or over else None,
            }
        )
    buildings: dict[str, Any] = {
        "senate": [list(range(st[0], st[1] + 1)) if st is not None else [] for st in state.senate],
        "castrum": [
            {"seat": owner, "value": value, "count": count}
            for owner, value, count in ranking(state.castrum)
        ],
        "forum": [{"value": value, "seat": owner} for value, owner in state.forum],
        "forum_columns": columns(n),
        "latrine": list(state.latrine),
    }
    if n >= 4:
        buildings["temple"] = [list(group) for group in state.temple]
    hand_visible = sees_senate_hand(state, seat)
    result: dict[str, Any] = {
        "game": "alea-iacta-est",
        "players": n,
        "seat": seat,
        "round": min(state.round + 1, state.rounds),
        "rounds": state.rounds,
        "start_player": state.start,
        "phase": state.phase_name,
        "to_move": _to_move(state),
        "turn": {
            "seat": state.player if not over else None,
            "roll": list(state.roll),
            "kept": list(state.kept_dice),
            "rerolling": state.reroll_count if state.phase_name == "reroll" else 0,
            "fortuna_pending": state.fortuna_pending,
            "ending": state.ending,
        },
        "buildings": buildings,
        "revealed": {
            "provinces": list(state.revealed_provinces),
            "patricians": list(state.revealed_patricians),
        },
        "removed": {
            "provinces": list(state.removed_provinces),
            "patricians": list(state.removed_patricians),
        },
        "decks": {
            "provinces": len(state.province_pool),
            "patricians": len(state.patrician_pool),
            "senate": len(state.senate_pool) + len(state.senate_bottom),
            "fortuna": sum(state.fortuna_stack),
            "fortuna_discards": {str(v): state.fortuna_discards[v] for v in (1, 2, 3)},
        },
        "senate_bottom": [card if placer == seat else None for card, placer in state.senate_bottom],
        "senate_hand": list(state.senate_hand) if hand_visible else None,
        "senate_hand_size": len(state.senate_hand),
        "senate_takers": list(state.senate_takers),
        "senate_turn": state.senate_turn,
        "castrum_queue": [
            {"seat": owner, "value": value, "count": count}
            for owner, value, count in state.castrum_queue
        ],
        "players_info": players,
        "result": None,
    }
    if over:
        arrangements = state.arrangements()
        result["result"] = {
            "scores": [a.score for a in arrangements],
            "tiebreaks": [a.tiebreak for a in arrangements],
            "winners": state.winners(),
            "arrangements": [a.to_json() for a in arrangements],
        }
    return result


def log(state: State, seat: int | None) -> list[str]:
    """The event history with every event private to another seat shown as ``kind:?``."""
    private = state.private
    history = state.history
    if not private:
        return list(history)
    shown = list(history)
    for index, owner in private.items():
        if owner != seat:
            kind = shown[index].partition(":")[0]
            shown[index] = f"{kind}:{HIDDEN}"
    return shown


def redacted_kinds() -> tuple[str, ...]:
    """The event kinds that can be private: Fortuna draws, Senate draws and choices."""
    return (FORTUNA, SENATE_DRAW, "K")
