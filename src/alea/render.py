"""Rich renderings of a game for the terminal, built from *views* only.

Everything here takes the dict of :meth:`alea.iacta.State.view`, never the
state, so a terminal screen can show no more than the seat (or spectator) it
is drawn for may see. Used by ``alea demo``, ``alea replay`` and terminal play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

#: Rich styles for the dice of each seat (gray, brown, blue, green, yellow).
SEAT_STYLES = (
    "bold white on grey35",
    "bold white on dark_orange3",
    "bold white on blue",
    "bold white on green4",
    "bold black on yellow3",
)
#: Rich colours for the card colours of RULES.md §1.
CARD_STYLES = {
    "red": "bold red",
    "orange": "bold dark_orange",
    "yellow": "bold yellow",
    "green": "bold green",
    "blue": "bold blue",
    "purple": "bold magenta",
    "grey": "bold grey70",
}
SEAT_NAMES = ("gray", "brown", "blue", "green", "yellow")


def die(value: int, seat: int) -> Text:
    """One die, in its owner's colour."""
    return Text(f" {value} ", style=SEAT_STYLES[seat % len(SEAT_STYLES)])


def dice(values: Sequence[int], seat: int) -> Text:
    """Several dice of one seat, separated by spaces."""
    text = Text()
    for i, value in enumerate(values):
        if i:
            text.append(" ")
        text.append_text(die(value, seat))
    return text


def card(name: str) -> Text:
    """A province or patrician card, coloured by its colour."""
    for colour, style in CARD_STYLES.items():
        if name.startswith(colour):
            return Text(name, style=style)
    return Text(name, style="bold")


def cards(names: Sequence[str]) -> Text:
    """Several cards separated by spaces, or a dash for none."""
    if not names:
        return Text("—", style="dim")
    return Text(" ").join(card(n) for n in names)


def seat_label(seat: int, viewer: int | None = None) -> Text:
    """``seat 2 (blue)``, marked ``you`` for the viewing seat."""
    label = Text(f"seat {seat} ", style="bold")
    label.append(f"({SEAT_NAMES[seat]})", style=SEAT_STYLES[seat].replace("on ", "").split()[-1])
    if viewer == seat:
        label.append(" you", style="bold cyan")
    return label


def buildings(view: dict[str, Any]) -> RenderableType:
    """The five buildings with the dice in them."""
    b = view["buildings"]
    table = Table(box=box.ROUNDED, show_header=True, expand=True, title="Buildings")
    table.add_column("Building", style="bold", no_wrap=True)
    table.add_column("Dice")
    if "temple" in b:
        row = Text()
        for seat, group in enumerate(b["temple"]):
            if group:
                row.append_text(dice(group, seat)).append(f" ={sum(group)}   ")
        table.add_row("Templum", row or Text("empty", style="dim"))
    row = Text()
    for seat, straight in enumerate(b["senate"]):
        if straight:
            row.append_text(dice(straight, seat)).append("   ")
    table.add_row("Senatus", row or Text("empty", style="dim"))
    row = Text()
    for entry in b["castrum"]:
        row.append_text(dice([entry["value"]] * entry["count"], entry["seat"])).append("   ")
    table.add_row("Castrum", row or Text("empty", style="dim"))
    row = Text()
    for column in range(b["forum_columns"]):
        if column < len(b["forum"]):
            entry = b["forum"][column]
            row.append_text(die(entry["value"], entry["seat"]))
        else:
            row.append(" · ", style="dim")
        row.append(" ")
    table.add_row("Forum", row)
    row = Text()
    for seat, count in enumerate(b["latrine"]):
        if count:
            row.append(f" {count}× ", style=SEAT_STYLES[seat]).append("  ")
    table.add_row("Latrina", row or Text("empty", style="dim"))
    return table


def displays(view: dict[str, Any]) -> RenderableType:
    """The revealed provinces and patricians, and the deck sizes."""
    decks = view["decks"]
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold")
    table.add_column()
    table.add_row("Provinces", cards(view["revealed"]["provinces"]))
    table.add_row("Patricians", cards(view["revealed"]["patricians"]))
    deck_text = (
        f"provinces {decks['provinces']}, patricians {decks['patricians']}, "
        f"Senate {decks['senate']}"
    )
    if "temple" in view["buildings"]:
        discards = decks["fortuna_discards"]
        deck_text += (
            f", Fortuna {decks['fortuna']} (discards 1×{discards['1']} 2×{discards['2']} "
            f"3×{discards['3']})"
        )
    table.add_row("Decks", Text(deck_text, style="dim"))
    return table


def holdings(view: dict[str, Any]) -> RenderableType:
    """Each player's holdings, hidden parts only for the viewing seat."""
    viewer = view["seat"]
    table = Table(box=box.SIMPLE_HEAD, expand=True, title="Players")
    table.add_column("Seat", no_wrap=True)
    table.add_column("Dice", justify="right")
    table.add_column("Tokens", justify="right")
    table.add_column("Provinces")
    table.add_column("Patricians")
    table.add_column("Senate")
    if "temple" in view["buildings"]:
        table.add_column("Fortuna")
    for info in view["players_info"]:
        seat = info["seat"]
        label = seat_label(seat, viewer)
        if seat == view["start_player"]:
            label.append(" ★", style="bold yellow")
        senate = (
            Text(" ".join(info["senate"]) or "—")
            if info["senate"] is not None
            else Text(f"{info['senate_count']} hidden", style="dim")
        )
        row: list[RenderableType] = [
            label,
            str(info["dice"]),
            str(info["tokens"]),
            cards(info["provinces"]),
            cards(info["patricians"]),
            senate,
        ]
        if "temple" in view["buildings"]:
            fortuna = Text(" ".join(map(str, info["fortuna"])) or "—")
            if info["fortuna_drawn"]:
                shown = info["fortuna_drawn_values"]
                drawn = (
                    " ".join(map(str, shown)) if shown is not None else "?" * info["fortuna_drawn"]
                )
                fortuna.append(f" +[{drawn}]", style="dim")
            row.append(fortuna)
        table.add_row(*row)
    return table


def board(view: dict[str, Any], title: str | None = None) -> RenderableType:
    """The whole table as seen from ``view``."""
    turn = view["turn"]
    header = Text(f"Round {view['round']}/{view['rounds']} · {view['phase']}", style="bold")
    if turn["seat"] is not None and turn["roll"]:
        header.append("   roll of ").append_text(seat_label(turn["seat"]))
        header.append(": ").append_text(dice(turn["roll"], turn["seat"]))
    parts: list[RenderableType] = [header, buildings(view), displays(view), holdings(view)]
    return Panel(Group(*parts), title=title or "Alea Iacta Est", border_style="grey50")


def score_table(view: dict[str, Any]) -> RenderableType:
    """The final scores with each player's breakdown (needs a terminal view)."""
    result = view["result"]
    table = Table(box=box.ROUNDED, title="Final scores (optimal arrangements)")
    table.add_column("Seat", no_wrap=True)
    for name in ("Provinces", "Patricians", "Senate", "Fortuna", "Tokens", "Total", "Tie-break"):
        table.add_column(name, justify="right")
    table.add_column("")
    for seat, arrangement in enumerate(result["arrangements"]):
        parts = arrangement["breakdown"]
        table.add_row(
            seat_label(seat),
            str(parts["province_cards"]),
            str(parts["patricians"]),
            str(parts["senate_total"]),
            str(parts["fortuna"]),
            str(parts["tokens"]),
            Text(str(result["scores"][seat]), style="bold"),
            str(result["tiebreaks"][seat]),
            Text("winner", style="bold green") if seat in result["winners"] else Text(""),
        )
    return table


def arrangement_table(seat: int, arrangement: dict[str, Any]) -> RenderableType:
    """Where each of a player's patricians goes, and why each place scores what it does."""
    table = Table(box=box.SIMPLE, title=f"Seat {seat}: arrangement", title_justify="left")
    table.add_column("Place")
    table.add_column("Patricians")
    table.add_column("Points", justify="right")
    table.add_column("Why", style="dim")
    for place in arrangement["places"]:
        names = list(place["patricians"]) + ([f"+{place['extra']}"] if place.get("extra") else [])
        table.add_row(card(place["card"]), cards(names), str(place["points"]), place["reason"])
    for senate in arrangement["breakdown"]["senate"]:
        table.add_row(
            Text(senate["card"], style="bold"), "", str(senate["points"]), senate["reason"]
        )
    if arrangement["unplaced"]:
        table.add_row("unplaced", cards(arrangement["unplaced"]), "0", "tie-break value")
    return table


BUILDING_WORDS = {
    "T": "the Temple",
    "S": "the Senate",
    "C": "the Castrum",
    "F": "the Forum",
    "L": "the Latrine",
}


def describe(token: str, seat: int | str | None) -> Text:
    """One event of a record as a line a person reads, e.g. ``seat 1 places 4 4 in the Castrum``.

    ``seat`` is who was to move before the event (a seat, or ``"chance"``);
    for chance events it is the seat whose roll or draw it was, if any.
    """
    kind, _, rest = token.partition(":")
    who = seat_label(seat) if isinstance(seat, int) else Text("chance", style="dim")
    line = Text()
    if kind in BUILDING_WORDS:
        values = [int(ch) for ch in rest]
        line.append_text(who).append(" places ").append_text(dice(values, int(seat or 0)))
        line.append(f" in {BUILDING_WORDS[kind]}")
    elif kind == "R":
        line.append_text(who).append(" spends a token to re-roll ")
        line.append_text(dice([int(ch) for ch in rest], int(seat or 0)))
    elif kind == "K":
        line.append_text(who).append(" keeps a Senate card ").append(rest, style="bold")
    elif kind == "P":
        line.append_text(who).append(" takes the province ").append_text(card(rest))
    elif kind == "N":
        line.append_text(who).append(" takes the patrician ").append_text(card(rest))
    elif kind == "roll":
        line.append("  rolls ", style="dim").append_text(
            dice([int(ch) for ch in rest], int(seat)) if isinstance(seat, int) else Text(rest)
        )
    elif kind == "province":
        line.append("  province revealed: ", style="dim").append_text(card(rest))
    elif kind == "patrician":
        line.append("  patrician revealed: ", style="dim").append_text(card(rest))
    elif kind == "fortuna":
        line.append(f"  Fortuna tile drawn: {rest}", style="dim")
    elif kind == "senate":
        line.append(f"  Senate card drawn: {rest}", style="dim")
    else:
        line.append(token)
    return line
