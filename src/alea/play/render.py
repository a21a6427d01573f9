"""Rich rendering of a seat's view: buildings, dice, displays, holdings, final scores.

Everything drawn here comes from ``state.view(seat)`` (or the spectator view),
never from the state itself, so the screen cannot show what the seat may not
see. Colours are the dice colours of RULES.md and the six card colours.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from alea.iacta.cards import PATRICIANS, PROVINCES, SENATE_CARDS
from alea.iacta.notation import BUILDING_NAMES, Action

#: Rich styles for the dice colours of the seats and the card colours.
SEAT_STYLE = {
    "gray": "grey70",
    "brown": "orange4",
    "blue": "bright_blue",
    "green": "green",
    "yellow": "yellow",
}
CARD_STYLE = {
    "red": "red",
    "orange": "dark_orange",
    "yellow": "yellow",
    "green": "green",
    "blue": "bright_blue",
    "purple": "magenta",
    "grey": "grey62",
}
DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def seat_label(view: dict[str, Any], seat: int, names: Sequence[str]) -> Text:
    """A seat's name in its dice colour."""
    colour = view["players_info"][seat]["colour"]
    return Text(f"{names[seat]} ({colour})", style=SEAT_STYLE.get(colour, ""))


def dice_text(values: Sequence[int], style: str = "bold") -> Text:
    """Dice as faces and digits, e.g. ``⚀1 ⚃4``."""
    text = Text()
    for i, v in enumerate(values):
        if i:
            text.append(" ")
        text.append(f"{DIE_FACES[v - 1]}{v}", style=style)
    return text


def card_text(card: str) -> Text:
    """A province, patrician or Senate card in its colour."""
    if card in PROVINCES:
        return Text(card, style=CARD_STYLE[PROVINCES[card].colour])
    if card in PATRICIANS:
        return Text(card, style=CARD_STYLE[PATRICIANS[card].colour])
    if card in SENATE_CARDS:
        return Text(card, style="bold cyan")
    return Text(card)


def cards_text(cards: Sequence[str]) -> Text:
    return Text(", ").join(card_text(c) for c in cards) if cards else Text("–", style="dim")


def buildings_panel(view: dict[str, Any], names: Sequence[str]) -> Panel:
    """The five buildings as they stand."""
    b = view["buildings"]
    n = view["players"]
    table = Table(box=box.SIMPLE, show_header=True, pad_edge=False, expand=False)
    table.add_column("building", style="bold")
    table.add_column("dice placed")
    if "temple" in b:
        parts = [
            Text.assemble(seat_label(view, s, names), ": ", dice_text(g))
            for s, g in enumerate(b["temple"])
            if g
        ]
        table.add_row("Temple", Text("  ").join(parts) if parts else Text("empty", style="dim"))
    parts = [
        Text.assemble(seat_label(view, s, names), ": ", "-".join(map(str, st)))
        for s, st in enumerate(b["senate"])
        if st
    ]
    table.add_row("Senate", Text("  ").join(parts) if parts else Text("empty", style="dim"))
    parts = [
        Text.assemble(seat_label(view, c["seat"], names), f": {c['count']}×{c['value']}")
        for c in b["castrum"]
    ]
    table.add_row("Castrum", Text("  ").join(parts) if parts else Text("empty", style="dim"))
    row = Text()
    for col in range(b["forum_columns"]):
        if col:
            row.append(" │ ")
        if col < len(b["forum"]):
            die = b["forum"][col]
            colour = view["players_info"][die["seat"]]["colour"]
            row.append(f"{die['value']}", style=f"bold {SEAT_STYLE.get(colour, '')}")
        else:
            row.append("·", style="dim")
    table.add_row("Forum", row)
    latrine = [
        Text.assemble(seat_label(view, s, names), f": {k}")
        for s, k in enumerate(b["latrine"][:n])
        if k
    ]
    table.add_row("Latrine", Text("  ").join(latrine) if latrine else Text("empty", style="dim"))
    return Panel(table, title="Buildings", title_align="left")


def displays_panel(view: dict[str, Any]) -> Panel:
    """The provinces beside the Castrum and the patricians below the Forum."""
    revealed = view["revealed"]
    decks = view["decks"]
    body = Group(
        Text.assemble("Provinces:  ", cards_text(revealed["provinces"])),
        Text.assemble("Patricians: ", cards_text(revealed["patricians"])),
        Text(
            f"Decks: {decks['provinces']} provinces, {decks['patricians']} patricians, "
            f"{decks['senate']} Senate cards"
            + (f", {decks['fortuna']} Fortuna tiles" if view["players"] >= 4 else ""),
            style="dim",
        ),
    )
    return Panel(body, title="On display", title_align="left")


def players_table(view: dict[str, Any], names: Sequence[str]) -> Table:
    """Each player's dice, tokens and holdings (hidden ones as counts)."""
    me = view["seat"]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="Players", title_justify="left")
    table.add_column("player")
    table.add_column("dice", justify="right")
    table.add_column("tokens", justify="right")
    table.add_column("provinces")
    table.add_column("patricians")
    table.add_column("Fortuna")
    table.add_column("Senate")
    for p in view["players_info"]:
        s = p["seat"]
        label = seat_label(view, s, names)
        if s == view["start_player"]:
            label.append(" ★", style="bold")
        if s == me:
            label.append(" (you)", style="bold")
        fortuna = Text(" ".join(map(str, p["fortuna"])) or "–")
        if p["fortuna_drawn"]:
            drawn = p["fortuna_drawn_values"]
            shown = " ".join(map(str, drawn)) if drawn is not None else "?" * p["fortuna_drawn"]
            fortuna.append(f" +[{shown}]", style="italic")
        senate_cards = p["senate"]
        senate = (
            cards_text(senate_cards)
            if senate_cards is not None
            else Text(f"{p['senate_count']} hidden", style="dim")
        )
        table.add_row(
            label,
            str(p["dice"]),
            str(p["tokens"]),
            cards_text(p["provinces"]),
            cards_text(p["patricians"]),
            fortuna,
            senate,
        )
    return table


def header(view: dict[str, Any], names: Sequence[str]) -> Text:
    """Round, start player and whose turn it is."""
    text = Text(f"Round {view['round']}/{view['rounds']}", style="bold")
    text.append("  start player: ")
    text.append_text(seat_label(view, view["start_player"], names))
    if isinstance(view["to_move"], int):
        text.append("  to move: ")
        text.append_text(seat_label(view, view["to_move"], names))
        text.append(f"  ({view['phase']})", style="dim")
    return text


def board(view: dict[str, Any], names: Sequence[str]) -> RenderableType:
    """The whole table as ``view``'s seat sees it."""
    parts: list[RenderableType] = [
        header(view, names),
        Columns([buildings_panel(view, names), displays_panel(view)]),
        players_table(view, names),
    ]
    turn = view["turn"]
    if view["seat"] is not None and view["to_move"] == view["seat"]:
        if turn["roll"]:
            parts.append(Text.assemble("Your roll: ", dice_text(turn["roll"], "bold white")))
        if view["senate_hand"]:
            parts.append(
                Text.assemble("Senate cards to choose from: ", cards_text(view["senate_hand"]))
            )
    return Group(*parts)


def describe(action: Action) -> str:
    """An action in words, e.g. ``Castrum: three 4s``."""
    kind = action.kind
    dice = action.dice
    if kind == "R":
        return f"re-roll {'-'.join(map(str, dice))} (costs a token)"
    if kind in BUILDING_NAMES:
        word = BUILDING_NAMES[kind]
        if kind == "C":
            return f"{word}: {len(dice)} × {dice[0]}"
        return f"{word}: {'-'.join(map(str, dice))}"
    what = {"K": "keep Senate card", "P": "take province", "N": "take patrician"}[kind]
    return f"{what} {action.card}"


def choices(actions: Sequence[Action], tokens: int) -> RenderableType:
    """The numbered choices (placements and cards); re-rolls summarised."""
    numbered = [a for a in actions if a.kind != "R"]
    rerolls = [a for a in actions if a.kind == "R"]
    cells = [
        Text.assemble((f"{i:>3}. ", "bold"), (str(a), "cyan"), f"  {describe(a)}")
        for i, a in enumerate(numbered, start=1)
    ]
    parts: list[RenderableType] = [Columns(cells, equal=True, column_first=True)]
    if rerolls:
        every = max(rerolls, key=lambda a: len(a.dice))
        parts.append(
            Text(
                f"  Re-roll: type R: and the dice to re-roll, e.g. {every} for all "
                f"({tokens} token{'s' if tokens != 1 else ''} left).",
                style="dim",
            )
        )
    return Group(*parts)


def score_table(view: dict[str, Any], names: Sequence[str]) -> RenderableType:
    """Final scores with each player's optimal arrangement (RULES.md §5)."""
    result = view["result"]
    winners = set(result["winners"])
    table = Table(title="Final scores", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("tie-break", justify="right")
    table.add_column("optimal arrangement")
    table.add_column("Senate / Fortuna / tokens")
    for s, arrangement in enumerate(result["arrangements"]):
        label = seat_label(view, s, names)
        if s in winners:
            label.append(" 🏆 winner" if len(winners) == 1 else " 🏆 shared win", style="bold")
        places = Text()
        for i, place in enumerate(arrangement["places"]):
            if i:
                places.append("\n")
            places.append_text(card_text(place["card"]))
            pats = place["patricians"]
            places.append(": " + (", ".join(pats) if pats else "empty"))
            if place.get("extra"):
                places.append(f" (+{place['extra']} via XI)")
            places.append(f" = {place['points']}", style="bold")
        if arrangement["unplaced"]:
            places.append("\nunplaced: " + ", ".join(arrangement["unplaced"]), style="dim")
        breakdown = arrangement["breakdown"]
        other = Text()
        for item in breakdown["senate"]:
            other.append(f"{item['card']}: {item['points']}  ")
        other.append(f"\nFortuna {breakdown['fortuna']}, tokens {breakdown['tokens']}")
        table.add_row(label, str(arrangement["score"]), str(arrangement["tiebreak"]), places, other)
    return table
