"""Every reason the placement rules give for an illegal placement is said in both languages.

Random games of 2 to 5 players are played; at each placement decision every placement
of every sub-multiset of the roll in every building that is not legal is explained by the
engine, and :mod:`alea.server.reasons` must know the sentence (a new sentence in the
engine without a translation fails here) and name the seats by their players' names.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import httpx
import pytest

import alea.iacta as iacta
from alea.server import Settings, reasons
from tests.server.support import LiveServer, database, human_game


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


NAMES = ["Julia", "Marcus", "Livia", "Brutus", "Cassius"]


def placements(roll: tuple[int, ...]) -> set[str]:
    """Every placement notation of a sub-multiset of ``roll`` in every building."""
    found: set[str] = set()
    for size in range(1, len(roll) + 1):
        for dice in itertools.combinations(sorted(roll), size):
            text = "".join(map(str, dice))
            found.update(f"{b}:{text}" for b in "TSCFL")
    return found


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_illegal_placement_reason_is_translated(players: int) -> None:
    rng = random.Random(players)
    seen: set[str] = set()
    for _ in range(3):
        state = iacta.new_game(players=players)
        while not state.is_terminal():
            if state.is_chance():
                state.apply(state.sample_chance(rng))
                continue
            legal = [str(a) for a in state.legal_actions()]
            roll = tuple(state.roll) if legal[0][0] in "TSCFLR" else ()
            for action in sorted(placements(roll) - set(legal))[:60]:
                reason = state.explain(action)
                assert reason, action
                for lang in ("en", "it"):
                    said = reasons.translate(reason, NAMES[:players], lang)
                    assert said is not None, f"no {lang} words for {reason!r}"
                    assert "seat " not in said, said
                seen.add(reason.split(":")[0] if ":" in reason else reason)
            state.apply(rng.choice(state.legal_actions()))
    assert {"Senate", "Castrum", "Forum", "Latrine"} <= seen


def test_seats_are_named_and_castrum_sets_counted_in_italian() -> None:
    reason = (
        "Castrum: seat 1 already has a set of three 4s and your set would become three 4s; "
        "no two sets may be identical"
    )
    assert reasons.translate(reason, NAMES, "it") == (
        "Marcus ha già un set di tre 4 e il tuo diventerebbe tre 4: due set non possono "
        "essere uguali."
    )
    assert reasons.explain("something new", NAMES, "it") == "something new"


def test_the_explain_endpoint_says_why_in_the_seats_language(tmp_path: Path) -> None:
    with (
        database("sqlite", tmp_path) as db,
        LiveServer(Settings(database_url=db.url, idle_timeout=600)) as live,
    ):
        game_id, tokens = human_game(live.base, 2)
        url = f"{live.base}/api/games/{game_id}"
        rng = random.Random(4)
        for _ in range(40):  # until a seat places a roll with two values (C:ab is refused)
            states = [httpx.get(f"{url}/state", headers=bearer(t)).json() for t in tokens]
            seat = next(i for i, s in enumerate(states) if s["legal"])
            now = states[seat]
            roll = sorted(set(now["view"]["turn"]["roll"]))
            if now["view"]["phase"] == "placement" and len(roll) >= 2:
                break
            httpx.post(
                f"{url}/actions",
                json={"action": rng.choice(now["legal"]), "version": now["version"]},
                headers=bearer(tokens[seat]),
            )
        action = f"C:{roll[0]}{roll[1]}"
        answer = httpx.get(
            f"{url}/explain", params={"action": action, "lang": "it"}, headers=bearer(tokens[seat])
        )
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["legal"] is False
        assert body["reason"].startswith("piazza un set di dadi uguali")
        assert body["detail"].startswith("Castrum:")
        legal = httpx.get(
            f"{url}/explain", params={"action": now["legal"][0]}, headers=bearer(tokens[seat])
        ).json()
        assert legal == {"action": now["legal"][0], "legal": True, "reason": "", "detail": ""}
        other = httpx.get(
            f"{url}/explain", params={"action": action}, headers=bearer(tokens[1 - seat])
        ).json()
        assert other["legal"] is False and other["reason"] == "It is not your turn."
        assert httpx.get(f"{url}/explain", params={"action": action}).status_code == 403
        assert httpx.get(f"{url}/state", headers=bearer(tokens[seat])).json() == now
