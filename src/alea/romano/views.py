"""What a seat (or a spectator) sees of a game of Dado Romano, JSON-ready.

Dado Romano hides nothing at the table: the only secret is the right answer
of the riddle or question being asked, and it is not in the state at all (it
lives in the bank). The view still is the one door every interface uses, as
for the main game, and it carries the words a table shows, because the engine
owns the figures, the bank and their texts: the figure's name and effect in
both languages, and the riddle or question being asked with its four choices
(never its answer or source).

It also carries the latest part of the story (``story``: the engine's
:class:`~alea.romano.events.Event` records, each figure with its name and effect),
so that a table narrates what happened without re-deriving a rule; once a
riddle or question has been answered, that answer's event names the right
choice, which is public from then on (the table reads it out, as a referee
would).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from alea.romano.bank import LANGUAGES, Item
from alea.romano.ceiling import is_above
from alea.romano.combinations import FIGURES
from alea.romano.events import Event
from alea.romano.texts import EFFECTS

if TYPE_CHECKING:
    from alea.romano.state import State

#: The ``game`` of Dado Romano's records, views and positions.
GAME = "dado-romano"
#: How many of the latest events a view narrates (a table keeps what it has seen).
STORY: Final = 40


def item_text(item: Item) -> dict[str, Any]:
    """A riddle or question as players may read it: id, kind, text and choices, both
    languages; never the right answer (nor the source, which could give it away)."""
    return {
        "id": item.id,
        "kind": item.kind,
        "text": dict(item.text),
        "choices": {lang: list(choices) for lang, choices in item.choices.items()},
    }


def told(state: State, index: int, event: Event) -> dict[str, Any]:
    """Event ``index`` as a table narrates it: its fields, the figure's name and effect
    for a ``figure`` event, and for an ``answer`` the right choice in both languages
    (public once answered; the answer given is the event's ``value``)."""
    out = event.to_json()
    out["index"] = index
    if event.kind == "figure":
        out["name"] = FIGURES[event.cause].name
        out["effect"] = {lang: EFFECTS[lang][event.cause] for lang in LANGUAGES}
    elif event.kind == "draw":
        out["kind_of_item"] = state.bank.get(event.item).kind
    elif event.kind == "answer":
        item = state.bank.get(event.item)
        out["kind_of_item"] = item.kind
        out["right_choice"] = item.answer + 1
        out["right_text"] = {lang: item.choices[lang][item.answer] for lang in LANGUAGES}
        out["given_text"] = {lang: item.choices[lang][event.value - 1] for lang in LANGUAGES}
    return out


def story(state: State, last: int = STORY) -> list[dict[str, Any]]:
    """The latest ``last`` events, oldest first, as :func:`told` narrates them."""
    first = max(0, len(state.events) - last)
    return [told(state, i, e) for i, e in enumerate(state.events[first:], start=first)]


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
        "phase": "throw" if state.awaiting_throw() else state.phase,
        "paced": state.paced,
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
        "events_total": len(state.events),
        "story": story(state),
    }
