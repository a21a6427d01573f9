"""Hand-worked scoring cases (RULES.md §5), one or more per place and Senate card.

Every expected number below was worked out by hand from the rules text; the
comments show the sums. Exactness on random holdings is checked separately
against a brute force (``test_scoring_bruteforce.py``).
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from alea.iacta.scoring import (
    Arrangement,
    Holdings,
    HoldingsError,
    best_arrangement,
    evaluate_arrangement,
    ranking,
)


def best(
    provinces: tuple[str, ...] = (),
    patricians: tuple[str, ...] = (),
    senate: tuple[str, ...] = (),
    fortuna: tuple[int, ...] = (),
    tokens: int = 0,
) -> Arrangement:
    return best_arrangement(Holdings(provinces, patricians, senate, fortuna, tokens))


def senate_points(a: Arrangement, card: str) -> int:
    return next(s.points for s in a.breakdown.senate if s.card == card)


def place(a: Arrangement, card: str) -> tuple[str, ...]:
    return next(p.patricians for p in a.places if p.card == card)


# ------------------------------------------------------- the rule book example


def antonio() -> Holdings:
    """Holdings consistent with the rule book's example (Antonio's 43 points).

    A. four provinces 3 + 4 + 0 + 0: red3 and blue4 occupied, the wild
       province occupied (0), green1 empty (1 - 1);
    B. ten patricians 3+1+3+3+2+1+2 placed and three unplaced (0);
    C. four Senate cards 3 + 0 + 5 + 5: II (7 placed // 2), a border province
       with one patrician (0), III (1 + 4 cards), VII (red, green, blue,
       yellow from the wild province, purple from the border province);
    D. Fortuna 3 + 2 + 1; E. five re-roll tokens // 2 = 2.
    """
    return Holdings(
        provinces=("red3", "blue4", "grey0", "green1"),
        patricians=(
            "redm3",
            "redw1",
            "bluem3",
            "bluew3",
            "bluew2",
            "yellowm2",
            "yelloww1",
            "redm1",
            "redm2",
            "yellowm1",
        ),
        senate=("II", "XII-blue/purple", "III", "VII"),
        fortuna=(3, 2, 1),
        tokens=5,
    )


def test_rule_book_example_antonio_43() -> None:
    a = best_arrangement(antonio())
    b = a.breakdown
    assert a.score == 43
    assert b.total == 43
    # A: the card part of the four province cards.
    cards_part = {p.card: p.base for p in a.places if p.kind in ("province", "wild")}
    assert cards_part == {"red3": 3, "blue4": 4, "grey0": 0, "green1": 0}
    assert b.province_cards == 7
    # B: seven placed patricians worth 3+1+3+3+2+1+2, three unplaced.
    placed = [p for place in a.places for p in place.patricians]
    assert sorted(int(p[-1]) for p in placed) == sorted([3, 1, 3, 3, 2, 1, 2])
    assert b.patricians == 15
    assert len(a.unplaced) == 3
    # C: the four Senate cards.
    assert sorted(s.points for s in b.senate) == [0, 3, 5, 5]
    assert senate_points(a, "II") == 3
    assert senate_points(a, "XII-blue/purple") == 0
    assert senate_points(a, "III") == 5
    assert senate_points(a, "VII") == 5
    assert b.senate_total == 13
    # D and E.
    assert b.fortuna == 6
    assert b.tokens == 2
    # Tie-break: redm1 + redm2 + yellowm1 are left over.
    assert a.tiebreak == 4
    assert sorted(a.unplaced) == ["redm1", "redm2", "yellowm1"]


# ------------------------------------------------------------- places (§5.1)


def test_province_card_occupied_and_empty() -> None:
    assert best(("red3",)).score == 2  # empty: 3 - 1
    assert best(("red3",), ("redm2",)).score == 5  # 3 + 2
    assert best(("red3",), ("redm2", "redw1")).score == 6  # 3 + 2 + 1
    # Only its own colour: the blue patrician stays out.
    a = best(("red3",), ("bluem2",))
    assert (a.score, a.tiebreak, a.unplaced) == (2, 2, ("bluem2",))


def test_a_place_holds_one_man_and_one_woman() -> None:
    a = best(("red4",), ("redm1", "redm3", "redw2"))
    assert a.score == 4 + 3 + 2
    assert a.tiebreak == 1
    assert place(a, "red4") == ("redm3", "redw2")


def test_wild_province() -> None:
    assert best(("grey0",)).score == -1  # empty wild province
    # Any one colour, but not two colours at once: bluew2 alone beats redm1 alone.
    a = best(("grey0",), ("redm1", "bluew2"))
    assert (a.score, a.tiebreak) == (2, 1)
    # A couple of one colour: 0 + 3 + 2.
    a = best(("grey0",), ("greenm3", "greenw2"))
    assert a.score == 5
    assert place(a, "grey0") == ("greenm3", "greenw2")


def test_free_province() -> None:
    assert best(senate=("XIII",)).score == 0  # empty free province
    assert best((), ("purplem1", "purplew2"), ("XIII",)).score == 1 + 1 + 2
    # Two free provinces (XIII is in the box twice), one patrician each: (1+1) + (1+2).
    a = best((), ("redm1", "bluew2"), ("XIII", "XIII"))
    assert a.score == 5
    assert [s.points for s in a.breakdown.senate] == [1, 1]


def test_border_province() -> None:
    # One patrician of each of its colours: 3 + 2 + 3.
    a = best((), ("redm2", "orangew3"), ("XII-red/orange",))
    assert a.score == 8
    assert senate_points(a, "XII-red/orange") == 3
    # A couple of one colour gets no 3: 0 + 2 + 3.
    assert best((), ("redm2", "redw3"), ("XII-red/orange",)).score == 5
    # One patrician: 0 + value; empty: 0; other colours may not enter.
    assert best((), ("orangem2",), ("XII-red/orange",)).score == 2
    assert best(senate=("XII-red/orange",)).score == 0
    a = best((), ("yellowm3",), ("XII-red/orange",))
    assert (a.score, a.tiebreak) == (0, 3)


def test_whole_ring_of_border_provinces() -> None:
    # Alternating men and women round the ring: three two-colour couples,
    # 3 x (3 + 1 + 1) = 15, the other three borders empty.
    a = best(
        (),
        ("redm1", "orangew1", "yellowm1", "greenw1", "bluem1", "purplew1"),
        ("XII-red/orange", "XII-orange/yellow", "XII-yellow/green", "XII-green/blue",
         "XII-blue/purple", "XII-purple/red"),
    )  # fmt: skip
    assert a.score == 15
    assert sum(p.base == 3 for p in a.places) == 3


# ------------------------------------------------------- Senate cards (§5.2)


def test_senate_i_counts_every_place_owned() -> None:
    # red1, red2, grey0, a free and a border province: 5 places, 1 + 5 // 2 = 3,
    # whether occupied or empty.
    a = best(("red1", "red2", "grey0"), (), ("I", "XIII", "XII-red/orange"))
    assert senate_points(a, "I") == 3
    # Places: (1 - 1) + (2 - 1) (empty cards) - 1 (empty wild) + 0 + 0 = 0.
    assert a.score == 3 + 0


def test_senate_ii_half_the_placed_patricians() -> None:
    a = best(("red4", "blue1"), ("redm1", "redw1", "bluem3"), ("II",))
    assert senate_points(a, "II") == 1  # 3 placed // 2
    assert a.score == (4 + 2) + (1 + 3) + 1


def test_senate_iii_counts_itself() -> None:
    assert senate_points(best(senate=("III", "XIII", "V")), "III") == 4  # 1 + 3 cards


def test_senate_iv_counts_tiles_not_values() -> None:
    assert senate_points(best(senate=("IV",), fortuna=(1, 1, 1, 2, 2)), "IV") == 3
    assert senate_points(best(senate=("IV",), fortuna=(3,) * 6), "IV") == 5
    assert senate_points(best(senate=("IV",), fortuna=(3, 3)), "IV") == 1


def test_senate_v_counts_couples_in_free_and_border_provinces() -> None:
    a = best(
        ("red4",),
        ("redm1", "redw2", "bluem1", "bluew1", "greenm1", "yelloww1"),
        ("V", "XIII", "XII-yellow/green"),
    )
    # Couples: red4, the free province (blue), the border (green + yellow).
    assert senate_points(a, "V") == 1 + 3
    assert a.score == (4 + 3) + (1 + 2) + (3 + 2) + 4


def test_senate_vi_distinct_colours_placed() -> None:
    a = best(("red1", "blue1", "blue2"), ("redm1", "bluem1", "bluew2"), ("VI",))
    assert senate_points(a, "VI") == 2


def test_senate_vii_colours_of_places() -> None:
    # red4 takes the red couple; the wild province either takes redm2 (VII:
    # red) or bluew1 (VII: red, blue). Both score 10 + 2 + 1 = 10 + 1 + 2 = 13;
    # the tie-break then keeps redm2 (2) unplaced rather than bluew1 (1).
    a = best(("red4", "grey0"), ("redm3", "redw3", "redm2", "bluew1"), ("VII",))
    assert (a.score, a.tiebreak) == (13, 2)
    assert place(a, "grey0") == ("bluew1",)
    assert senate_points(a, "VII") == 2
    # An empty wild or free province counts grey; a border counts both colours.
    a = best(("grey0",), (), ("VII", "XIII", "XII-green/blue"))
    assert senate_points(a, "VII") == 3  # grey, green, blue


def test_senate_viii_spreads_over_province_cards_only() -> None:
    # Spread: red1 (1+1) + red2 (2+1) + VIII 2 = 7; a couple would make 4 + 0 + 1.
    a = best(("red1", "red2"), ("redm1", "redw1"), ("VIII",))
    assert a.score == 7
    assert senate_points(a, "VIII") == 2
    # The wild, free and border provinces do not count.
    a = best(("grey0",), ("bluem1", "redm1", "redw1"), ("VIII", "XIII", "XII-blue/purple"))
    assert senate_points(a, "VIII") == 0


def test_senate_ix_and_x_count_placed_women_and_men() -> None:
    a = best(("red1",), ("redm1", "redw2", "redw3"), ("IX", "X", "XIII"))
    # red1 and the free province hold every patrician: 2 women, 1 man.
    assert senate_points(a, "IX") == 2
    assert senate_points(a, "X") == 1


def test_senate_xi_extra_beside_a_couple() -> None:
    # Without XI: red1 (1 + 2 + 1), redm1 unplaced (tie-break 1).
    a = best(("red1",), ("redm2", "redw1", "redm1"))
    assert (a.score, a.tiebreak) == (4, 1)
    # With XI: redm1 goes beside the couple, scores 1, and is not unplaced.
    a = best(("red1",), ("redm2", "redw1", "redm1"), ("XI",))
    assert (a.score, a.tiebreak) == (5, 0)
    assert a.extras == ("redm1",)
    assert a.unplaced == ()
    assert senate_points(a, "XI") == 1


def test_senate_xi_several_couples() -> None:
    a = best(
        ("red4", "red3"),
        ("redm3", "redw3", "redm2", "redw2", "redm1", "redw1"),
        ("XI",),
    )
    assert (a.score, a.tiebreak) == (10 + 7 + 2, 0)
    assert sorted(a.extras) == ["redm1", "redw1"]


def test_senate_xi_two_colour_couple_takes_either_colour() -> None:
    # redm2 + orangew3 in the border (3 + 5) and orangem1 beside them (1).
    a = best((), ("redm2", "orangew3", "orangem1"), ("XI", "XII-red/orange"))
    assert (a.score, a.tiebreak) == (9, 0)
    assert a.extras == ("orangem1",)


def test_senate_xi_extra_counts_for_no_other_card() -> None:
    a = best(("red1",), ("redm2", "redw1", "redm1"), ("XI", "II", "X", "VI"))
    assert senate_points(a, "II") == 1  # 2 placed, the extra not included
    assert senate_points(a, "X") == 1
    assert senate_points(a, "VI") == 1


def test_vi_pulls_the_wild_province_to_a_new_colour() -> None:
    # As for VII: the wild province takes redm2 (VI: red; 10 + 2 + 1) or bluew1
    # (VI: red, blue; 10 + 1 + 2). Equal scores, so the tie-break decides.
    a = best(("red4", "grey0"), ("redm3", "redw3", "redm2", "bluew1"), ("VI",))
    assert (a.score, a.tiebreak) == (13, 2)
    assert place(a, "grey0") == ("bluew1",)
    # Without VI the red patricians fill both places (12) and bluew1 stays out.
    a = best(("red4", "grey0"), ("redm3", "redw3", "redm2", "bluew1"))
    assert (a.score, a.tiebreak, a.unplaced) == (12, 1, ("bluew1",))


def test_xiii_and_xii_points_are_their_card_part() -> None:
    a = best((), ("redm2", "orangew3", "bluem1"), ("XII-red/orange", "XIII"))
    assert senate_points(a, "XII-red/orange") == 3
    assert senate_points(a, "XIII") == 1
    assert a.breakdown.patricians == 6
    assert a.score == 3 + 1 + 6


# ---------------------------------------------------------- totals and API


def test_final_score_adds_fortuna_and_half_the_tokens() -> None:
    a = best(fortuna=(1, 2, 3), tokens=7)
    assert a.score == 6 + 3
    assert (a.breakdown.fortuna, a.breakdown.tokens) == (6, 3)


def test_breakdown_adds_up_and_places_replay() -> None:
    a = best_arrangement(antonio())
    b = a.breakdown
    assert (
        sum(points for _, points in b.places)
        + sum(s.points for s in b.senate if not s.card.startswith("XII") and s.card != "XIII")
        + b.fortuna
        + b.tokens
        == a.score
    )
    replay = evaluate_arrangement(a.holdings, [(p.card, p.patricians, p.extra) for p in a.places])
    assert replay == a


def test_to_json_is_json_and_complete() -> None:
    a = best_arrangement(antonio())
    data = json.loads(json.dumps(a.to_json()))
    assert data["score"] == 43
    assert data["tiebreak"] == 4
    assert data["breakdown"]["total"] == 43
    assert data["breakdown"]["province_cards"] == 7
    assert data["breakdown"]["patricians"] == 15
    assert data["breakdown"]["senate_total"] == 13
    assert {p["card"] for p in data["places"]} == {
        "red3",
        "blue4",
        "grey0",
        "green1",
        "XII-blue/purple",
    }
    assert sorted(data["unplaced"]) == ["redm1", "redm2", "yellowm1"]
    assert Holdings.from_json(data["holdings"]) == antonio()


def test_result_is_deterministic() -> None:
    h = antonio()
    first = best_arrangement(h).to_json()
    reordered = Holdings(
        h.provinces[::-1], h.patricians[::-1], h.senate[::-1], h.fortuna[::-1], h.tokens
    )
    assert best_arrangement(reordered).to_json()["places"] == first["places"]
    assert best_arrangement(h).to_json() == first


def test_holdings_accept_lists_and_stay_hashable() -> None:
    h = Holdings(["red4"], ["redm1"], ["V"], [2], 3)  # type: ignore[arg-type]
    assert h.provinces == ("red4",)
    assert hash(h) == hash(Holdings(("red4",), ("redm1",), ("V",), (2,), 3))


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("holdings", "token", "words"),
    [
        (Holdings(provinces=("red5",)), "red5", "worth 1 to 4"),
        (Holdings(provinces=("grey1",)), "grey1", "wild province grey0"),
        (Holdings(provinces=("redm2",)), "redm2", "patrician tile, not a province"),
        (Holdings(patricians=("redx2",)), "redx2", "not a patrician"),
        (Holdings(patricians=("redm4",)), "redm4", "worth 1 to 3"),
        (Holdings(senate=("XIV",)), "XIV", "not a Senate card"),
        (Holdings(senate=("XII-red/yellow",)), "XII-red/yellow", "neighbouring"),
        (Holdings(senate=("XII-orange/red",)), "XII-orange/red", "XII-red/orange"),
        (Holdings(senate=("XII",)), "XII", "not a Senate card"),
        (Holdings(provinces=("red4", "red4")), "red4", "holds it once"),
        (Holdings(senate=("XIII",) * 3), "XIII", "holds it 2 times"),
        (Holdings(senate=("V", "V")), "V", "holds it once"),
        (Holdings(fortuna=(4,)), 4, "Fortuna tile"),
        (Holdings(fortuna=(1,) * 9), 1, "box holds only 8"),
        (Holdings(fortuna=(2,) * 15), 2, "box holds only 14"),
        (Holdings(tokens=-1), -1, "negative"),
    ],
)
def test_invalid_holdings_name_the_token(holdings: Holdings, token: object, words: str) -> None:
    with pytest.raises(HoldingsError) as info:
        best_arrangement(holdings)
    assert info.value.token == token
    assert words in str(info.value)


def test_box_limits_are_exact() -> None:
    Holdings(senate=("XIII", "XIII"), fortuna=(1,) * 8 + (2,) * 14 + (3,) * 8).validate()


def test_more_than_six_senate_cards_is_a_warning() -> None:
    h = Holdings(senate=("I", "II", "III", "V", "VI", "VII", "VIII"))
    assert h.validate() and "7 Senate cards" in h.validate()[0]
    a = best_arrangement(h)
    assert a.warnings
    assert Holdings(senate=("I", "II", "III", "V", "VI", "VII")).validate() == []


def test_from_json_rejects_bad_shapes() -> None:
    with pytest.raises(HoldingsError, match="unknown field 'provinsen'"):
        Holdings.from_json({"provinsen": []})
    with pytest.raises(HoldingsError, match="must be a list"):
        Holdings.from_json({"provinces": "red4"})
    with pytest.raises(HoldingsError, match="not a tile value"):
        Holdings.from_json({"fortuna": ["3"]})
    with pytest.raises(HoldingsError, match="whole number"):
        Holdings.from_json({"tokens": 2.5})
    assert Holdings.from_json({}) == Holdings()


def test_checked_constructor() -> None:
    assert Holdings.checked(provinces=["red4"], tokens=2) == Holdings(("red4",), tokens=2)
    with pytest.raises(HoldingsError):
        Holdings.checked(patricians=["redm2", "redm2"])


def test_evaluate_arrangement_rejects_illegal_arrangements() -> None:
    h = Holdings(("red4", "grey0"), ("redm1", "redm2", "bluew1", "redw1"), ("XI",))
    with pytest.raises(ValueError, match="one man and one woman"):
        evaluate_arrangement(h, [("red4", ("redm1", "redm2"), None), ("grey0", (), None)])
    with pytest.raises(ValueError, match="may not go there"):
        evaluate_arrangement(h, [("red4", ("bluew1",), None), ("grey0", (), None)])
    with pytest.raises(ValueError, match="one colour"):
        evaluate_arrangement(h, [("red4", (), None), ("grey0", ("redm1", "bluew1"), None)])
    with pytest.raises(ValueError, match="only beside a couple"):
        evaluate_arrangement(h, [("red4", ("redm1",), "redm2"), ("grey0", (), None)])
    with pytest.raises(ValueError, match="do not match"):
        evaluate_arrangement(h, [("red4", (), None)])
    with pytest.raises(ValueError, match="used twice"):
        evaluate_arrangement(h, [("red4", ("redm1", "redw1"), "redm1"), ("grey0", (), None)])


# -------------------------------------------------------------------- ranking


def test_ranking_applies_the_tie_break_then_shares() -> None:
    high = best(("red4",), ("redm3", "redm1"))  # 7, tie-break 1
    tied_low = best(("red4",), ("redm3", "bluem1"))  # 7, tie-break 1
    better_tb = best(("red4",), ("redm3", "bluem2"))  # 7, tie-break 2
    winner = best(("red4",), ("redm3", "redw1"))  # 8
    standings = ranking({"A": high, "B": tied_low, "C": better_tb, "D": winner})
    assert [(s.rank, s.name, s.shared) for s in standings] == [
        (1, "D", False),
        (2, "C", False),
        (3, "A", True),
        (3, "B", True),
    ]
    shared = ranking({"A": high, "B": tied_low})
    assert [s.rank for s in shared] == [1, 1]
    assert Counter(s.shared for s in shared) == Counter({True: 2})
