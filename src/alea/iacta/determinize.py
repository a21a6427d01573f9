"""Determinisation: a full :class:`State` consistent with one seat's view.

A bot that searches (IS-MCTS) or an OpenSpiel adapter that needs
``resample_from_infostate`` may only know what :func:`alea.iacta.views.view`
shows a seat (RULES.md §6). To look ahead it needs a complete state, so it
samples the hidden parts and keeps every public fact. :func:`determinize`
does exactly that, and nothing else: the state it returns has the *same* view
for that seat (``determinize(v, rng).view(v["seat"]) == v``), and every hidden
part drawn uniformly from what the view allows:

* **Senate cards.** The cards whose place the seat does not know are the deck
  minus its own cards, the hand it is holding (if it holds one) and the cards
  it put at the bottom itself. They are dealt uniformly to the places whose
  contents it does not know: other players' cards (their counts are public),
  a hand being passed it has not seen, bottom cards others put there, and the
  draw pile (its size is public).
* **Fortuna tiles.** Tiles are conserved: the box (30 tiles with 4–5 players)
  is the stack + the face-up discards + the kept tiles + the tiles drawn this
  round. Discards and kept tiles are public and the seat knows its own draws,
  so the rest is dealt uniformly to the other players' draws of this round
  (their counts are public) and the stack (its size is public).
* **Province and patrician pools** are fully determined: every card not
  revealed, removed or owned is unseen, and the state holds no deck order.

"Uniform" is the right prior for an outside observer; it ignores what other
players' *choices* might betray (which Senate card someone kept) and, in one
rare case, what a seat could infer from the *timing* of a Fortuna reshuffle.
Both would need the history, which a view does not carry; the determinised
state has an empty history for the same reason (no rule depends on it).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from alea.iacta.cards import FORTUNA_COPIES, patrician_deck, province_deck, senate_deck
from alea.iacta.records import GAME, RECORD_FORMAT
from alea.iacta.state import PHASE_NAMES, TERMINAL, State

__all__ = ["DeterminizeError", "determinize"]


class DeterminizeError(ValueError):
    """The view cannot come from any real game (its cards or tiles do not add up)."""


def _minus(pool: Counter[Any], used: list[Any], what: str) -> None:
    """Remove ``used`` from the multiset ``pool``; a card used twice is an impossible view."""
    for item in used:
        if pool[item] <= 0:
            raise DeterminizeError(f"{what}: {item!r} appears more often than the box holds")
        pool[item] -= 1


def _expand(pool: Counter[Any]) -> list[Any]:
    """The multiset as a list in a canonical order (so sampling depends only on the rng)."""
    return [item for item in sorted(pool, key=str) for _ in range(pool[item])]


def determinize(view: dict[str, Any], rng: random.Random) -> State:
    """A full state with ``view`` as its view for ``view["seat"]``, hidden parts sampled.

    ``view`` is what :meth:`State.view` returns for a seat (not a spectator).
    The result is a fresh state the caller may play on freely: it shares
    nothing with ``view``. Raises :class:`DeterminizeError` if ``view`` is not
    a view of any reachable position.
    """
    seat = view["seat"]
    n = int(view["players"])
    if seat is None:
        raise DeterminizeError("a spectator's view: determinise from a seat's view instead")
    info = view["players_info"]
    turn = view["turn"]
    buildings = view["buildings"]
    decks = view["decks"]
    over = view["phase"] == "game-over"

    # --- Senate cards -----------------------------------------------------
    unseen_senate: Counter[str] = Counter(senate_deck(n))
    known: list[str] = []
    for s in range(n):
        if s == seat or over:
            known.extend(info[s]["senate"])
    hand_known = view["senate_hand"] is not None
    if hand_known:
        known.extend(view["senate_hand"])
    known.extend(card for card in view["senate_bottom"] if card is not None)
    _minus(unseen_senate, known, "Senate cards")
    deal = _expand(unseen_senate)
    rng.shuffle(deal)

    def take(count: int) -> list[str]:
        if count > len(deal):
            raise DeterminizeError("more hidden Senate cards than the deck holds")
        got = deal[len(deal) - count :]
        del deal[len(deal) - count :]
        return got

    senate_cards: list[list[str]] = []
    for s in range(n):
        if s == seat or over:
            senate_cards.append(list(info[s]["senate"]))
        else:
            senate_cards.append(take(int(info[s]["senate_count"])))
    hand = list(view["senate_hand"]) if hand_known else take(int(view["senate_hand_size"]))
    bottom_view = view["senate_bottom"]
    hidden_bottom = take(sum(1 for card in bottom_view if card is None))
    # The placer of a hidden bottom card is not public; any seat other than
    # this one will do (the placer matters only to views, and only to say
    # "this seat put it there", which is false for every other seat).
    other = (seat + 1) % n
    senate_bottom: list[list[Any]] = []
    for card in bottom_view:
        if card is None:
            senate_bottom.append([hidden_bottom.pop(), other])
        else:
            senate_bottom.append([card, seat])
    pool_size = int(decks["senate"]) - len(bottom_view)
    senate_pool = take(pool_size)
    if deal:
        raise DeterminizeError(f"{len(deal)} Senate cards are nowhere: the view is inconsistent")

    # --- Fortuna tiles ----------------------------------------------------
    discards = [0] + [int(decks["fortuna_discards"][str(v)]) for v in (1, 2, 3)]
    fortuna_drawn: list[list[int]] = []
    if n >= 4:
        tiles: Counter[int] = Counter(FORTUNA_COPIES)
        _minus(tiles, [v for v in (1, 2, 3) for _ in range(discards[v])], "Fortuna discards")
        for s in range(n):
            _minus(tiles, list(info[s]["fortuna"]), "Fortuna tiles")
        _minus(tiles, list(info[seat]["fortuna_drawn_values"]), "Fortuna tiles")
        bag = _expand(tiles)
        rng.shuffle(bag)
        for s in range(n):
            if s == seat:
                fortuna_drawn.append(list(info[s]["fortuna_drawn_values"]))
            else:
                count = int(info[s]["fortuna_drawn"])
                if count > len(bag):
                    raise DeterminizeError("more Fortuna tiles drawn than the box holds")
                fortuna_drawn.append(bag[len(bag) - count :])
                del bag[len(bag) - count :]
        if len(bag) != int(decks["fortuna"]):
            raise DeterminizeError(
                f"the Fortuna stack should hold {decks['fortuna']} tiles, {len(bag)} are unseen"
            )
        stack = [0, bag.count(1), bag.count(2), bag.count(3)]
    else:
        fortuna_drawn = [[] for _ in range(n)]
        stack = [0, 0, 0, 0]

    # --- Province and patrician pools: determined by the public cards ----
    revealed = view["revealed"]
    removed = view["removed"]
    provinces: Counter[str] = Counter(province_deck())
    used = list(revealed["provinces"]) + list(removed["provinces"])
    for s in range(n):
        used.extend(info[s]["provinces"])
    _minus(provinces, used, "provinces")
    patricians: Counter[str] = Counter(patrician_deck())
    used = list(revealed["patricians"]) + list(removed["patricians"])
    for s in range(n):
        used.extend(info[s]["patricians"])
    _minus(patricians, used, "patricians")
    province_pool = _expand(provinces)
    patrician_pool = _expand(patricians)
    if len(province_pool) != int(decks["provinces"]) or len(patrician_pool) != int(
        decks["patricians"]
    ):
        raise DeterminizeError("the province or patrician deck size does not match the cards seen")

    # --- Everything else is public: copy it -------------------------------
    phase = PHASE_NAMES.index(view["phase"])
    rounds = int(view["rounds"])
    data: dict[str, Any] = {
        "game": GAME,
        "format": RECORD_FORMAT,
        "players": n,
        "rounds": rounds,
        "round": rounds if over else int(view["round"]) - 1,
        "start": int(view["start_player"]),
        "phase": phase,
        "player": TERMINAL if turn["seat"] is None else int(turn["seat"]),
        "reroll_count": int(turn["rerolling"]),
        "fortuna_pending": int(turn["fortuna_pending"]),
        "senate_turn": int(view["senate_turn"]),
        "dice_left": [int(p["dice"]) for p in info],
        "tokens": [int(p["tokens"]) for p in info],
        "latrine": list(buildings["latrine"]),
        "fortuna_stack": stack,
        "fortuna_discards": discards,
        "fortuna_drawn": fortuna_drawn,
        "fortuna_kept": [list(p["fortuna"]) for p in info],
        "senate_pool": senate_pool,
        "senate_hand": hand,
        "senate_takers": list(view["senate_takers"]),
        "province_pool": province_pool,
        "patrician_pool": patrician_pool,
        "revealed_provinces": list(revealed["provinces"]),
        "revealed_patricians": list(revealed["patricians"]),
        "removed_provinces": list(removed["provinces"]),
        "removed_patricians": list(removed["patricians"]),
        "provinces": [list(p["provinces"]) for p in info],
        "patricians": [list(p["patricians"]) for p in info],
        "senate_cards": senate_cards,
        "history": [],
        "ending": bool(turn["ending"]),
        "roll": list(turn["roll"]),
        "kept_dice": list(turn["kept"]),
        "temple": buildings.get("temple", [[] for _ in range(n)]),
        "senate": [[s[0], s[-1]] if s else None for s in buildings["senate"]],
        "castrum": [[c["seat"], c["value"], c["count"]] for c in buildings["castrum"]],
        "forum": [[f["value"], f["seat"]] for f in buildings["forum"]],
        "senate_bottom": senate_bottom,
        "castrum_queue": [[c["seat"], c["value"], c["count"]] for c in view["castrum_queue"]],
        "private": [],
        "evaluations": list(view.get("evaluations", [])),
    }
    return State.from_json(data)
