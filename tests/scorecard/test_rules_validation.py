"""Scorecards no legal game can produce are rejected with the field and the reason."""

from __future__ import annotations

import pytest

from diceref.core.errors import RuleViolation
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.scorecard import Scorecard, validate_dice, validate_scorecard


def reject(game: str, boxes: dict[str, int], extra: int = 0) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        validate_scorecard(SCORECARD_GAMES[game], Scorecard(boxes, extra))
    return info.value


def test_unknown_box() -> None:
    exc = reject("yahtzee", {"pair": 10})
    assert exc.field == "scorecard.filled.pair" and "no box" in exc.reason


@pytest.mark.parametrize(
    ("game", "box", "value"),
    [
        ("yahtzee", "ones", 7),
        ("yahtzee", "sixes", 4),
        ("yahtzee", "full_house", 20),
        ("yahtzee", "chance", 4),
        ("yahtzee", "three_of_a_kind", 4),
        ("yahtzee", "yahtzee", 100),
        ("dice-poker", "pair", 3),
        ("russian-poker", "ones", -4),
        ("russian-poker", "pair", 3),
        ("russian-poker", "poker", 57),
        ("chute-5", "fives", 7),
        ("chute-5", "break", 21),
    ],
)
def test_impossible_values(game: str, box: str, value: int) -> None:
    exc = reject(game, {box: value})
    assert exc.field == f"scorecard.filled.{box}" and str(value) in exc.reason


@pytest.mark.parametrize(
    ("game", "box", "value"),
    [
        ("yahtzee", "large_straight", 40),
        ("yahtzee", "yahtzee", 0),
        ("russian-poker", "ones", 2),
        ("russian-poker", "ones", -3),
        ("chute-5", "fives", 6),
        ("dice-poker", "two_pairs", 30),  # only through a Joker: 6-6-6-6-6 at full value
    ],
)
def test_possible_values_pass(game: str, box: str, value: int) -> None:
    boxes = {box: value}
    if game == "russian-poker" and box not in ("ones",):
        boxes = {b: 0 for b in ("ones", "twos", "threes", "fours", "fives", "sixes")} | boxes
    validate_scorecard(SCORECARD_GAMES[game], Scorecard(boxes))


def test_russian_second_series_before_the_first_is_complete() -> None:
    exc = reject("russian-poker", {"ones": 0, "pair": 12})
    assert exc.field == "scorecard.filled.pair" and "second series" in exc.reason


@pytest.mark.parametrize(
    ("boxes", "extra", "fragment"),
    [
        ({"yahtzee": 0, "fours": 20}, 100, "without a basis"),
        ({"fours": 20}, 100, "without a basis"),
        ({"yahtzee": 50, "fours": 20}, 150, "multiple of 100"),
        ({"yahtzee": 50, "fours": 20}, 200, "need 2 boxes"),
    ],
)
def test_extra_bonus_without_a_basis(boxes: dict[str, int], extra: int, fragment: str) -> None:
    exc = reject("yahtzee", boxes, extra)
    assert exc.field == "scorecard.extra_bonus" and fragment in exc.reason


def test_extra_bonus_in_a_game_without_one() -> None:
    exc = reject("chute-5", {"chute_5": 20, "fours": 5}, 100)
    assert "no extra" in exc.reason


def test_valid_extra_bonus() -> None:
    validate_scorecard(
        SCORECARD_GAMES["yahtzee"], Scorecard({"yahtzee": 50, "fours": 20, "chance": 20}, 200)
    )


@pytest.mark.parametrize(
    ("dice", "field"), [([1, 2, 3, 4], "dice"), ([1, 2, 3, 4, 7], "dice[4]"), ([0] * 5, "dice[0]")]
)
def test_bad_dice(dice: list[int], field: str) -> None:
    with pytest.raises(RuleViolation) as info:
        validate_dice(dice)
    assert info.value.field == field
