"""The worked examples of the rule book (seeds/001), replayed move by move.

Each example is reproduced by applying the rolls as chance outcomes, then
checking what the rule book says is and is not allowed.
"""

from __future__ import annotations

import pytest

import alea.iacta as iacta
from tests.iacta.helpers import play, started


def test_temple_example_antonio_and_bruto() -> None:
    """Antonio places a 5 (1 tile); Bruto two dice 3+6=9 (2 tiles); Antonio adds two (2 tiles)."""
    s = started(4)  # Antonio = seat 0, Bruto = seat 1
    play(s, "roll:12345556")
    assert "T:5" in s.legal_actions()
    play(s, "T:5 fortuna:2")
    assert s.fortuna_drawn[0] == [2]
    play(s, "roll:13456666")
    # Two dice with a sum above 5 are needed: 3+6 qualifies, 1+3 does not, a lone die does not.
    assert "T:36" in s.legal_actions()
    assert "T:13" not in s.legal_actions()
    assert "T:6" not in s.legal_actions()
    play(s, "T:36 fortuna:1 fortuna:3")
    assert s.fortuna_drawn[1] == [1, 3]
    play(s, "roll:11122345 F:1 roll:11122345 F:1")  # seats 2 and 3 go to the Forum
    # Antonio now needs three dice in total with a sum above 9: he adds two to his 5.
    play(s, "roll:1234666")
    legal = s.legal_actions()
    assert "T:46" in legal and "T:66" in legal  # 5+4+6=15, 5+6+6=17
    assert "T:12" not in legal  # 5+1+2=8 is not above 9
    assert "T:4" not in legal and "T:466" not in legal  # exactly three dice in the group
    with pytest.raises(iacta.IllegalActionError, match="must grow to exactly 3: add 2 dice"):
        s.apply("T:4")
    with pytest.raises(iacta.IllegalActionError, match="more than the leading group's 9"):
        s.apply("T:12")
    play(s, "T:46")
    assert s.temple[0] == (4, 5, 6)
    assert s.current_player() == iacta.CHANCE
    play(s, "fortuna:3 fortuna:2")  # "he takes only two Fortuna tiles"
    assert s.fortuna_drawn[0] == [2, 3, 2]
    assert s.is_chance() and s.player == 1  # Bruto rolls next


def test_senate_example_claudio() -> None:
    """Claudio's 3-4-5 forbids another 3-4-5, allows 4-5-6 and 3-4-5-6; he may extend with a 2."""
    s = started(3)  # Claudio = seat 0
    play(s, "roll:12345566 S:345")
    assert s.senate[0] == (3, 5)
    play(s, "roll:13345566")
    legal = s.legal_actions()
    assert "S:345" not in legal
    assert "S:456" in legal and "S:3456" in legal
    with pytest.raises(iacta.IllegalActionError, match="already has the straight 3-4-5"):
        s.apply("S:345")
    play(s, "S:3456")
    play(s, "roll:11223345 S:2345")  # seat 2 takes 2-3-4-5 ...
    play(s, "roll:22446")  # ... so Claudio cannot extend to 2-3-4-5 with a 2 now
    assert "S:2" not in s.legal_actions()
    assert "S:26" in s.legal_actions()  # but 2 and 6 together make 2-3-4-5-6
    with pytest.raises(iacta.IllegalActionError, match="seat 2 already has the straight 2-3-4-5"):
        s.apply("S:2")


def test_senate_example_extension_when_free() -> None:
    """Without another 2-3-4-5 in the Senate, Claudio may extend 3-4-5 with a 2."""
    s = started(2)
    play(s, "roll:12345566 S:345 roll:11111111 C:1 roll:22446")
    assert "S:2" in s.legal_actions()
    play(s, "S:2")
    assert s.senate[0] == (2, 5)


def test_castrum_example_dario_and_antonio() -> None:
    """Dario's three 4s and two 5s, Antonio's two 4s, and the 4 Antonio cannot place."""
    s = started(2)  # Dario = seat 0, Antonio = seat 1
    play(s, "roll:12344445 C:444")
    play(s, "roll:11223445")
    assert "C:44" in s.legal_actions()  # same value as Dario's set, not the same amount
    play(s, "C:44")
    play(s, "roll:14455")
    legal = s.legal_actions()
    assert {"C:4", "C:44", "C:55", "C:5"} <= set(legal)  # add one or both 4s, or a set of 5s
    with pytest.raises(iacta.IllegalActionError, match="never two values in one turn"):
        s.apply("C:4455")
    play(s, "C:55")
    assert s.castrum == {(0, 4): 3, (1, 4): 2, (0, 5): 2}
    play(s, "roll:112345")  # Antonio rolls another 4
    assert "C:4" not in s.legal_actions()  # it would tie Dario's three 4s
    with pytest.raises(iacta.IllegalActionError, match="seat 0 already has a set of three 4s"):
        s.apply("C:4")
    # Had he rolled two 4s, he could have placed them (four 4s beat Dario's three).
    t = started(2)
    play(t, "roll:12344445 C:444 roll:11223445 C:44 roll:14455 C:55 roll:112344")
    assert "C:44" in t.legal_actions() and "C:4" not in t.legal_actions()


def test_forum_example_bruto_pushes_green_three_into_latrine() -> None:
    """Bruto (brown, seat 1) places 2 and 3; the green 3 at the end goes to the Latrine."""
    s = started(4)  # 6 columns; seat 3 is green
    play(s, "roll:11111111 F:1")  # gray 1
    play(s, "roll:22222222 F:2")  # brown 2
    play(s, "roll:22222222 F:2")  # blue 2
    play(s, "roll:33333333 F:3")  # green 3
    play(s, "roll:3333333 F:3")  # gray 3: row 1 2 2 3 3
    assert [v for v, _ in s.forum] == [1, 2, 2, 3, 3]
    assert s.forum[-1] == (3, 3)  # the green 3 is last (equal dice go to its left)
    play(s, "roll:1234555 F:23")
    assert s.forum == [(1, 0), (2, 1), (2, 2), (2, 1), (3, 1), (3, 0)]
    assert s.latrine[3] == 1  # the green 3 was pushed into the Latrine


def test_forum_die_may_not_push_itself_off() -> None:
    """A placement is illegal if the placed die would itself land beyond the last column."""
    s = started(2)  # 4 columns
    play(s, "roll:11111111 F:1 roll:11111111 F:1 roll:1111111 F:1 roll:1111111 F:1")
    play(s, "roll:111112")
    assert "F:1" in s.legal_actions()  # a 1 goes first and pushes the last 1 off
    assert "F:2" not in s.legal_actions()
    with pytest.raises(iacta.IllegalActionError, match="may not itself be pushed off"):
        s.apply("F:2")
