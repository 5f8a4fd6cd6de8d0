"""The Yardkle turn policy: exact values against brute force on small games, the banking bound
checked by raising the table, convergence, and a seeded simulation of the policy."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from yardkle_reference import brute_force_values

from diceref.core.arrays import FloatArray
from diceref.games.yardkle.rules.ruleset import YardkleRules
from diceref.games.yardkle.rules.scoring import DEFAULT_RULES, set_asides
from diceref.games.yardkle.solver.policy import (
    bank_value,
    bellman_residual,
    layout,
    solve,
    throw_value,
)
from diceref.games.yardkle.tables import solve_policy_table


@pytest.fixture(scope="module")
def table() -> FloatArray:
    return solve_policy_table(DEFAULT_RULES)


@pytest.mark.parametrize(
    ("dice", "entry", "cap", "hot_forced", "upto"),
    [
        (1, 0, 2000, False, 500),
        (2, 0, 3000, False, 1500),
        (3, 0, 3000, False, 1500),
        (3, 500, 3000, False, 1500),
        (4, 0, 2500, False, 1000),
        (2, 0, 3000, True, 1500),
        (2, 500, 3000, True, 1500),
        (3, 0, 6000, True, 2000),
        (3, 500, 6000, True, 2000),
        (4, 0, 16_000, True, 6000),
    ],
)
def test_values_match_brute_force_on_small_games(
    dice: int, entry: int, cap: int, hot_forced: bool, upto: int
) -> None:
    """Fewer dice, the same table: an expectimax over ordered outcomes, banking forced only
    far above the solver's proven bound, agrees with the solved table from 0 to `upto`
    (with hot dice optional, and forced: the reference throws again after hot dice).

    The reference's forced bank at the cap is its only error; `upto` keeps it out of
    reach: with hot dice forced only a run of throws that score nothing but hot dice
    carries a turn from `upto` to the cap (seven 6-6-6 in a row with three dice), a chance
    far under 1e-9."""
    rules = YardkleRules(dice=dice, entry_minimum=entry, hot_dice_optional=not hot_forced)
    assert layout(rules).bank_from * 2 <= cap
    values = solve(rules).values
    reference = brute_force_values(dice, entry, cap, hot_forced=hot_forced)
    for (on_pad, t, n), expected in reference.items():
        if t <= upto:  # leave room for the reference's own forced bank
            assert throw_value(values, rules, on_pad, t, n) == pytest.approx(expected, abs=1e-9), (
                on_pad,
                t,
                n,
            )


def test_raising_the_table_above_the_bound_changes_nothing(table: FloatArray) -> None:
    lay = layout(DEFAULT_RULES)
    higher = solve(DEFAULT_RULES, levels=lay.levels + 200).values
    assert np.max(np.abs(higher[:, : lay.levels] - table)) <= 1e-9
    # above the table the closed form is what the higher table computed
    for level in (lay.levels, lay.levels + 57, lay.levels + 199):
        for n in range(1, 7):
            t = level * lay.unit
            assert throw_value(table, DEFAULT_RULES, True, t, n) == pytest.approx(
                higher[1, level, n - 1], abs=1e-9
            )
            assert throw_value(table, DEFAULT_RULES, True, t, n) < t  # banking is better


def test_the_solve_converges(table: FloatArray) -> None:
    solution = solve(DEFAULT_RULES)
    assert solution.residual <= 1e-9
    assert bellman_residual(DEFAULT_RULES, table) <= 1e-9
    assert np.array_equal(solution.values, table)


def test_policy_facts(table: FloatArray) -> None:
    off, on = table[0, 0, 5], table[1, 0, 5]
    assert 0 < off < on  # the entry rule costs points
    # from the entry threshold on, the pad no longer matters
    entry_level = DEFAULT_RULES.entry_minimum // DEFAULT_RULES.unit
    assert np.array_equal(table[0, entry_level:], table[1, entry_level:])
    # with one die left and 300 in hand, banking beats throwing (2/3 chance of losing it)
    assert throw_value(table, DEFAULT_RULES, True, 300, 1) < 300
    # the bound is tight: at the table's top level six dice are still worth throwing
    top = (table.shape[1] - 1) * DEFAULT_RULES.unit
    assert top == 16_750 and table[1, -1, 5] > top


def simulate(
    table: FloatArray, rules: YardkleRules, on_pad: bool, turns: int, seed: int
) -> list[int]:
    """Play `turns` turns with the policy read from the table; dice from a seeded generator."""
    rng = random.Random(seed)
    unit, levels = rules.unit, table.shape[1]
    rows = table.tolist()

    def worth(t: int, n: int) -> float:
        """Worth of standing at (t, n) after a set-aside: the better of banking and throwing."""
        level = t // unit
        go = (
            rows[on_pad][level][n - 1]
            if level < levels
            else throw_value(table, rules, on_pad, t, n)
        )
        return max(bank_value(rules, on_pad, t), go)

    scores = []
    for _ in range(turns):
        t, n = 0, rules.dice
        while True:
            options = set_asides([rng.randint(1, 6) for _ in range(n)], rules)
            if not options:
                scores.append(0)
                break
            after = [(t + o.points, n - len(o.dice) or rules.dice) for o in options]
            t, n = max(after, key=lambda state: worth(*state))
            if bank_value(rules, on_pad, t) >= worth(t, n):
                scores.append(t)
                break
    return scores


@pytest.mark.parametrize(("on_pad", "seed"), [(True, 20240601), (False, 20240602)])
def test_a_seeded_simulation_matches_the_expected_value(
    table: FloatArray, on_pad: bool, seed: int
) -> None:
    scores = simulate(table, DEFAULT_RULES, on_pad, 20_000, seed)
    mean = float(np.mean(scores))
    standard_error = float(np.std(scores, ddof=1)) / math.sqrt(len(scores))
    expected = float(table[int(on_pad), 0, DEFAULT_RULES.dice - 1])
    assert abs(mean - expected) < 4 * standard_error, (mean, expected, standard_error)
    if not on_pad:
        assert all(s == 0 or s >= DEFAULT_RULES.entry_minimum for s in scores)
