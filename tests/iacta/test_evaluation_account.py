"""The public account of each round's evaluation in the view (RULES.md §3.2, §6).

The browser shows the evaluation step by step from it; it must say who got what and why
and hold nothing a seat may not see.
"""

from __future__ import annotations

import json
import random

import alea.iacta as iacta
from alea.iacta.determinize import determinize
from tests.iacta.helpers import play, started
from tests.iacta.test_evaluation import finish_placement, senate_position, temple_round


def test_temple_account_keeps_and_discards_the_drawn_tiles() -> None:
    s = temple_round()
    start = len(s.history)  # seat 3's placement ended the round: evaluation begins here
    [account] = s.view(0)["evaluations"]
    assert account["round"] == 1 and account["start"] == start and account["end"] is None
    temple = [
        (t["seat"], t["dice"], t["lead"], t["kept"], t["discarded"]) for t in account["temple"]
    ]
    assert temple == [
        (0, [5], False, [2], []),
        (1, [3, 6], False, [3], [1]),
        (2, [6, 6, 6], True, [3, 2], [1]),
    ]
    assert not any(t["bonus"] for t in account["temple"])
    # Seat 3's set waits for its province; the others' unplaced dice go to the Latrine.
    assert account["castrum"] == [{"seat": 3, "value": 1, "count": 8, "wins": True}]
    assert account["unplaced"] == [7, 6, 5, 0]
    play(s, "P:red1")
    [account] = s.view(None)["evaluations"]
    assert account["latrine"] == [7, 6, 5, 0] and account["end"] == start + 1


def test_lone_temple_die_is_marked_for_its_bonus_tile() -> None:
    s = started(4)
    play(s, "roll:55555555 T:5 fortuna:2")
    play(s, "roll:11111111 C:11111111 roll:22222222 C:2 roll:33333333 C:3")
    temple = s.view(1)["evaluations"][0]["temple"]
    assert temple == [
        {"seat": 0, "dice": [5], "lead": True, "kept": [2], "discarded": [], "bonus": True}
    ]


def test_senate_account_ranks_the_straights_and_names_who_takes_a_card() -> None:
    s = senate_position(4, ["3456", "12345", "6", ""])
    finish_placement(s)
    senate = s.view(2)["evaluations"][0]["senate"]
    assert senate == [
        {"seat": 1, "dice": [1, 2, 3, 4, 5], "takes": True},
        {"seat": 0, "dice": [3, 4, 5, 6], "takes": True},
        {"seat": 2, "dice": [6], "takes": False},
    ]


def test_forum_and_castrum_losers_are_in_the_account() -> None:
    s = started(2)  # 2 provinces, 4 patricians, 4 Forum columns
    play(s, "roll:11111111 F:1 roll:22222222 C:22")
    play(s, "roll:3333333 C:333 roll:444444 C:4")
    play(s, "roll:3333 C:3")  # seat 0 adds to its set of 3s
    play(s, "roll:55555 C:55555")
    finish_placement(s)
    account = s.view(0)["evaluations"][0]
    assert account["forum"] == [{"seat": 0, "value": 1}]
    ranked = [(c["seat"], c["value"], c["count"], c["wins"]) for c in account["castrum"]]
    assert ranked[0][:3] == (1, 5, 5) and ranked[0][3]
    assert all(not wins for *_, wins in ranked[2:])


def test_accounts_hold_no_secret_and_survive_positions_and_determinize() -> None:
    s = temple_round()
    views = [s.view(seat) for seat in (None, 0, 1, 2, 3)]
    # Every seat and a spectator read the same account: nothing in it is private.
    assert all(v["evaluations"] == views[0]["evaluations"] for v in views)
    # During placement the drawn tiles are secret, and no account exists yet.
    placing = started(4)
    play(placing, "roll:55555555 T:5 fortuna:2")
    assert placing.view(1)["evaluations"] == []
    # Positions and clones keep the accounts, independent of the original.
    again = iacta.State.from_json(json.loads(json.dumps(s.to_json())))
    assert again == s and again.view(0)["evaluations"] == views[1]["evaluations"]
    copy = s.clone()
    play(copy, "P:red1")
    assert s.view(0)["evaluations"][0]["end"] is None
    assert copy.view(0)["evaluations"][0]["end"] is not None
    assert determinize(views[1], random.Random(1)).view(0) == views[1]


def test_positions_saved_without_accounts_still_load() -> None:
    s = temple_round()
    data = s.to_json()
    del data["evaluations"]
    assert iacta.State.from_json(data).view(0)["evaluations"] == []
