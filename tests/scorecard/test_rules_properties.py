"""Properties that hold for every throw of every scorecard game."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.scorecard import Scorecard, legal_options, validate_scorecard
from helpers import options

dice_st = st.lists(st.integers(1, 6), min_size=5, max_size=5)
game_st = st.sampled_from(sorted(SCORECARD_GAMES))


@given(game_st, dice_st, st.randoms(), st.integers(1, 3))
def test_order_of_dice_never_matters(game: str, dice: list[int], rnd, throw: int) -> None:  # type: ignore[no-untyped-def]
    shuffled = dice[:]
    rnd.shuffle(shuffled)
    assert options(game, dice, throw=throw) == options(game, shuffled, throw=throw)


@given(dice_st)
def test_chance_is_the_sum(dice: list[int]) -> None:
    for game in ("yahtzee", "yardzee", "dice-poker", "russian-poker"):
        card = (
            {}
            if game != "russian-poker"
            else {b: 0 for b in ("ones", "twos", "threes", "fours", "fives", "sixes")}
        )
        assert options(game, dice, card)["chance"].points == sum(dice)


@given(dice_st)
def test_upper_boxes_count_their_face(dice: list[int]) -> None:
    got = options("yahtzee", dice)
    for face, box in enumerate(("ones", "twos", "threes", "fours", "fives", "sixes"), 1):
        assert got[box].points == face * dice.count(face)


@given(game_st, dice_st)
def test_empty_card_offers_every_box_but_series_order(game: str, dice: list[int]) -> None:
    ruleset = SCORECARD_GAMES[game]
    got = options(game, dice)
    expected = {b.id for b in ruleset.boxes}
    if ruleset.series_order:
        expected = {ruleset.boxes[i].id for i in ruleset.upper_indices}
    assert set(got) == expected


@given(game_st, dice_st, st.integers(1, 3))
def test_every_offered_value_is_one_the_box_can_hold(
    game: str, dice: list[int], throw: int
) -> None:
    ruleset = SCORECARD_GAMES[game]
    achievable = points_table(ruleset).achievable
    for o in legal_options(ruleset, Scorecard(), dice, throw):
        assert o.points in achievable[o.box]
        validate_scorecard(ruleset, Scorecard({o.box: o.points}))


@given(dice_st)
def test_three_and_four_of_a_kind_are_the_sum_when_present(dice: list[int]) -> None:
    got = options("yahtzee", dice)
    top = max(dice.count(f) for f in range(1, 7))
    assert got["three_of_a_kind"].points == (sum(dice) if top >= 3 else 0)
    assert got["four_of_a_kind"].points == (sum(dice) if top >= 4 else 0)


@given(dice_st)
def test_large_straight_implies_small(dice: list[int]) -> None:
    for game in ("yahtzee", "dice-poker", "chute-5"):
        got = options(game, dice)
        if got["large_straight"].points:
            assert got["small_straight"].points
