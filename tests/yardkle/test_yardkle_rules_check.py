"""Checking a Yardkle ruleset against the solvable bound does no solver work, whatever the
values: it never enumerates every option of every throw (`policy.throw_options`, the solve's
input), and the layout it reads (`solver/throws.py`) gives exactly the figures that
enumeration gives."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diceref.core.dice import multiset_probability, multisets
from diceref.core.game import RuleParameterError
from diceref.games.yardkle import bounded_yardkle
from diceref.games.yardkle.rules.ruleset import POINTS_PARAMETERS, YardkleRules
from diceref.games.yardkle.rules.scoring import set_asides
from diceref.games.yardkle.solver import policy
from diceref.games.yardkle.solver.throws import throw_summary
from diceref.games.yardkle.tables import MAX_LEVELS, levels_needed

# Every combination near the 10,000 maximum, pairwise prime-ish, so the unit is 1 point.
NEAR_MAX = {name: 10_000 - i for i, name in enumerate(POINTS_PARAMETERS)} | {
    "three_of_a_kind_per_pip": 997
}


@pytest.fixture
def no_option_enumeration(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Make any enumeration of every throw's options fail the test."""

    def refused(rules: YardkleRules) -> Any:
        raise AssertionError("the check enumerated every option of every throw")

    monkeypatch.setattr(policy, "_throw_options", refused)
    yield


@pytest.mark.usefixtures("no_option_enumeration")
@pytest.mark.parametrize(
    ("rules", "name", "needed"),
    [
        (NEAR_MAX | {"target": 1_000_000}, "target", 1_000_000),
        (NEAR_MAX | {"target": 999_999}, "target", 999_999),
        (NEAR_MAX, "single_five", 917_218),
        (NEAR_MAX | {"hot_dice_optional": False}, None, None),
        ({"single_five": 49, "straight": 6372}, "single_five", MAX_LEVELS + 1),
    ],
)
def test_the_worst_documents_are_refused_without_the_solve_s_work(
    rules: dict[str, Any], name: str | None, needed: int | None
) -> None:
    with pytest.raises(RuleParameterError) as refused:
        bounded_yardkle(**rules)
    assert refused.value.code == "ruleset_limit"
    if name is not None:
        assert refused.value.name == name
        assert f"a table of {needed:,} levels of 1 points" in refused.value.reason


@pytest.mark.usefixtures("no_option_enumeration")
def test_rules_at_the_bound_are_accepted_without_the_solve_s_work() -> None:
    for target in (10_000, 10_001, 19_999):  # each target a new ruleset
        game = bounded_yardkle(single_five=49, straight=6371, target=target)
        assert levels_needed(game.rules) == MAX_LEVELS
    bounded_yardkle(hot_dice_optional=False, three_ones=1000)


def reference(rules: YardkleRules) -> tuple[list[float], list[float], list[Any]]:
    """q_n, a_n and each scoring throw's (dice, best kept back, all dice) from
    `set_asides`, throw by throw."""
    q, a, splits = [0.0] * rules.dice, [0.0] * rules.dice, []
    for n in range(1, rules.dice + 1):
        for throw in multisets(n):
            p = multiset_probability(throw)
            options = set_asides(throw, rules)
            if not options:
                q[n - 1] += p
                continue
            a[n - 1] += p * options[0].points
            back = max((o.points for o in options if len(o.dice) < n), default=-math.inf)
            whole = max((o.points for o in options if len(o.dice) == n), default=-math.inf)
            splits.append((n, back, whole))
    return q, a, splits


POINTS = [0, 1, 25, 50, 300, 1000, 9999]


@settings(max_examples=25, deadline=None)
@given(
    st.fixed_dictionaries(
        {
            "dice": st.integers(1, 6),
            "groups_distinct_faces": st.booleans(),
            **{name: st.sampled_from(POINTS) for name in POINTS_PARAMETERS},
        }
    ).map(lambda d: d | {"single_one": d["single_one"] or 1, "single_five": d["single_five"] or 7})
)  # fmt: skip
def test_the_throws_summary_is_what_every_option_gives(values: dict[str, Any]) -> None:
    rules = YardkleRules(**values)
    summary = throw_summary(rules)
    q, a, splits = reference(rules)
    assert np.allclose(summary.yardkle_chance, q, rtol=0, atol=1e-15)
    assert np.allclose(summary.best_gain, a, rtol=1e-12, atol=0)
    columns = (summary.dice.tolist(), summary.kept_back.tolist(), summary.whole.tolist())
    got = list(zip(*columns, strict=True))
    assert got == splits
    assert summary.max_points == max(s[2] if s[1] < s[2] else s[1] for s in splits)


def test_another_target_reuses_what_depends_on_the_throws_alone() -> None:
    """A flood of targets one apart builds the throws' figures once, not once a target."""
    from diceref.games.yardkle.solver.race import race_options

    a, b = YardkleRules(three_ones=700, target=12_000), YardkleRules(three_ones=700, target=12_001)
    assert throw_summary(a) is throw_summary(b)
    assert policy.throw_options(a) is policy.throw_options(b)
    assert race_options(a) is race_options(b)
    assert throw_summary(a) is not throw_summary(YardkleRules(three_ones=750, target=12_000))
