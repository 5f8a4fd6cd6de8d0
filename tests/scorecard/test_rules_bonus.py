"""Upper bonuses at their thresholds, and totals."""

from __future__ import annotations

import pytest

from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.scorecard import Scorecard, card_total, upper_bonus_secured
from helpers import options


@pytest.mark.parametrize(("ones", "bonus"), [(2, 0), (3, 35), (4, 35)], ids=["62", "63", "64"])
def test_yahtzee_upper_bonus_at_63(ones: int, bonus: int) -> None:
    card = {"ones": ones, "twos": 6, "threes": 9, "fours": 12, "fives": 15}
    got = options("yahtzee", [6, 6, 6, 1, 2], card)
    assert got["sixes"].points == 18
    assert got["sixes"].bonus == bonus
    full = {**card, "sixes": 18}
    assert card_total(SCORECARD_GAMES["yahtzee"], Scorecard(full)) == sum(full.values()) + bonus


def test_yahtzee_bonus_counts_as_soon_as_reached_and_once() -> None:
    ruleset = SCORECARD_GAMES["yahtzee"]
    card = {"fours": 20, "fives": 25, "sixes": 18}
    assert upper_bonus_secured(ruleset, card)
    assert card_total(ruleset, Scorecard(card)) == 63 + 35
    assert options("yahtzee", [1, 1, 1, 2, 3], card)["ones"].bonus == 0


@pytest.mark.parametrize(("ones", "bonus"), [(2, 0), (3, 0), (4, 35)], ids=["62", "63", "64"])
def test_dice_poker_bonus_needs_more_than_63(ones: int, bonus: int) -> None:
    card = {"ones": ones, "twos": 6, "threes": 9, "fours": 12, "fives": 15}
    assert options("dice-poker", [6, 6, 6, 1, 2], card)["sixes"].bonus == bonus


@pytest.mark.parametrize(("ones", "bonus"), [(-1, 0), (0, 50), (1, 50)], ids=["-1", "0", "+1"])
def test_russian_bonus_at_zero_settles_when_the_series_ends(ones: int, bonus: int) -> None:
    card = {"ones": ones, "twos": 0, "threes": 0, "fours": 0, "fives": 0}
    got = options("russian-poker", [6, 6, 6, 1, 2], card)
    assert got["sixes"].points == 0
    assert got["sixes"].bonus == bonus


def test_russian_bonus_exact_thresholds() -> None:
    ruleset = SCORECARD_GAMES["russian-poker"]
    base = {"ones": 0, "twos": 0, "threes": 0, "fours": 0, "fives": 0}
    assert not upper_bonus_secured(ruleset, {**base, "sixes": -6})
    assert upper_bonus_secured(ruleset, {**base, "sixes": 0})
    assert not upper_bonus_secured(ruleset, {**base, "ones": -1, "sixes": 0})
    # +6 already covers the worst the open boxes could do? No: -3 x 6 = -18 is worse.
    assert not upper_bonus_secured(ruleset, {"sixes": 6})
    # a margin large enough for every open box's worst case settles it early
    assert upper_bonus_secured(ruleset, {"sixes": 12, "fives": 10, "fours": 8, "threes": 6})


@pytest.mark.parametrize(("twos", "bonus"), [(2, 0), (3, 10)], ids=["20", "21"])
def test_chute_bonus_at_21(twos: int, bonus: int) -> None:
    card = {"aces": 0, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}  # 18
    dice = [2, 2, 2, 2, 5] if twos == 3 else [2, 2, 2, 1, 5]
    got = options("chute-5", dice, card)
    assert got["twos"].points == twos
    assert got["twos"].bonus == bonus
