"""Every Joker branch of every game, and the extra five-of-a-kind bonus."""

from __future__ import annotations

import pytest

from helpers import fill, options

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
YAHTZEE_LOWER = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "chance",
)
FULL_VALUE_FOURS = {
    "three_of_a_kind": 20,
    "four_of_a_kind": 20,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 40,
    "chance": 20,
}


class TestYahtzeeForcedJoker:
    def test_box_open_scores_naturally(self) -> None:
        got = options("yahtzee", [4, 4, 4, 4, 4])
        assert got["yahtzee"].points == 50
        assert got["full_house"].points == 0 and got["large_straight"].points == 0
        assert all(o.bonus == 0 for o in got.values())
        assert len(got) == 13

    def test_matching_upper_box_must_take_it(self) -> None:
        got = options("yahtzee", [4, 4, 4, 4, 4], {"yahtzee": 50})
        assert list(got) == ["fours"]
        assert got["fours"].points == 20 and got["fours"].bonus == 100

    def test_then_any_lower_box_at_full_value(self) -> None:
        got = options("yahtzee", [4, 4, 4, 4, 4], {"yahtzee": 50, "fours": 12})
        assert set(got) == set(YAHTZEE_LOWER)
        assert {b: o.points for b, o in got.items()} == FULL_VALUE_FOURS
        assert all(o.bonus == 100 for o in got.values())

    def test_only_lower_boxes_still_open_are_offered(self) -> None:
        card = {"yahtzee": 50, "fours": 12, "full_house": 25, "chance": 22}
        got = options("yahtzee", [4, 4, 4, 4, 4], card)
        assert set(got) == set(YAHTZEE_LOWER) - {"full_house", "chance"}

    def test_then_an_open_upper_box_for_zero(self) -> None:
        card = fill("yahtzee", {"yahtzee": 50, "fours": 12}, {"ones", "sixes"})
        got = options("yahtzee", [4, 4, 4, 4, 4], card)
        assert {b: (o.points, o.bonus) for b, o in got.items()} == {
            "ones": (0, 100),
            "sixes": (0, 100),
        }

    def test_scratched_box_still_forces_the_joker_without_bonus(self) -> None:
        got = options("yahtzee", [4, 4, 4, 4, 4], {"yahtzee": 0})
        assert list(got) == ["fours"] and got["fours"].bonus == 0
        got = options("yahtzee", [4, 4, 4, 4, 4], {"yahtzee": 0, "fours": 8})
        assert {b: o.points for b, o in got.items()} == FULL_VALUE_FOURS
        assert all(o.bonus == 0 for o in got.values())
        card = fill("yahtzee", {"fours": 8}, {"twos"})
        assert {b: (o.points, o.bonus) for b, o in options("yahtzee", [4] * 5, card).items()} == {
            "twos": (0, 0)
        }

    def test_matching_upper_box_placement_can_also_reach_the_upper_bonus(self) -> None:
        card = {"yahtzee": 50, "ones": 3, "twos": 6, "threes": 9, "fives": 15, "sixes": 18}
        got = options("yahtzee", [4, 4, 4, 4, 4], card)
        assert got["fours"].points == 20 and got["fours"].bonus == 100 + 35


class TestYardzeeFreeChoiceJoker:
    def test_matching_upper_box_must_take_it(self) -> None:
        got = options("yardzee", [6, 6, 6, 6, 6], {"yahtzee": 50})
        assert list(got) == ["sixes"] and got["sixes"].bonus == 100

    def test_otherwise_any_open_box_upper_for_zero(self) -> None:
        got = options("yardzee", [4, 4, 4, 4, 4], {"yahtzee": 50, "fours": 12})
        expected = {u: 0 for u in UPPER if u != "fours"} | FULL_VALUE_FOURS
        assert {b: o.points for b, o in got.items()} == expected
        assert all(o.bonus == 100 for o in got.values())

    def test_scratched_box_joker_without_bonus(self) -> None:
        got = options("yardzee", [4, 4, 4, 4, 4], {"yahtzee": 0, "fours": 12})
        assert got["ones"].points == 0 and got["full_house"].points == 25
        assert all(o.bonus == 0 for o in got.values())


class TestDicePokerJoker:
    def test_matching_left_box_first(self) -> None:
        got = options("dice-poker", [3, 3, 3, 3, 3], {"poker": 50})
        assert list(got) == ["threes"] and got["threes"].points == 15
        assert got["threes"].bonus == 100

    def test_then_right_boxes_at_full_value(self) -> None:
        got = options("dice-poker", [3, 3, 3, 3, 3], {"poker": 50, "threes": 9})
        assert {b: o.points for b, o in got.items()} == {
            "pair": 15,
            "two_pairs": 15,
            "three_of_a_kind": 15,
            "four_of_a_kind": 15,
            "full_house": 25,
            "small_straight": 30,
            "large_straight": 40,
            "chance": 15,
        }
        assert all(o.bonus == 100 for o in got.values())

    def test_then_zero_in_a_left_box(self) -> None:
        card = fill("dice-poker", {"poker": 50}, {"ones", "sixes"})
        got = options("dice-poker", [3, 3, 3, 3, 3], card)
        assert {b: (o.points, o.bonus) for b, o in got.items()} == {
            "ones": (0, 100),
            "sixes": (0, 100),
        }

    def test_no_joker_and_no_bonus_when_the_poker_box_holds_zero(self) -> None:
        got = options("dice-poker", [3, 3, 3, 3, 3], {"poker": 0})
        assert "ones" in got and got["threes"].points == 15
        assert got["two_pairs"].points == 0 and got["full_house"].points == 0
        assert all(o.bonus == 0 for o in got.values())


@pytest.mark.parametrize("game", ["russian-poker", "chute-5"])
def test_games_without_joker_score_five_of_a_kind_naturally(game: str) -> None:
    five_box = {"russian-poker": "poker", "chute-5": "chute_5"}[game]
    card = fill(game, {}, {five_box, "full_house", "small_straight", "fours", "twos"})
    if game == "russian-poker":
        card = fill(game, {}, {five_box, "full_house", "small_straight"})
    got = options(game, [4, 4, 4, 4, 4], card)
    assert got["full_house"].points == 0 and got["small_straight"].points == 0
    assert got[five_box].points > 0
    assert all(o.bonus == 0 for o in got.values())


def test_second_five_of_a_kind_in_a_game_without_joker_gets_no_bonus() -> None:
    got = options("chute-5", [4, 4, 4, 4, 4], {"chute_5": 20})
    assert all(o.bonus == 0 for o in got.values())
    assert got["fours"].points == 5 and len(got) == 12


class TestYardzeeVerhoeffConvention:
    """matching_upper_forced=False: natural values anywhere while the matching box is open."""

    def test_matching_box_open_any_box_natural_value(self) -> None:
        from diceref.games.scorecard.rules.games import variant
        from diceref.games.scorecard.rules.scorecard import Scorecard, legal_options

        ruleset = variant("yardzee", matching_upper_forced=False)
        got = {
            o.box: (o.points, o.bonus)
            for o in legal_options(ruleset, Scorecard({"yahtzee": 50}), [4, 4, 4, 4, 4])
        }
        assert got["fours"] == (20, 100)
        assert got["full_house"] == (0, 100) and got["chance"] == (20, 100)
        assert len(got) == 12

    def test_matching_box_filled_joker_values(self) -> None:
        from diceref.games.scorecard.rules.games import variant
        from diceref.games.scorecard.rules.scorecard import Scorecard, legal_options

        ruleset = variant("yardzee", matching_upper_forced=False)
        got = {
            o.box: o.points
            for o in legal_options(ruleset, Scorecard({"yahtzee": 50, "fours": 8}), [4, 4, 4, 4, 4])
        }
        assert got["full_house"] == 25 and got["ones"] == 0
