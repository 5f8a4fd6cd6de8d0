"""Yardkle scoring: the table line by line, mixed set-asides at their best valuation, the
chance of a Yardkle exactly, and every multiset against an independent partition search."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement, product

import pytest
from hypothesis import given
from hypothesis import strategies as st
from yardkle_reference import best_points

from diceref.games.yardkle.rules.ruleset import YardkleRules
from diceref.games.yardkle.rules.scoring import is_yardkle, set_asides, valuation

# (dice, points, the combinations of the best split)
COMBINATIONS = [
    ([1], 100, ["single_1"]),
    ([5], 50, ["single_5"]),
    ([1, 1, 1], 300, ["three_1s"]),
    ([2, 2, 2], 200, ["three_2s"]),
    ([3, 3, 3], 300, ["three_3s"]),
    ([4, 4, 4], 400, ["three_4s"]),
    ([5, 5, 5], 500, ["three_5s"]),
    ([6, 6, 6], 600, ["three_6s"]),
    ([4, 4, 4, 4], 1000, ["four_of_a_kind"]),
    ([2, 2, 2, 2, 2], 2000, ["five_of_a_kind"]),
    ([6, 6, 6, 6, 6, 6], 3000, ["six_of_a_kind"]),
    ([3, 6, 1, 4, 2, 5], 1500, ["straight"]),
    ([2, 2, 3, 3, 6, 6], 1500, ["three_pairs"]),
    ([3, 3, 3, 3, 4, 4], 1500, ["four_of_a_kind_with_pair"]),
    ([2, 2, 2, 4, 4, 4], 2500, ["two_triplets"]),
]

# Set-asides that mix combinations, at their best valuation.
MIXED = [
    ([1, 5], 150, ["single_1", "single_5"]),
    ([1, 1, 5, 5], 300, ["single_1", "single_1", "single_5", "single_5"]),
    ([2, 2, 2, 1, 5], 350, ["three_2s", "single_1", "single_5"]),
    ([1, 1, 1, 1], 1000, ["four_of_a_kind"]),  # not three 1s + a 1 (400)
    ([5, 5, 5, 5, 5, 1], 2100, ["five_of_a_kind", "single_1"]),
    ([1, 1, 1, 5, 5, 5], 2500, ["two_triplets"]),  # not 300 + 500
    ([1, 1, 5, 5, 3, 3], 1500, ["three_pairs"]),  # not 300 from the 1s and 5s
    ([1, 1, 1, 1, 5, 5], 1500, ["four_of_a_kind_with_pair"]),  # not 1000 + 100
    ([5, 5, 5, 5, 1, 1], 1500, ["four_of_a_kind_with_pair"]),
    ([1, 1, 1, 1, 1, 1], 3000, ["six_of_a_kind"]),  # not two triplets or three pairs
    ([2, 2, 2, 2, 2, 2], 3000, ["six_of_a_kind"]),
    ([1, 1, 1, 1, 1, 5], 2050, ["five_of_a_kind", "single_5"]),
    ([4, 4, 4, 1, 1], 600, ["three_4s", "single_1", "single_1"]),
    ([3, 3, 3, 3, 1, 5], 1150, ["four_of_a_kind", "single_1", "single_5"]),
]

NOT_SCORING = [[2], [3, 4], [1, 2], [2, 2], [2, 2, 3, 3], [1, 1, 1, 2], [2, 3, 4, 6, 6, 2]]

# RULES.md: chance that n dice show nothing to set aside.
YARDKLE_CHANCE = {
    1: Fraction(2, 3),
    2: Fraction(4, 9),
    3: Fraction(5, 18),
    4: Fraction(17, 108),
    5: Fraction(25, 324),
    6: Fraction(5, 216),
}


@pytest.mark.parametrize(("dice", "points", "parts"), COMBINATIONS + MIXED)
def test_every_combination_and_mix_scores_its_best_split(
    dice: list[int], points: int, parts: list[str]
) -> None:
    v = valuation(dice)
    assert v is not None
    assert v.points == points
    assert sorted(p.combination.id for p in v.parts) == sorted(parts)
    assert sorted(d for p in v.parts for d in p.dice) == sorted(dice)
    assert sum(p.points for p in v.parts) == points


@pytest.mark.parametrize("dice", NOT_SCORING)
def test_dice_that_do_not_all_score_have_no_valuation(dice: list[int]) -> None:
    assert valuation(dice) is None


@pytest.mark.parametrize("n", sorted(YARDKLE_CHANCE))
def test_yardkle_chance_is_exact(n: int) -> None:
    yardkles = sum(is_yardkle(roll) for roll in product(range(1, 7), repeat=n))
    assert Fraction(yardkles, 6**n) == YARDKLE_CHANCE[n]


def test_every_multiset_matches_an_independent_partition_search() -> None:
    for n in range(1, 7):
        for dice in combinations_with_replacement(range(1, 7), n):
            v = valuation(dice)
            assert (None if v is None else v.points) == best_points(dice), dice


def test_three_ones_is_a_parameter() -> None:
    thousand = YardkleRules(three_ones=1000)
    assert valuation([1, 1, 1], thousand).points == 1000  # type: ignore[union-attr]
    # Four 1s: three 1s and a single 1 (1,100) beat four of a kind (1,000).
    four = valuation([1, 1, 1, 1], thousand)
    assert four is not None and four.points == 1100
    for dice in combinations_with_replacement(range(1, 7), 4):
        v = valuation(dice, thousand)
        assert (None if v is None else v.points) == best_points(dice, 1000), dice


def test_set_asides_of_a_throw_are_all_scoring_sub_multisets() -> None:
    throw = [1, 1, 5, 2, 2, 2]
    found = {s.dice: s.points for s in set_asides(throw)}
    expected = {}
    for k in range(1, 7):
        for sub in set(combinations_with_replacement(sorted(throw), k)):
            if Counter(sub) <= Counter(throw) and best_points(sub) is not None:
                expected[tuple(sorted(sub))] = best_points(sub)
    assert found == expected
    assert max(found.values()) == 450
    assert set_asides(throw)[0].points == 450  # best first


@given(st.lists(st.integers(1, 6), min_size=1, max_size=6))
def test_set_asides_are_consistent(throw: list[int]) -> None:
    options = set_asides(throw)
    assert is_yardkle(throw) == (not options)
    points = [o.points for o in options]
    assert points == sorted(points, reverse=True)
    for o in options:
        assert Counter(o.dice) <= Counter(throw)
        assert sorted(d for p in o.parts for d in p.dice) == list(o.dice)
        assert sum(p.points for p in o.parts) == o.points


@given(
    st.lists(st.integers(1, 6), min_size=1, max_size=3),
    st.lists(st.integers(1, 6), min_size=1, max_size=3),
)
def test_a_union_scores_at_least_its_parts(a: list[int], b: list[int]) -> None:
    va, vb = valuation(a), valuation(b)
    if va is not None and vb is not None:
        union = valuation(a + b)
        assert union is not None and union.points >= va.points + vb.points


def test_groups_of_one_face_are_a_named_reading() -> None:
    """With `groups_distinct_faces` off, four 2s and two 3s are also three pairs and six 2s
    two triplets; the best valuation keeps every score the same."""
    loose = YardkleRules(groups_distinct_faces=False)
    for n in range(1, 7):
        for dice in combinations_with_replacement(range(1, 7), n):
            a, b = valuation(dice), valuation(dice, loose)
            assert (a and a.points) == (b and b.points), dice
    cheap_six = YardkleRules(groups_distinct_faces=False, six_of_a_kind=1000)
    six = valuation([2, 2, 2, 2, 2, 2], cheap_six)
    assert six is not None and six.points == 2500
    assert [p.combination.id for p in six.parts] == ["two_triplets"]
