"""The rulebooks' own worked examples, scored by the service."""

from __future__ import annotations

import pytest

from helpers import points

ITALIAN_EXAMPLES = [
    # (dice, box, points as the Italian text prints them, unless noted)
    ([5, 5, 3, 2, 1], "pair", 16),
    ([2, 2, 5, 5, 1], "two_pairs", 15),
    # The text prints 21 for 5-5-5-2-5, whose dice add up to 22: the rule it states
    # ("una somma di tutti i dadi") gives 22; see docs/rules/dice-poker.md.
    ([5, 5, 5, 2, 5], "three_of_a_kind", 22),
    ([1, 1, 1, 1, 3], "four_of_a_kind", 7),
    ([2, 2, 2, 3, 3], "full_house", 25),
    ([2, 3, 4, 5, 5], "small_straight", 30),
    ([2, 3, 4, 5, 6], "large_straight", 40),
    ([3, 3, 3, 3, 3], "poker", 50),
    ([2, 3, 5, 6, 6], "chance", 22),
]


@pytest.mark.parametrize(("dice", "box", "expected"), ITALIAN_EXAMPLES)
def test_italian_examples(dice: list[int], box: str, expected: int) -> None:
    assert points("dice-poker", dice)[box] == expected


def test_italian_examples_do_not_qualify_elsewhere() -> None:
    assert points("dice-poker", [5, 5, 3, 2, 1])["two_pairs"] == 0
    assert points("dice-poker", [2, 2, 5, 5, 1])["three_of_a_kind"] == 0
    assert points("dice-poker", [5, 5, 5, 2, 5])["four_of_a_kind"] == 22
    assert points("dice-poker", [2, 3, 4, 5, 5])["large_straight"] == 0


def test_dice_poker_two_pairs_reading() -> None:
    """Two pairs need two different faces: a full house counts, four of a kind does not."""
    assert points("dice-poker", [2, 2, 2, 3, 3])["two_pairs"] == 12
    assert points("dice-poker", [4, 4, 4, 4, 1])["two_pairs"] == 0


def test_yardzee_three_fives() -> None:
    """The Yardzee text: three fives score 15 in Fives, 2 and 6 in Twos and Sixes, 0 else."""
    got = points("yardzee", [2, 5, 5, 5, 6])
    assert got["fives"] == 15
    assert (got["ones"], got["threes"], got["fours"]) == (0, 0, 0)
    assert (got["twos"], got["sixes"]) == (2, 6)
    assert got["three_of_a_kind"] == 23
    assert got["chance"] == 23


class TestChuteFiveWorkedTurns:
    """The leaflet's practice turns, as far as they are legible."""

    def test_fives_two_notches_and_one_notch(self) -> None:
        # Turn 1 ends with four fives: two notches. Reading: face + 1 = 6 (the scan's
        # low-contrast '7' and '3' contradict the legible Twos and Aces examples).
        assert points("chute-5", [5, 5, 5, 5, 2])["fives"] == 6
        assert points("chute-5", [5, 5, 5, 1, 2])["fives"] == 5
        assert points("chute-5", [5, 1, 2, 3, 4])["fives"] == 0

    def test_full_house(self) -> None:
        assert points("chute-5", [1, 1, 1, 4, 4])["full_house"] == 6

    def test_four_twos_score_three_in_twos_or_eight_as_four_of_a_kind(self) -> None:
        got = points("chute-5", [2, 2, 2, 2, 5])
        assert got["twos"] == 3
        assert got["four_of_a_kind"] == 8
        assert got["three_of_a_kind"] == 4

    def test_twos_one_notch_and_aces_two_notches(self) -> None:
        assert points("chute-5", [2, 2, 2, 4, 6])["twos"] == 2
        assert points("chute-5", [1, 1, 1, 1, 3])["aces"] == 2

    def test_big_zero_when_nothing_scores(self) -> None:
        got = points("chute-5", [1, 2, 4, 5, 1])
        assert set(got.values()) == {0}  # a Big Zero in any window

    def test_break_with_22(self) -> None:
        got = points("chute-5", [6, 6, 6, 3, 1])
        assert got["break"] == 8
        assert points("chute-5", [6, 6, 4, 3, 1])["break"] == 0  # 20 is not more than 20
        assert points("chute-5", [6, 6, 4, 4, 1])["break"] == 8  # 21

    def test_straights(self) -> None:
        assert points("chute-5", [2, 3, 4, 5, 6])["large_straight"] == 9
        assert points("chute-5", [2, 3, 4, 5, 6])["small_straight"] == 7
        assert points("chute-5", [1, 2, 3, 4, 6])["small_straight"] == 7
        assert points("chute-5", [1, 2, 3, 4, 6])["large_straight"] == 0

    def test_chute_5(self) -> None:
        got = points("chute-5", [4, 4, 4, 4, 4])
        assert got["chute_5"] == 20
        assert got["fours"] == 5  # five of a face: two notches
        assert got["four_of_a_kind"] == 8
        assert got["full_house"] == 0


class TestRussianPoker:
    def test_first_series_counts_against_three(self) -> None:
        assert points("russian-poker", [4, 4, 4, 1, 2])["fours"] == 0
        assert points("russian-poker", [4, 4, 1, 2, 3])["fours"] == -4
        assert points("russian-poker", [1, 2, 3, 5, 6])["fours"] == -12
        assert points("russian-poker", [4, 4, 4, 4, 2])["fours"] == 4
        assert points("russian-poker", [4, 4, 4, 4, 4])["fours"] == 8

    def test_first_series_is_never_doubled(self) -> None:
        assert points("russian-poker", [4, 4, 4, 4, 2], throw=1)["fours"] == 4

    def test_second_series_sum_of_forming_dice(self) -> None:
        full = {
            "ones": 0,
            "twos": 0,
            "threes": 0,
            "fours": 0,
            "fives": 0,
            "sixes": 0,
        }
        from helpers import options

        got = {b: o.points for b, o in options("russian-poker", [5, 5, 6, 6, 2], full).items()}
        assert got["pair"] == 12  # best pair: sixes
        assert got["two_pairs"] == 22
        assert got["three_of_a_kind"] == 0
        assert got["chance"] == 24
        got = {b: o.points for b, o in options("russian-poker", [3, 3, 3, 2, 2], full).items()}
        assert got["full_house"] == 13
        assert got["three_of_a_kind"] == 9
        assert got["two_pairs"] == 10
        got = {b: o.points for b, o in options("russian-poker", [1, 2, 3, 4, 5], full).items()}
        assert got["small_straight"] == 15
        assert got["large_straight"] == 0
        got = {b: o.points for b, o in options("russian-poker", [2, 3, 4, 5, 6], full).items()}
        assert got["large_straight"] == 20
        assert got["small_straight"] == 0

    def test_first_throw_doubles_all_but_chance_and_poker_premium_not_doubled(self) -> None:
        from helpers import options

        full = {b: 0 for b in ("ones", "twos", "threes", "fours", "fives", "sixes")}
        first = {b: o.points for b, o in options("russian-poker", [6, 6, 6, 6, 6], full, 1).items()}
        later = {b: o.points for b, o in options("russian-poker", [6, 6, 6, 6, 6], full, 3).items()}
        assert later["poker"] == 30 + 50
        assert first["poker"] == 60 + 50
        assert first["four_of_a_kind"] == 48 and later["four_of_a_kind"] == 24
        assert first["chance"] == later["chance"] == 30
        first = {b: o.points for b, o in options("russian-poker", [2, 3, 4, 5, 6], full, 1).items()}
        assert first["large_straight"] == 40

    def test_second_series_waits_for_the_first(self) -> None:
        got = points("russian-poker", [6, 6, 6, 6, 6])
        assert set(got) == {"ones", "twos", "threes", "fours", "fives", "sixes"}
