"""Scandinavian Yatzy (`yatzy`): the published examples, the two readings, no Joker, and
what `GET /games/yatzy` and `POST /score` answer.  See docs/rules/yatzy.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from diceref.core.dice import THROWS
from diceref.games.scorecard.rules.games import SCORECARD_GAMES, variant
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.scorecard import (
    RuleViolation,
    Scorecard,
    legal_options,
    validate_scorecard,
)
from helpers import loaded_rules

Client = TestClient[Litestar]
BOX_IDS = (
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "one_pair",
    "two_pairs",
    "three_of_a_kind",
    "four_of_a_kind",
    "small_straight",
    "large_straight",
    "full_house",
    "chance",
    "yatzy",
)
DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "yatzy.md"


def points(dice: list[int], **readings: bool) -> dict[str, int]:
    return {o.box: o.points for o in legal_options(variant("yatzy", **readings), Scorecard(), dice)}


def test_the_catalogue_has_yatzy_with_the_issue_box_ids() -> None:
    rules = SCORECARD_GAMES["yatzy"]
    assert rules.box_ids == BOX_IDS
    assert rules.box_ids[:6] == tuple(rules.boxes[i].id for i in rules.upper_indices)
    assert rules.upper_bonus.threshold == 63 and rules.upper_bonus.points == 50
    assert not rules.upper_bonus.strictly_greater
    assert rules.five_of_a_kind is None  # no Joker, no extra Yatzy bonus
    assert rules.throws_per_turn == 3 and rules.order.value == "free"
    assert rules.rules_hash == variant("yatzy").rules_hash


# dice -> the boxes the sources' examples name, with their points (docs/rules/yatzy.md)
EXAMPLES = [
    ([3, 3, 3, 6, 6], {"threes": 9, "sixes": 12, "full_house": 21, "one_pair": 12}),
    ([2, 5, 5, 5, 6], {"fives": 15, "twos": 2, "sixes": 6, "ones": 0}),
    ([5, 3, 3, 2, 1], {"one_pair": 6, "two_pairs": 0}),
    ([5, 3, 3, 4, 4], {"two_pairs": 14, "one_pair": 8}),
    ([5, 5, 6, 6, 1], {"two_pairs": 22}),
    ([1, 5, 5, 5, 5], {"two_pairs": 0, "full_house": 0, "four_of_a_kind": 20}),
    ([5, 3, 3, 3, 2], {"three_of_a_kind": 9}),
    ([2, 5, 5, 4, 5], {"three_of_a_kind": 15}),
    ([5, 4, 4, 4, 4], {"four_of_a_kind": 16, "three_of_a_kind": 12}),
    ([5, 5, 5, 4, 5], {"four_of_a_kind": 20}),
    ([1, 2, 3, 4, 5], {"small_straight": 15, "large_straight": 0, "chance": 15}),
    ([2, 3, 4, 5, 6], {"large_straight": 20, "small_straight": 0}),
    ([1, 2, 3, 4, 6], {"small_straight": 0, "large_straight": 0}),
    ([3, 5, 5, 3, 3], {"full_house": 19}),
    ([4, 4, 4, 2, 2], {"full_house": 16}),
    ([4, 4, 4, 1, 1], {"full_house": 14}),
    ([6, 6, 6, 5, 5], {"full_house": 28, "two_pairs": 22, "one_pair": 12}),
    ([1, 5, 4, 3, 3], {"chance": 16}),
    ([1, 1, 1, 1, 1], {"yatzy": 50, "ones": 5, "full_house": 0, "two_pairs": 0}),
    ([2, 2, 2, 2, 2], {"yatzy": 50, "three_of_a_kind": 6, "four_of_a_kind": 8}),
]


@pytest.mark.parametrize(("dice", "expected"), EXAMPLES)
def test_published_examples(dice: list[int], expected: dict[str, int]) -> None:
    got = points(dice)
    assert len(got) == 15
    assert {box: got[box] for box in expected} == expected


def test_the_readings_change_only_their_box() -> None:
    assert points([6, 6, 6, 6, 6])["full_house"] == 0
    assert points([6, 6, 6, 6, 6], full_house_accepts_five_of_a_kind=True)["full_house"] == 30
    assert points([6, 6, 6, 6, 1])["two_pairs"] == 0
    assert points([6, 6, 6, 6, 1], two_pairs_accepts_four_of_a_kind=True)["two_pairs"] == 24
    assert points([3, 3, 3, 3, 3], two_pairs_accepts_four_of_a_kind=True)["two_pairs"] == 12
    both = {"full_house_accepts_five_of_a_kind": True, "two_pairs_accepts_four_of_a_kind": True}
    for dice in THROWS:
        plain, read = points(list(dice)), points(list(dice), **both)
        differ = {b for b in plain if plain[b] != read[b]}
        assert differ <= {"full_house", "two_pairs"}, dice
        if differ:
            assert max(dice.count(f) for f in set(dice)) >= 4, dice


def test_maximum_per_box_and_the_perfect_score() -> None:
    """374 (Wikipedia's 'Yatzy': full house 28, two pairs 22); 378 with both readings."""
    both = {"full_house_accepts_five_of_a_kind": True, "two_pairs_accepts_four_of_a_kind": True}
    for readings, full_house, two_pairs, perfect in (({}, 28, 22, 374), (both, 30, 24, 378)):
        rules = variant("yatzy", **readings)
        best = {b: max(v) for b, v in points_table(rules).achievable.items()}
        assert best["full_house"] == full_house and best["two_pairs"] == two_pairs
        assert sum(best.values()) + rules.upper_bonus.points == perfect


def test_a_second_yatzy_scores_like_any_throw() -> None:
    card = Scorecard({"yatzy": 50, "fours": 12})
    got = {o.box: o for o in legal_options(variant("yatzy"), card, [4, 4, 4, 4, 4])}
    assert len(got) == 13 and all(o.bonus == 0 for o in got.values())
    assert got["four_of_a_kind"].points == 16 and got["full_house"].points == 0
    assert got["small_straight"].points == 0 and got["chance"].points == 20
    with pytest.raises(RuleViolation) as raised:
        validate_scorecard(variant("yatzy"), Scorecard({"yatzy": 50, "fours": 12}, extra_bonus=100))
    assert raised.value.field == "scorecard.extra_bonus"


def test_values_no_throw_can_score_are_refused() -> None:
    for box, value in (("small_straight", 30), ("full_house", 30), ("two_pairs", 24)):
        with pytest.raises(RuleViolation):
            validate_scorecard(variant("yatzy"), Scorecard({box: value}))
    validate_scorecard(
        variant("yatzy", full_house_accepts_five_of_a_kind=True), Scorecard({"full_house": 30})
    )
    validate_scorecard(
        variant("yatzy", two_pairs_accepts_four_of_a_kind=True), Scorecard({"two_pairs": 24})
    )


def test_upper_bonus_at_63() -> None:
    card = Scorecard({"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15})
    got = {o.box: o for o in legal_options(variant("yatzy"), card, [6, 6, 6, 1, 2])}
    assert got["sixes"].points == 18 and got["sixes"].bonus == 50  # 63 exactly
    got = {o.box: o for o in legal_options(variant("yatzy"), card, [6, 6, 1, 1, 2])}
    assert got["sixes"].bonus == 0  # 57


def test_get_games_lists_and_describes_yatzy(client: Client) -> None:
    listed = {g["id"]: g for g in client.get("/games").json()}
    assert [b["id"] for b in listed["yatzy"]["boxes"]] == list(BOX_IDS)
    rules = loaded_rules(client, "yatzy")
    assert rules["name"] == "Yatzy (Scandinavian)" and rules["family"] == "scorecard"
    assert "rulebooks/" not in rules["source"] and "Swedish" in rules["source"]
    assert rules["upper_bonus_rule"] == {"threshold": 63, "strictly_greater": False, "points": 50}
    assert "five_of_a_kind" not in rules and rules["series_order"] is False
    assert rules["max_score"] == 374
    params = {p["name"]: p for p in rules["parameters"]}
    for name in ("full_house_accepts_five_of_a_kind", "two_pairs_accepts_four_of_a_kind"):
        assert params[name]["value"] is False and params[name]["reading"] is True
    assert params["joker"]["value"] == "none" and params["extra_bonus"]["value"] == 0
    assert params["order"]["value"] == "free" and params["throws_per_turn"]["value"] == 3
    box = {b["id"]: b for b in rules["boxes"]}
    assert box["small_straight"]["max_points"] == 15 and box["yatzy"]["max_points"] == 50
    assert box["two_pairs"]["max_points"] == 22 and box["full_house"]["max_points"] == 28


def test_score_a_yatzy_throw_over_http(client: Client) -> None:
    card = {"filled": {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15}}
    r = client.post("/score", json={"game": "yatzy", "dice": [6, 6, 6, 5, 5], "scorecard": card})
    assert r.status_code == 200, r.text
    got = {o["box"]: (o["points"], o["bonus"]) for o in r.json()["options"]}
    assert got["sixes"] == (18, 50) and got["full_house"] == (28, 0)
    assert got["two_pairs"] == (22, 0) and got["yatzy"] == (0, 0)


def test_the_rules_page_names_every_box_and_parameter() -> None:
    text = DOC.read_text()
    for box in BOX_IDS:
        assert f"`{box}`" in text, box
    for p in variant("yatzy").parameters:
        assert f"`{p.name}`" in text, p.name
    for value in ("248.4399894", "248.4680909", "248.6440589", "248.6748827"):
        assert value in text
