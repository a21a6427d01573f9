"""What a seat (or a spectator) sees of a game of Dado Romano, JSON-ready.

Dado Romano hides nothing at the table: the only secret is the right answer
of the riddle or question being asked, and it is not in the state at all (it
lives in the bank). The view still is the one door every interface uses, as
for the main game, and it carries the words a table shows, because the engine
owns the figures, the bank and their texts: the figure's name and effect in
both languages, and the riddle or question being asked with its four choices
(never its answer or source).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from alea.romano.bank import LANGUAGES, Item
from alea.romano.ceiling import is_above
from alea.romano.combinations import FIGURES
from alea.romano.texts import EFFECTS

if TYPE_CHECKING:
    from alea.romano.state import State

#: The ``game`` of Dado Romano's records, views and positions.
GAME = "dado-romano"


def item_text(item: Item) -> dict[str, Any]:
    """A riddle or question as players may read it: id, kind, text and choices, both
    languages; never the right answer (nor the source, which could give it away)."""
    return {
        "id": item.id,
        "kind": item.kind,
        "text": dict(item.text),
        "choices": {lang: list(choices) for lang, choices in item.choices.items()},
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` sees it (``None``: a spectator; the same table, no seat).

    ``item`` (the id of the riddle or question being asked) and its
    ``item_text`` are shown while it is being answered; ``figure_name`` and
    ``figure_effect`` name the figure being resolved this turn.
    """
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"there is no seat {seat}")
    fig = state.figure
    asking = state.phase in ("answer", "mark")
    item = state.item if asking else ""
    return {
        "game": GAME,
        "seat": seat,
        "players": state.players,
        "referee": state.referee,
        "round": state.round,
        "last_round": state.last_round,
        "is_last_round": state.is_last_round(),
        "turn_of": state.seat,
        "current_player": state.current_player(),
        "phase": state.phase,
        "expected": state.expected(),
        "scores": list(state.scores),
        "above_150": [is_above(s) for s in state.scores],
        "inverted_this_turn": list(state.inverted),
        "turns_played": list(state.played),
        "eliminated": list(state.eliminated),
        "skip_next": list(state.skip_next),
        "pending_marcus": list(state.pending_marcus),
        "figure": fig,
        "figure_name": FIGURES[fig].name if fig else "",
        "figure_effect": {lang: EFFECTS[lang][fig] for lang in LANGUAGES} if fig else None,
        "rolls": list(state.rolls),
        "declared": list(state.declared) if state.declared else None,
        "item": item,
        "item_kind": state.item_kind if asking or state.phase == "draw" else "",
        "item_text": item_text(state.bank.get(item)) if item else None,
        "legal_actions": [str(a) for a in state.legal_actions()],
        "winners": state.winners(),
        "end_reason": state.end_reason,
        "result": state.result(),
    }
