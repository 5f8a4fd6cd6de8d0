"""Rule parameters as builder keyword arguments (issue 13, item 2, the rules-level half).

Every scorecard game's builder takes the common parameters by the names `GET /games/{game}`
reports, refuses out-of-range or contradictory values naming the parameter, and at its
defaults is exactly the built-in game: same rules hash, so the same solved tables.  The
new rules (throws per turn, forced order) are checked against an exhaustive recursion
that uses only `legal_options`, never the solver.
"""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Callable
from dataclasses import replace
from functools import cache, partial
from typing import Any

import numpy as np
import pytest

from diceref.core.arrays import FloatArray
from diceref.core.dice import FACES
from diceref.core.game import RuleParameterError
from diceref.games.scorecard.rules.games import SCORECARD_GAMES, variant
from diceref.games.scorecard.rules.ruleset import Joker, Order, Ruleset
from diceref.games.scorecard.rules.scorecard import (
    RuleViolation,
    Scorecard,
    card_total,
    legal_options,
    validate_scorecard,
)
from diceref.games.scorecard.rules.sheets import Entry, Sheet, check_sheet
from diceref.games.scorecard.solver.advice import (
    BoxAdvice,
    KeepAdvice,
    advise,
    expected_final_score,
)
from diceref.games.scorecard.solver.engine import solve
from diceref.games.scorecard.solver.statespace import popcount, state_space

BUILDERS: dict[str, Callable[..., Ruleset]] = {
    "yahtzee": partial(variant, "yahtzee"),
    "yardzee": partial(variant, "yardzee"),
    "dice-poker": partial(variant, "dice-poker"),
    "russian-poker": partial(variant, "russian-poker"),
    "chute-5": partial(variant, "chute-5"),
    "yatzy": partial(variant, "yatzy"),
}
COMMON = (
    "joker",
    "matching_upper_forced",
    "joker_when_scratched",
    "extra_bonus",
    "upper_bonus_threshold",
    "upper_bonus_points",
    "upper_bonus_strictly_greater",
    "throws_per_turn",
    "order",
)
# The identities of the tables solved before the parameters existed (main at 18f204c):
# a default built with the new code must land on the same tables.
HASHES_BEFORE = {
    "yahtzee": "91dbc65c6dc7380b",
    "yardzee": "8605dd02f0821e5d",
    "dice-poker": "6dfb8f99bcbba8b9",
    "russian-poker": "f72872d05ef07f56",
    "chute-5": "120151707c19ab03",
}


def params(ruleset: Ruleset) -> dict[str, Any]:
    return {p.name: p.value for p in ruleset.parameters}


# ---------------------------------------------------------------- defaults and reporting


@pytest.mark.parametrize("game", sorted(HASHES_BEFORE))
def test_defaults_keep_every_existing_rules_hash(game: str) -> None:
    assert SCORECARD_GAMES[game].rules_hash == HASHES_BEFORE[game]
    assert BUILDERS[game]().rules_hash == HASHES_BEFORE[game]


def test_verhoeff_reading_keeps_its_hash_and_yahtzee_reaches_the_same_table() -> None:
    """yardzee(matching_upper_forced=False) had its own table; yahtzee with the same rules
    now describes the same game (box names are not rules), so it shares that table."""
    free = variant("yahtzee", joker="free_choice", matching_upper_forced=False)
    assert variant("yardzee", matching_upper_forced=False).rules_hash == "43f4187d1a11f4bb"
    assert free.rules_hash == "43f4187d1a11f4bb"


@pytest.mark.parametrize("game", sorted(BUILDERS))
def test_every_common_parameter_is_reported_with_its_value(game: str) -> None:
    ruleset = BUILDERS[game]()
    got = params(ruleset)
    assert set(COMMON) <= got.keys(), set(COMMON) - got.keys()
    assert len(got) == len(ruleset.parameters), "a parameter is reported twice"
    bonus = ruleset.upper_bonus
    assert got["upper_bonus_threshold"] == bonus.threshold
    assert got["upper_bonus_points"] == bonus.points
    assert got["upper_bonus_strictly_greater"] == bonus.strictly_greater
    assert got["throws_per_turn"] == ruleset.throws_per_turn == 3
    assert got["order"] == ruleset.order.value
    rule = ruleset.five_of_a_kind
    if rule is None:
        assert got["joker"] == "none" and got["extra_bonus"] == 0
    else:
        assert got["joker"] == rule.joker.value and got["extra_bonus"] == rule.extra_bonus
        assert got["joker_when_scratched"] == rule.joker_when_scratched
        assert got["matching_upper_forced"] == rule.matching_upper_forced


@pytest.mark.parametrize("game", sorted(BUILDERS))
def test_reported_values_rebuild_the_same_game(game: str) -> None:
    """What `parameters` reports, passed back to the builder, is the same ruleset."""
    ruleset = BUILDERS[game]()
    again = BUILDERS[game](**{k: v for k, v in params(ruleset).items() if k in COMMON})
    assert again.rules_hash == ruleset.rules_hash
    assert again.parameters == ruleset.parameters


CHANGES: list[tuple[str, dict[str, Any]]] = [
    ("yahtzee", {"joker": "none"}),
    ("yahtzee", {"joker": "free_choice", "matching_upper_forced": False}),
    ("yahtzee", {"joker_when_scratched": False}),
    ("yahtzee", {"extra_bonus": 0}),
    ("yahtzee", {"upper_bonus_threshold": 60}),
    ("yahtzee", {"upper_bonus_points": 50}),
    ("yahtzee", {"upper_bonus_strictly_greater": True}),
    ("yahtzee", {"throws_per_turn": 4}),
    ("yahtzee", {"order": "series"}),
    ("yahtzee", {"joker": "none", "order": "forced"}),
    ("dice-poker", {"throws_per_turn": 2}),
    ("russian-poker", {"order": "free"}),
    ("russian-poker", {"order": "forced"}),
    ("russian-poker", {"throws_per_turn": 1}),
    ("russian-poker", {"first_throw_multiplier": 3}),
    ("russian-poker", {"poker_premium": 100}),
    ("chute-5", {"extra_bonus": 100}),
    ("chute-5", {"joker": "forced"}),
    ("yatzy", {"full_house_accepts_five_of_a_kind": True}),
    ("yatzy", {"two_pairs_accepts_four_of_a_kind": True}),
    ("yatzy", {"order": "forced"}),
    ("yatzy", {"throws_per_turn": 1}),
]


@pytest.mark.parametrize(("game", "change"), CHANGES)
def test_a_changed_parameter_is_reported_and_changes_the_tables_key(
    game: str, change: dict[str, Any]
) -> None:
    ruleset = BUILDERS[game](**change)
    got = params(ruleset)
    for name, value in change.items():
        assert got[name] == value, name
    assert ruleset.rules_hash != BUILDERS[game]().rules_hash


def test_series_order_is_the_old_name_of_russian_pokers_order() -> None:
    assert params(variant("russian-poker"))["series_order"] is True
    off = variant("russian-poker", series_order=False)
    assert off.order is Order.FREE and params(off)["series_order"] is False
    assert off.rules_hash == variant("russian-poker", order="free").rules_hash
    assert variant("russian-poker", series_order=True).rules_hash == HASHES_BEFORE["russian-poker"]
    with pytest.raises(RuleParameterError) as raised:
        variant("russian-poker", series_order=True, order="forced")
    assert raised.value.name == "series_order"


def test_no_joker_and_no_extra_bonus_is_no_five_of_a_kind_rule() -> None:
    """A rule that cannot change a score is left out: no five-of-a-kind flag in the state
    space, so the table is half the size."""
    plain = variant("yahtzee", joker="none", extra_bonus=0)
    assert plain.five_of_a_kind is None and state_space(plain).n_flag == 1
    assert params(plain)["joker"] == "none"
    bonus_only = variant("yahtzee", joker="none")
    assert bonus_only.five_of_a_kind is not None
    assert bonus_only.five_of_a_kind.joker is Joker.NONE and state_space(bonus_only).n_flag == 2
    assert variant("yatzy", extra_bonus=100).five_of_a_kind is not None


def test_readings_inert_without_a_joker_are_folded() -> None:
    """With no Joker, where a Joker goes (`matching_upper_forced`, `joker_when_scratched`)
    changes no score: rules that differ only there are one ruleset (one `ruleset_id`, one
    table), reported with the values a document leaving them out has."""
    written = [
        variant("yahtzee", joker="none"),
        variant("yahtzee", joker="none", matching_upper_forced=False),
        variant("yahtzee", joker="none", matching_upper_forced=False, joker_when_scratched=False),
        variant("yahtzee", joker="none", joker_when_scratched=True, matching_upper_forced=True),
    ]
    assert len({r.rules_hash for r in written}) == 1
    assert len({r.five_of_a_kind for r in written}) == 1
    reported = {
        (params(r)["joker_when_scratched"], params(r)["matching_upper_forced"]) for r in written
    }
    assert reported == {(False, True)}
    # With a Joker both readings score, and stay apart.
    joker = {
        variant(
            "yahtzee", joker="free_choice", matching_upper_forced=m, joker_when_scratched=w
        ).rules_hash
        for m in (True, False)
        for w in (True, False)
    }
    assert len(joker) == 4


@pytest.mark.parametrize(
    ("game", "change", "name"),
    [
        ("yahtzee", {"throws_per_turn": 0}, "throws_per_turn"),
        ("yahtzee", {"throws_per_turn": 5}, "throws_per_turn"),
        ("yatzy", {"throws_per_turn": True}, "throws_per_turn"),
        ("yahtzee", {"joker": "sometimes"}, "joker"),
        ("yahtzee", {"order": "random"}, "order"),
        ("yahtzee", {"order": "forced"}, "order"),  # the forced Joker picks a box
        ("yardzee", {"order": "forced"}, "order"),
        ("yahtzee", {"extra_bonus": -100}, "extra_bonus"),
        ("yahtzee", {"upper_bonus_points": -1}, "upper_bonus_points"),
        ("russian-poker", {"joker": "forced"}, "joker"),  # its poker box has no fixed value
        ("russian-poker", {"extra_bonus": 100}, "extra_bonus"),
        ("russian-poker", {"first_throw_multiplier": 0}, "first_throw_multiplier"),
        ("russian-poker", {"strike_unmet_with_zero": False}, "strike_unmet_with_zero"),
        ("yatzy", {"joker": "free_choice", "order": "forced"}, "order"),
    ],
)
def test_out_of_range_or_contradictory_values_name_the_parameter(
    game: str, change: dict[str, Any], name: str
) -> None:
    with pytest.raises(RuleParameterError) as raised:
        BUILDERS[game](**change)
    assert raised.value.name == name
    assert isinstance(raised.value, ValueError) and raised.value.reason


# ---------------------------------------------------------------- forced order: the rules


def test_forced_order_offers_only_the_first_open_box() -> None:
    rules = variant("yatzy", order="forced")
    assert [o.box for o in legal_options(rules, Scorecard(), [6, 6, 6, 6, 6])] == ["ones"]
    card = Scorecard({b: 0 for b in rules.box_ids[:9]})
    (only,) = legal_options(rules, card, [6, 6, 6, 6, 6])
    assert only.box == "four_of_a_kind" and only.points == 24
    free = {o.box for o in legal_options(variant("yatzy"), card, [6, 6, 6, 6, 6])}
    assert len(free) == 6


def test_forced_order_rejects_a_card_with_a_gap() -> None:
    rules = variant("yatzy", order="forced")
    validate_scorecard(rules, Scorecard({"ones": 2, "twos": 4}))
    with pytest.raises(RuleViolation) as raised:
        validate_scorecard(rules, Scorecard({"ones": 2, "threes": 9}))
    assert raised.value.field == "scorecard.filled.threes"
    assert "'twos' is still open" in raised.value.reason
    validate_scorecard(variant("yatzy"), Scorecard({"ones": 2, "threes": 9}))


def test_forced_order_sheet_check_flags_the_entry_out_of_order() -> None:
    rules = variant("yatzy", order="forced")
    sheet = Sheet("ann", (Entry("ones", 3, (1, 1, 1, 4, 5)), Entry("threes", 9, (3, 3, 3, 1, 2))))
    problems = check_sheet(rules, sheet, "sheets[0]").problems
    # as with series order: the order, then the dice checked against the card at that turn
    assert [(p.field, p.box) for p in problems] == [("sheets[0].entries[1].box", "threes")] * 2
    assert "'twos' was still open" in problems[0].reason
    assert "(allowed: twos)" in problems[1].reason
    assert check_sheet(variant("yatzy"), sheet, "sheets[0]").problems == []


def test_series_order_applies_to_any_game() -> None:
    rules = variant("yahtzee", order="series")
    got = {o.box for o in legal_options(rules, Scorecard({"ones": 3}), [2, 3, 4, 5, 6])}
    assert got == {"twos", "threes", "fours", "fives", "sixes"}
    with pytest.raises(RuleViolation):
        validate_scorecard(rules, Scorecard({"chance": 20}))


def test_forced_order_state_space_holds_only_leading_runs() -> None:
    rules = variant("yatzy", order="forced")
    mask, _, _ = state_space(rules).all_states()
    assert ((mask & (mask + 1)) == 0).all()
    assert set(popcount(np.unique(mask)).tolist()) == set(range(16))
    free_mask, _, _ = state_space(variant("yatzy")).all_states()
    assert len(mask) * 1000 < len(free_mask)


# ---------------------------------------------------------------- throws per turn, exactly


def brute_force(ruleset: Ruleset, card: Scorecard) -> float:
    """Expected points to come by exhaustive recursion over turns, throws and keeps, with
    the ruleset's own throws per turn; only `legal_options` (no solver code)."""
    outcomes = {
        n: [(tuple(sorted(roll)), 1.0 / 6**n) for roll in itertools.product(FACES, repeat=n)]
        for n in range(6)
    }
    throws = ruleset.throws_per_turn

    @cache
    def future(boxes: tuple[tuple[str, int], ...], extra: int) -> float:
        if len(boxes) == len(ruleset.boxes):
            return 0.0
        current = Scorecard(dict(boxes), extra)

        @cache
        def stop(dice: tuple[int, ...], throw: int) -> float:
            return max(
                o.points
                + o.bonus
                + future(tuple(sorted({**dict(boxes), o.box: o.points}.items())), extra)
                for o in legal_options(ruleset, current, dice, throw)
            )

        @cache
        def keep_value(keep: tuple[int, ...], throw: int) -> float:
            rolls = outcomes[5 - len(keep)]
            return sum((p * after(tuple(sorted(keep + r)), throw) for r, p in rolls), 0.0)

        @cache
        def after(dice: tuple[int, ...], throw: int) -> float:
            best = stop(dice, throw)
            if throw < throws:
                subs = {tuple(d for i, d in enumerate(dice) if m >> i & 1) for m in range(32)}
                best = max(best, *(keep_value(k, throw + 1) for k in subs))
            return best

        return keep_value((), 1)

    return future(tuple(sorted(card.boxes.items())), card.extra_bonus)


def near_end(ruleset: Ruleset, open_boxes: set[str], values: dict[str, int]) -> Scorecard:
    return Scorecard({b: values.get(b, 0) for b in ruleset.box_ids if b not in open_boxes})


SMALL_SOLVES: dict[str, FloatArray] = {}


def small_solve(ruleset: Ruleset) -> FloatArray:
    """Games whose tables take well under a second (few upper subtotals, or forced order)."""
    if ruleset.rules_hash not in SMALL_SOLVES:
        SMALL_SOLVES[ruleset.rules_hash] = solve(ruleset)
    return SMALL_SOLVES[ruleset.rules_hash]


CHUTE_UPPER = {"aces": 2, "twos": 3, "threes": 4, "fours": 5}  # 14: sixes decides the bonus
THROW_CASES = [
    # the first-throw multiplier (russian-poker) with every number of throws
    (variant("russian-poker", throws_per_turn=1), {"pair", "poker"}, {"ones": 2, "sixes": 6}),
    (variant("russian-poker", throws_per_turn=2), {"pair", "poker"}, {"ones": 2, "sixes": 6}),
    (variant("russian-poker", throws_per_turn=4), {"small_straight", "chance"}, {}),
    (variant("chute-5", throws_per_turn=1), {"sixes", "break"}, CHUTE_UPPER),
    (variant("chute-5", throws_per_turn=2), {"fives", "chute_5"}, CHUTE_UPPER),
    (variant("chute-5", throws_per_turn=4), {"sixes", "chute_5"}, CHUTE_UPPER),
    # forced order: the open boxes are the card's last ones, filled in order
    (
        variant("yatzy", order="forced"),
        set(variant("yatzy").box_ids[13:]),
        {"ones": 3, "fives": 15},
    ),
    (variant("yatzy", order="forced", throws_per_turn=2), set(variant("yatzy").box_ids[13:]), {}),
    (
        variant("russian-poker", order="forced"),
        set(variant("russian-poker").box_ids[12:]),
        {"sixes": 6},
    ),
]


@pytest.mark.parametrize(("ruleset", "open_boxes", "values"), THROW_CASES)
def test_table_matches_brute_force_for_new_rules(
    ruleset: Ruleset, open_boxes: set[str], values: dict[str, int]
) -> None:
    card = near_end(ruleset, open_boxes, values)
    exact = brute_force(ruleset, card)
    table = expected_final_score(ruleset, small_solve(ruleset), card) - card_total(ruleset, card)
    assert table == pytest.approx(exact, rel=1e-9, abs=1e-9)


def _doubled_chance() -> Ruleset:
    """Yahtzee with a free-choice Joker that keeps natural values while the matching box is
    open, and chance doubled on the first throw: a five of a kind thrown first may go to
    chance at its doubled points."""
    free = variant("yahtzee", joker="free_choice", matching_upper_forced=False)
    doubled = [replace(b, first_throw_multiplier=2) if b.id == "chance" else b for b in free.boxes]
    return replace(free, boxes=tuple(doubled))


def test_a_joker_on_the_first_throw_scores_as_the_tables_do() -> None:
    """`/score`'s options and the solver read one turn: the exhaustive recursion over
    `legal_options` gives the table's value for a Joker thrown first."""
    ruleset = _doubled_chance()
    card = near_end(ruleset, {"threes", "chance"}, {"yahtzee": 50})
    exact = brute_force(ruleset, card)
    table = expected_final_score(ruleset, small_solve(ruleset), card) - card_total(ruleset, card)
    assert table == pytest.approx(exact, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("throws", [1, 2, 3, 4])
def test_more_throws_are_worth_more_and_advice_covers_every_throw(throws: int) -> None:
    ruleset = variant("russian-poker", throws_per_turn=throws)
    values = small_solve(ruleset)
    start = expected_final_score(ruleset, values, Scorecard())
    if throws > 1:
        fewer = variant("russian-poker", throws_per_turn=throws - 1)
        assert start > expected_final_score(fewer, small_solve(fewer), Scorecard()) + 1.0
    card = Scorecard({b: 0 for b in ruleset.box_ids[:6]})  # the second series is open
    dice = [2, 2, 5, 5, 6]
    for left in range(throws):
        options = advise(ruleset, values, card, dice, throws_left=left)
        keeps = [o for o in options if isinstance(o, KeepAdvice)]
        boxes = {o.box: o for o in options if isinstance(o, BoxAdvice)}
        assert len(keeps) == (0 if left == 0 else 3 * 3 * 2)  # sub-multisets of 2-2-5-5-6
        assert set(boxes) == set(ruleset.box_ids[6:])
        # the dice of the turn's first throw (no throw used yet) score double
        assert boxes["pair"].points == (20 if left == throws - 1 else 10)
        if left:  # keeping all five passes a throw: the same dice, one throw fewer left
            keep_all = next(k for k in keeps if len(k.keep) == 5)
            one_fewer = advise(ruleset, values, card, dice, throws_left=left - 1)[0]
            assert keep_all.expected_total == pytest.approx(one_fewer.expected_total, rel=1e-12)
    with pytest.raises(ValueError, match="throws can be left"):
        advise(ruleset, values, card, dice, throws_left=throws)


def test_a_joker_added_to_yatzy_scores_the_dice_that_would_form_each_box() -> None:
    """Yatzy has no Joker, but the parameter works on its boxes as data: a Joker's value in
    a box that counts only the dice forming it is what those dice would score."""
    rules = variant("yatzy", joker="forced", extra_bonus=100)
    card = Scorecard({"yatzy": 50, "fours": 16})
    got = {o.box: (o.points, o.bonus) for o in legal_options(rules, card, [4, 4, 4, 4, 4])}
    assert got == {
        "one_pair": (8, 100),
        "two_pairs": (16, 100),
        "three_of_a_kind": (12, 100),
        "four_of_a_kind": (16, 100),
        "small_straight": (15, 100),
        "large_straight": (20, 100),
        "full_house": (20, 100),
        "chance": (20, 100),
    }
    validate_scorecard(rules, Scorecard({"yatzy": 50, "fours": 16, "full_house": 20}, 100))


def test_a_ruleset_pickles_while_its_caches_are_being_filled() -> None:
    """A table's solve is pickled for the solver pool while requests fill the ruleset's
    cached properties; pickling a growing `__dict__` fails ("dictionary changed size
    during iteration").  Here a field's value fills a cache mid-pickle."""
    rulesets: list[Ruleset] = []

    class FillsACacheWhenPickled:
        def __reduce__(self) -> tuple[object, tuple[()]]:
            _ = rulesets[0].box_index  # as a request thread would, mid-pickle
            return (tuple, ())

    base = variant("yahtzee", upper_bonus_points=40)
    ruleset = replace(base, notes=(FillsACacheWhenPickled(),))  # type: ignore[arg-type]
    rulesets.append(ruleset)
    copy = pickle.loads(pickle.dumps(ruleset))
    assert replace(copy, notes=base.notes) == base
    assert copy.notes == ((),) and "box_index" not in copy.__dict__  # the fields only
