"""Refereeing one Yardkle turn: points, hot dice, the entry rule, and every rejection with the
field and the rule it names."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from diceref.core.errors import RuleViolation
from diceref.games.yardkle.rules.scoring import set_asides
from diceref.games.yardkle.rules.turns import (
    ThrowRecord,
    TurnEnd,
    adjudicate_turn,
    validate_turn_state,
)

BANK, YARDKLE = TurnEnd.BANK, TurnEnd.YARDKLE


def throws(*pairs: tuple[list[int], list[int]]) -> list[ThrowRecord]:
    return [ThrowRecord(tuple(d), tuple(k)) for d, k in pairs]


def test_a_banked_turn_adds_its_points() -> None:
    turn = throws(([1, 1, 5, 2, 3, 6], [1, 1]), ([5, 5, 5, 2], [5, 5, 5]), ([4], []))
    # The last throw (a single 4) is a Yardkle: all 700 points are lost.
    lost = adjudicate_turn(turn, YARDKLE, banked_total=1000)
    assert (lost.turn_points, lost.points, lost.new_total) == (700, 0, 1000)
    assert lost.throws[-1].yardkle
    kept = adjudicate_turn(turn[:2], BANK, banked_total=1000)
    assert (kept.turn_points, kept.points, kept.new_total) == (700, 700, 1700)
    assert [t.running_total for t in kept.throws] == [200, 700]
    assert [t.dice_left for t in kept.throws] == [4, 1]
    assert not kept.entry_rule.applied


def test_hot_dice_throw_all_six_again() -> None:
    turn = throws(
        ([1, 1, 1, 5, 5, 2], [1, 1, 1, 5, 5]), ([5], [5]), ([2, 2, 2, 3, 4, 6], [2, 2, 2])
    )
    result = adjudicate_turn(turn, BANK, banked_total=0)
    assert [t.hot_dice for t in result.throws] == [False, True, False]
    assert [t.dice_left for t in result.throws] == [1, 6, 3]
    assert result.points == 300 + 100 + 50 + 200
    assert result.entry_rule.applied and result.entry_rule.met and result.on_pad


def test_hot_dice_may_be_banked() -> None:
    result = adjudicate_turn(throws(([2, 2, 3, 3, 4, 4], [2, 2, 3, 3, 4, 4])), BANK, 0)
    assert result.points == 1500 and result.throws[0].hot_dice


def test_the_entry_rule_is_met_at_exactly_the_threshold() -> None:
    result = adjudicate_turn(throws(([5, 5, 5, 2, 3, 4], [5, 5, 5])), BANK, 0)
    assert result.points == 500 and result.entry_rule.met


def test_a_yardkle_on_the_first_throw() -> None:
    result = adjudicate_turn(throws(([2, 2, 3, 4, 6, 6], [])), YARDKLE, 0)
    assert result.points == 0 and result.new_total == 0 and not result.on_pad
    assert result.entry_rule.applied and not result.entry_rule.met


# (turn, end, banked total, field, words the reason must contain)
REJECTIONS = [
    (  # dice that were not thrown
        throws(([1, 2, 3, 4, 6, 6], [1, 5])),
        BANK,
        1000,
        "throws[0].set_aside",
        ["throw 1", "one 5 set aside, none thrown"],
    ),
    (  # a set-aside that does not score completely
        throws(([1, 1, 5, 2, 3, 6], [1, 1]), ([1, 2, 3, 6], [1, 2])),
        BANK,
        1000,
        "throws[1].set_aside",
        ["throw 2", "1-2", "does not score completely"],
    ),
    (  # no set-aside after a throw that scores
        throws(([1, 1, 5, 2, 3, 6], [])),
        BANK,
        1000,
        "throws[0].set_aside",
        ["throw 1", "nothing set aside", "at least one scoring die"],
    ),
    (  # banking under 500 before getting on the pad
        throws(([1, 1, 5, 2, 3, 6], [1, 1, 5])),
        BANK,
        0,
        "end",
        ["banking 250", "throw 1", "entry rule", "500"],
    ),
    (  # throwing again after a Yardkle
        throws(([1, 2, 2, 3, 4, 6], [1]), ([2, 3, 4, 4, 6], []), ([1, 2, 3, 4, 6], [1])),
        YARDKLE,
        1000,
        "throws[2]",
        ["after the Yardkle", "throw 2", "ends the turn"],
    ),
    (  # the wrong number of dice
        throws(([1, 1, 5, 2, 3, 6], [1]), ([1, 2, 3, 4], [1])),
        BANK,
        1000,
        "throws[1].dice",
        ["throw 2", "5 dice left"],
    ),
    (  # dice after hot dice must be all six again
        throws(([5, 5, 5, 1, 1, 1], [5, 5, 5, 1, 1, 1]), ([1, 2], [1])),
        BANK,
        1000,
        "throws[1].dice",
        ["6 dice left"],
    ),
    (  # a Yardkle banked
        throws(([1, 2, 3, 4, 6, 6], [1]), ([2, 2, 3, 4, 6], [])),
        BANK,
        1000,
        "end",
        ["throw 2", "Yardkle", "cannot be banked"],
    ),
    (  # dice set aside from a Yardkle
        throws(([2, 2, 3, 4, 6, 6], [2, 2])),
        YARDKLE,
        1000,
        "throws[0].set_aside",
        ["throw 1", "Yardkle"],
    ),
    (  # a Yardkle claimed for a throw that scores
        throws(([1, 2, 3, 4, 6, 6], [1])),
        YARDKLE,
        1000,
        "end",
        ["throw 1", "scores", "cannot end in a Yardkle"],
    ),
    (  # a banked total no game can produce
        throws(([1, 2, 3, 4, 6, 6], [1])),
        BANK,
        250,
        "banked_total",
        ["below the entry minimum"],
    ),
    (
        throws(([1, 2, 3, 4, 6, 6], [1])),
        BANK,
        1025,
        "banked_total",
        ["multiple of 50"],
    ),
    (  # a die that is not a die
        throws(([1, 2, 3, 4, 7, 6], [1])),
        BANK,
        1000,
        "throws[0].dice[4]",
        ["1 to 6"],
    ),
    ([], BANK, 1000, "throws", ["at least one throw"]),
]


@pytest.mark.parametrize(("turn", "end", "total", "field", "words"), REJECTIONS)
def test_every_rejection_names_the_throw_and_the_rule(
    turn: list[ThrowRecord], end: TurnEnd, total: int, field: str, words: list[str]
) -> None:
    with pytest.raises(RuleViolation) as caught:
        adjudicate_turn(turn, end, total)
    assert caught.value.field == field
    for word in words:
        assert word in caught.value.reason


def test_fields_carry_the_caller_prefix() -> None:
    with pytest.raises(RuleViolation) as caught:
        adjudicate_turn(throws(([1, 2, 3, 4, 6, 6], [2])), BANK, 1000, where="turns[3]")
    assert caught.value.field == "turns[3].throws[0].set_aside"


def test_a_mid_turn_state_must_fit_its_dice() -> None:
    validate_turn_state([1, 2, 3], 300)
    validate_turn_state([1, 2, 3, 4, 5, 6], 0)
    for dice, points in (([1, 2, 3], 0), ([1], 75)):
        with pytest.raises(RuleViolation) as caught:
            validate_turn_state(dice, points)
        assert caught.value.field == "turn_points"


@given(st.randoms(use_true_random=False))
def test_random_legal_turns_add_up(rng: random.Random) -> None:
    """Play random legal set-asides; the referee's totals are the sums of their points."""
    left, running = 6, 0
    records: list[ThrowRecord] = []
    expected: list[int] = []
    end = YARDKLE
    for _ in range(30):  # every set-aside scores at least 50, so 10 throws reach 500
        dice = [rng.randint(1, 6) for _ in range(left)]
        options = set_asides(dice)
        if not options:
            records.append(ThrowRecord(tuple(dice)))
            break
        pick = rng.choice(options)
        records.append(ThrowRecord(tuple(dice), pick.dice))
        running += pick.points
        expected.append(running)
        left = left - len(pick.dice) or 6
        if running >= 500 and rng.random() < 0.4:
            end = BANK
            break
    else:
        end = BANK
    result = adjudicate_turn(records, end, banked_total=0)
    assert [t.running_total for t in result.throws if not t.yardkle] == expected
    assert result.points == (running if end is BANK else 0)
    assert result.new_total == result.points


def test_the_worked_turns_of_the_docs() -> None:
    """docs/rules/yardkle.md, worked turns 1 and 2, with the reasons it quotes."""
    first = throws(
        ([1, 1, 1, 2, 5, 5], [1, 1, 1, 5, 5]), ([5], [5]), ([2, 2, 2, 3, 4, 6], [2, 2, 2])
    )
    result = adjudicate_turn(first, BANK, banked_total=0)
    assert [t.running_total for t in result.throws] == [400, 450, 650]
    assert result.new_total == 650 and result.on_pad
    with pytest.raises(RuleViolation) as caught:
        adjudicate_turn(first[:2], BANK, banked_total=0)
    assert caught.value.field == "end"
    assert caught.value.reason.startswith("banking 450 after throw 2 before getting on the pad")

    second = throws(([1, 2, 3, 4, 6, 6], [1]), ([2, 2, 3, 4, 6], []))
    result = adjudicate_turn(second, YARDKLE, banked_total=2000)
    assert (result.turn_points, result.points, result.new_total) == (100, 0, 2000)
    with pytest.raises(RuleViolation) as caught:
        adjudicate_turn([*second, ThrowRecord((1, 2, 3, 4, 5))], YARDKLE, banked_total=2000)
    assert caught.value.field == "throws[2]"
    assert caught.value.reason == (
        "throwing again after the Yardkle on throw 2 (2-2-3-4-6): a Yardkle ends the turn"
    )
