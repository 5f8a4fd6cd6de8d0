"""A ruleset as the `GET /games/{game}` document, and back (`rules/description.py`): every
built-in game and house-rules variant rebuilds to the same rules, every refusal names its
field, and what the vocabulary accepts the solver solves."""

from __future__ import annotations

import copy
from typing import Any

import msgspec
import numpy as np
import pytest
from reference_solver import solve_reference

from diceref.core.errors import RuleViolation
from diceref.games.scorecard.rules.description import (
    MAX_STATES,
    ruleset_from_description,
    table_states,
)
from diceref.games.scorecard.rules.document import RulesetDocument, TwoPairsBox
from diceref.games.scorecard.rules.games import BUILT_IN, SCORECARD_GAMES, variant
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.solver.statespace import state_space
from diceref.games.scorecard.tables import value_spec
from diceref.http.family import family_apis
from diceref.http.game_models import rules_of

VARIANTS = [
    *SCORECARD_GAMES.values(),
    variant("yahtzee", joker="none", extra_bonus=0),
    variant("yahtzee", joker="free_choice", matching_upper_forced=False, throws_per_turn=4),
    variant(
        "yahtzee", joker="none", order="forced", upper_bonus_threshold=60, upper_bonus_points=50
    ),
    variant("yardzee", joker_when_scratched=False),
    variant("dice-poker", two_pairs_distinct=False, upper_bonus_strictly_greater=False),
    variant("russian-poker", poker_premium_doubled=True, first_throw_multiplier=3, order="free"),
    variant("chute-5", notches=tuple(range(12)), break_over=24),
    variant("yatzy", full_house_accepts_five_of_a_kind=True, two_pairs_accepts_four_of_a_kind=True),
    variant("yatzy", order="forced", throws_per_turn=1),
]


def document(ruleset: Ruleset) -> dict[str, Any]:
    """What `GET /games/{game}` answers for the ruleset (its rules part), as JSON data."""
    out: dict[str, Any] = msgspec.to_builtins(rules_of(ruleset, family_apis()["scorecard"]))
    return out


@pytest.mark.parametrize("ruleset", VARIANTS, ids=lambda r: f"{r.id}-{r.rules_hash}")
def test_every_game_and_variant_sent_back_is_the_same_ruleset(ruleset: Ruleset) -> None:
    back = ruleset_from_description(document(ruleset))
    assert back.rules_hash == ruleset.rules_hash
    assert back.canonical_description() == ruleset.canonical_description()
    assert back.boxes == ruleset.boxes and back.box_name == ruleset.box_name
    assert (back.id, back.throws_per_turn, back.face_labels) == (
        ruleset.id,
        ruleset.throws_per_turn,
        ruleset.face_labels,
    )
    assert value_spec(back).key == value_spec(ruleset).key  # the same solved table


@pytest.mark.parametrize("ruleset", VARIANTS, ids=lambda r: f"{r.id}-{r.rules_hash}")
def test_table_states_is_the_state_space_size(ruleset: Ruleset) -> None:
    assert table_states(ruleset) == state_space(ruleset).size <= MAX_STATES


def test_output_only_fields_are_ignored() -> None:
    doc = document(SCORECARD_GAMES["yahtzee"])
    doc |= {"max_score": 1, "optimal_expected_score": 2.5, "tables": "loading", "source": "x"}
    doc |= {"summary": "ours", "parameters": []}
    doc["boxes"][0] |= {"how": "anything", "max_points": 99}
    assert ruleset_from_description(doc).rules_hash == SCORECARD_GAMES["yahtzee"].rules_hash


def test_a_rule_that_changes_no_score_is_no_rule() -> None:
    """A five-of-a-kind rule without Joker and extra bonus is none, as the built-in games
    have it (yatzy reports none): both descriptions are one ruleset."""
    doc = document(SCORECARD_GAMES["yatzy"])
    assert "five_of_a_kind" not in doc
    doc["five_of_a_kind"] = {"box": "yatzy", "extra_bonus": 0, "joker": "none"}
    assert ruleset_from_description(doc).rules_hash == SCORECARD_GAMES["yatzy"].rules_hash


def _yahtzee() -> dict[str, Any]:
    return copy.deepcopy(document(SCORECARD_GAMES["yahtzee"]))


def _set(path: str, value: Any) -> Any:
    """A change to the Yahtzee document: `path` of keys and indices, `value` (None:
    delete)."""

    def change(doc: dict[str, Any]) -> None:
        *parents, last = (int(p) if p.isdigit() else p for p in path.split("."))
        node: Any = doc
        for p in parents:
            node = node[p]
        if value is None:
            del node[last]
        else:
            node[last] = value

    return change


def _boxes(change: Any) -> Any:
    def apply(doc: dict[str, Any]) -> None:
        doc["boxes"] = change(doc["boxes"])

    return apply


CHANCE = {"id": "chance", "pattern": "chance", "scoring": "sum_all"}

REFUSALS = [
    (_set("dice_count", 6), "ruleset.dice_count", "ruleset_limit"),
    (_set("throws_per_turn", 5), "ruleset.throws_per_turn", "out_of_range"),
    (_set("throws_per_turn", 0), "ruleset.throws_per_turn", "out_of_range"),
    (
        _boxes(lambda b: b + [CHANCE | {"id": f"extra_{i}"} for i in range(3)]),
        "ruleset.boxes",
        "ruleset_limit",
    ),
    (_set("boxes.7.pattern", "triple"), "ruleset.boxes[7].pattern", "unknown_pattern"),
    (_set("boxes.7.scoring", "double"), "ruleset.boxes[7].scoring", "unknown_scoring"),
    (_set("boxes.7.scoring", "face_sum"), "ruleset.boxes[7].scoring", "scoring_mismatch"),
    (_set("boxes.0.scoring", "sum_all"), "ruleset.boxes[0].scoring", "scoring_mismatch"),
    (_set("boxes.8.id", "three_of_a_kind"), "ruleset.boxes[8].id", "duplicate_box"),
    (_set("five_of_a_kind.box", "yahtzees"), "ruleset.five_of_a_kind.box", "unknown_box"),
    (_set("five_of_a_kind.box", "chance"), "ruleset.five_of_a_kind.box", "five_of_a_kind_box"),
    (_set("five_of_a_kind.joker", "sometimes"), "ruleset.five_of_a_kind.joker", "unknown_value"),
    (_boxes(lambda b: b[1:]), "ruleset.boxes", "upper_section"),
    (_boxes(lambda b: [b[0], b[1], b[2], b[4], b[3], *b[5:]]), "ruleset.boxes", "upper_section"),
    (_boxes(lambda b: [b[6], *b[:6], *b[7:]]), "ruleset.boxes", "upper_section"),
    (_set("boxes.6.runs", [[1, 2, 3]]), "ruleset.boxes[6].runs", "not_applicable"),
    (_set("boxes.0.premium", 5), "ruleset.boxes[0].premium", "not_applicable"),
    (_set("boxes.6.of_a_kind_count", None), "ruleset.boxes[6].of_a_kind_count", "missing_field"),
    (_set("boxes.6.of_a_kind_count", 6), "ruleset.boxes[6].of_a_kind_count", "out_of_range"),
    (_set("boxes.9.runs", [[4, 3, 2, 1]]), "ruleset.boxes[9].runs[0]", "invalid_run"),
    (_set("boxes.9.runs", [[1, 2, 3, 7]]), "ruleset.boxes[9].runs[0][3]", "out_of_range"),
    (_set("boxes.9.runs", []), "ruleset.boxes[9].runs", "out_of_range"),
    (_set("boxes.5.notches", [1, 2]), "ruleset.boxes[5].notches", "not_applicable"),
    (_set("boxes.7.section", "upper"), "ruleset.boxes[7].section", "wrong_section"),
    (_set("boxes.7.section", "middle"), "ruleset.boxes[7].section", "unknown_value"),
    (_set("order", "forced"), "ruleset.order", "invalid_rule"),
    (_set("order", "random"), "ruleset.order", "unknown_value"),
    (_set("series_order", True), "ruleset.series_order", "invalid_rule"),
    (_set("id", "Yahtzee!"), "ruleset.id", "invalid_id"),
    (_set("family", "chicago"), "ruleset.family", "unknown_value"),
    (_set("colour", "red"), "ruleset.colour", "unknown_field"),
    (_set("boxes.3.colour", "red"), "ruleset.boxes[3].colour", "unknown_field"),
    (_set("upper_bonus_rule.points", -1), "ruleset.upper_bonus_rule.points", "out_of_range"),
    (_set("upper_bonus_rule.threshold", "63"), "ruleset.upper_bonus_rule.threshold", "wrong_type"),
    (_set("boxes", None), "ruleset.boxes", "missing_field"),
    # 16 million states: a bonus no upper section reaches still multiplies the table
    (_set("upper_bonus_rule.threshold", 1000), "ruleset.upper_bonus_rule.threshold",
     "ruleset_limit"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "field", "code"), REFUSALS, ids=[r[1] for r in REFUSALS])
def test_refusals_name_the_field_and_the_rule(change: Any, field: str, code: str) -> None:
    doc = _yahtzee()
    change(doc)
    with pytest.raises(RuleViolation) as refused:
        ruleset_from_description(doc)
    assert (refused.value.field, refused.value.code) == (field, code), refused.value.reason


# --- what the vocabulary accepts, the solver solves ------------------------------------------

UPPER = [
    {"id": name, "pattern": "face", "scoring": "face_sum", "face": f}
    for f, name in enumerate(("ones", "twos", "threes", "fours", "fives", "sixes"), start=1)
]


def _custom(boxes: list[dict[str, Any]], **top: Any) -> Ruleset:
    doc = {
        "id": "house",
        "name": "House scorecard",
        "dice_count": 5,
        "throws_per_turn": 3,
        "order": "free",
        "upper_bonus_rule": {"threshold": 40, "points": 25},
        "boxes": boxes,
    }
    return ruleset_from_description(doc | top)


CUSTOM = [
    # odd and even runs, a first-throw multiplier and a premium, a Joker with free choice
    _custom(
        [
            *UPPER,
            {"id": "pair", "pattern": "pair", "scoring": "sum_formed",
             "first_throw_multiplier": 2},
            {"id": "odd_even", "pattern": "straight", "scoring": "fixed",
             "runs": [[1, 3, 5], [2, 4, 6]], "fixed_points": 20},
            {"id": "high", "pattern": "sum_over", "scoring": "sum_all", "total_over": 24,
             "premium": 5, "premium_doubled": True},
            {"id": "five", "pattern": "n_of_a_kind", "scoring": "fixed", "of_a_kind_count": 5,
             "fixed_points": 50},
        ],
        five_of_a_kind={"box": "five", "extra_bonus": 100, "joker": "free_choice",
                        "matching_upper_forced": False},
    ),
    # the upper section counted against two of each face (negative below), series order
    _custom(
        [
            *({**b, "scoring": "face_relative", "target_count": 2} for b in UPPER),
            {"id": "two_pairs", "pattern": "two_pairs", "scoring": "sum_all",
             "two_pairs_distinct": False},
            {"id": "full_house", "pattern": "full_house", "scoring": "fixed",
             "fixed_points": 25, "full_house_distinct": False},
            {"id": "chance", "pattern": "chance", "scoring": "sum_all"},
        ],
        order="series",
        upper_bonus_rule={"threshold": 0, "points": 30, "strictly_greater": True},
    ),
    # notches in the upper section, a forced order and four throws a turn
    _custom(
        [
            *({**b, "scoring": "notches", "notches": [b["face"], 2 * b["face"]]} for b in UPPER),
            {"id": "four", "pattern": "n_of_a_kind", "scoring": "sum_formed",
             "of_a_kind_count": 4},
            {"id": "chance", "pattern": "chance", "scoring": "sum_all"},
        ],
        order="forced",
        throws_per_turn=4,
    ),
]  # fmt: skip


@pytest.mark.parametrize("ruleset", CUSTOM, ids=lambda r: r.rules_hash)
def test_custom_rulesets_solve_alike_in_both_solvers(ruleset: Ruleset) -> None:
    """The compiled solver (forced order and four throws a turn included) agrees state by
    state with the box-by-box reference on what the vocabulary allows."""
    fast = value_spec(ruleset).solve(None)
    reference = solve_reference(ruleset)
    assert np.array_equal(np.isnan(fast), np.isnan(reference))
    known = ~np.isnan(reference)
    assert np.allclose(np.asarray(fast)[known], reference[known], rtol=0, atol=1e-9)
    assert np.asarray(fast)[known].max() > 0


# --- the built-in games are documents, compiled by the custom path ---------------------------


@pytest.mark.parametrize("game", sorted(BUILT_IN))
def test_a_built_in_game_is_its_document_compiled(game: str) -> None:
    """The built-in game is its document, sent through JSON and compiled as a request's
    `ruleset` is: the same rules, boxes and names (only source, summary and parameters,
    which a custom ruleset reports its own way, differ)."""
    doc = BUILT_IN[game].document
    compiled = ruleset_from_description(msgspec.to_builtins(doc))
    built = SCORECARD_GAMES[game]
    assert built.document == doc == compiled.document
    assert compiled.rules_hash == built.rules_hash
    assert (compiled.boxes, compiled.order, compiled.face_labels) == (
        built.boxes,
        built.order,
        built.face_labels,
    )


def test_a_house_rule_changes_the_document_before_it_is_compiled() -> None:
    """`rules` are typed changes to the document: the variant's document shows them, and
    the variant is what that document compiles to."""
    house = variant("yatzy", two_pairs_accepts_four_of_a_kind=True, upper_bonus_threshold=60)
    assert isinstance(house.document, RulesetDocument)
    two_pairs = next(b for b in house.document.boxes if b.id == "two_pairs")
    assert isinstance(two_pairs, TwoPairsBox) and two_pairs.two_pairs_distinct is False
    assert house.document.upper_bonus_rule.threshold == 60
    sent = ruleset_from_description(msgspec.to_builtins(house.document))
    assert sent.rules_hash == house.rules_hash
