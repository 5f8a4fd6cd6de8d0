"""The two-player table as the tables store keeps it (`duel_array`, `tables.duel_spec`),
its size bound, and `diceref precompute --target` under house rules.

The game is three dice to 1,000 (`test_duel.py`'s small game: the compiled solve takes a
tenth of a second once numba has compiled it); no test here solves the default rules.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from diceref.core.game import RuleParameterError
from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES, YardkleRules
from diceref.games.yardkle.solver import duel_array
from diceref.games.yardkle.solver.duel import DuelTable, solve_duel
from diceref.games.yardkle.solver.duel_fast import CompactDuel, solve_duel_fast
from diceref.games.yardkle.tables import (
    MAX_DUEL_LEVELS,
    _solve_duel,
    check_duel_solvable,
    duel_of,
    duel_spec,
    target_specs,
)

ROOT = Path(__file__).parents[2]
SMALL = YardkleRules(dice=3, target=1000)
ROUND = YardkleRules(dice=3, target=1000, last_turns="complete_the_round")
THROWS = [(1, 5, 2), (1, 1, 1), (5, 3), (1,), (2, 3, 4), (5, 5, 5)]


@cache
def reference() -> DuelTable:
    return solve_duel(SMALL)


@cache
def compact() -> CompactDuel:
    return solve_duel_fast(SMALL)


def test_the_array_round_trips_the_lookups() -> None:
    fast = compact()
    stored = duel_array.to_array(fast)
    back = duel_array.from_array(SMALL, stored)
    assert back.levels == fast.levels == 20
    np.testing.assert_array_equal(back.values, fast.values)
    np.testing.assert_array_equal(back.yardkle_values, fast.yardkle_values)
    np.testing.assert_array_equal(back.caps, fast.caps)
    np.testing.assert_array_equal(back.last_turn, fast.last_turn)
    np.testing.assert_array_equal(back.last_turn_throws, fast.last_turn_throws)
    assert (back.error_bound, back.contraction, back.tie_value, back.entry_levels) == (
        fast.error_bound,
        fast.contraction,
        fast.tie_value,
        fast.entry_levels,
    )
    # the big parts are views of the stored array, not copies
    for part in (back.values, back.yardkle_values, back.last_turn, back.last_turn_throws):
        assert np.shares_memory(part, stored)
    table = reference()
    for total, opponent in [(0, 0), (500, 0), (0, 600), (750, 900), (950, 950)]:
        on, opp = total > 0, opponent > 0
        for points, dice in [(0, 3), (150, 2), (300, 1)]:
            want = table.win_probability(total, on, opponent, opp, points, dice)
            for duel in (fast, back):
                got = duel.win_probability(total, on, opponent, opp, points, dice)
                assert got == pytest.approx(want, abs=1e-9)
        for throw in THROWS:
            if len(throw) < 3:
                continue
            want_advice = table.advise(total, opponent, 0, throw)
            got_advice = back.advise(total, opponent, 0, throw)
            assert got_advice.keep == want_advice.keep
            assert got_advice.win_probability == pytest.approx(
                want_advice.win_probability, abs=1e-9
            )


def test_both_seats_round_trip_under_complete_the_round() -> None:
    """Under `complete_the_round` the array holds both seats' values, Yardkle values and
    caps, and its lookups read the seat asked for."""
    fast = solve_duel_fast(ROUND)
    stored = duel_array.to_array(fast)
    k = fast.levels
    rest = fast.last_turn.size + fast.last_turn_throws.size
    assert stored[9] == 2 and len(stored) == duel_array.HEADER + 3 * 2 * k * k + rest
    back = duel_array.from_array(ROUND, stored)
    assert back.seat_values.shape == (2, k, k)
    np.testing.assert_array_equal(back.seat_values, fast.seat_values)
    np.testing.assert_array_equal(back.yardkle_values, fast.yardkle_values)
    np.testing.assert_array_equal(back.caps, fast.caps)
    assert np.shares_memory(back.seat_values, stored)
    for started, seat in ((True, 0), (False, 1)):
        got = back.win_probability(500, True, 750, True, first_in_round=started)
        assert got == pytest.approx(float(fast.seat_values[seat, 10, 15]), abs=1e-12)
    # the same totals under the other reading are another table
    with pytest.raises(ValueError, match="other rules"):
        duel_array.from_array(SMALL, stored)


def test_a_stored_array_for_other_rules_is_refused() -> None:
    stored = duel_array.to_array(compact())
    with pytest.raises(ValueError, match="other rules"):
        duel_array.from_array(YardkleRules(dice=3, target=1500), stored)
    with pytest.raises(ValueError, match="format"):
        duel_array.from_array(SMALL, stored[:5])


def test_the_spec_solves_the_array_and_the_loader_keeps_one_game_per_table() -> None:
    spec = duel_spec(SMALL)
    assert (spec.kind, spec.game, spec.group, spec.at_startup) == ("duel", "yardkle", "duel", False)
    assert spec.shape == (None,)
    seen: list[tuple[int, int]] = []
    stored = _solve_duel(SMALL, lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (1000, 1000)
    np.testing.assert_array_equal(stored, duel_array.to_array(compact()))
    assert duel_of(SMALL, stored) is duel_of(SMALL, stored)


def test_the_default_table_size_from_k() -> None:
    """3 K^2 + (2 + D) G + 10 float64 numbers: 998,352 bytes at the default rules (K and G
    from the rules alone, without solving; one seat)."""
    from diceref.games.yardkle.solver.duel import _game

    game = _game(DEFAULT_RULES)
    assert game.levels == 200 and game.last.shape == (2, 598) and game.seats == 1
    numbers = duel_array.HEADER + 3 * 200**2 + (2 + 6) * 598
    assert numbers * 8 == 998_352
    assert MAX_DUEL_LEVELS >= 200


@pytest.mark.parametrize(
    ("rules", "name"),
    [
        ({"target": 12_050}, "target"),
        ({"single_five": 25}, "single_five"),  # the unit 25: 400 levels to 10,000
        ({"target": 12_050, "hot_dice_optional": False}, "target"),  # hot dice: not the size
    ],
)
def test_rules_beyond_the_bound_are_a_ruleset_limit(rules: dict[str, object], name: str) -> None:
    with pytest.raises(RuleParameterError) as refused:
        check_duel_solvable(YardkleRules(**rules))  # type: ignore[arg-type]
    assert refused.value.code == "ruleset_limit" and refused.value.name == name
    with pytest.raises(RuleParameterError):
        target_specs(YardkleRules(**rules))  # type: ignore[arg-type]


def test_the_bound_itself_is_accepted() -> None:
    check_duel_solvable(YardkleRules(target=12_000))
    check_duel_solvable(DEFAULT_RULES)
    check_duel_solvable(YardkleRules(target=12_000, hot_dice_optional=False))
    for reading in ("every_other_player_once", "complete_the_round", "none"):
        check_duel_solvable(YardkleRules(last_turns=reading))
        check_duel_solvable(YardkleRules(last_turns=reading, hot_dice_optional=False))


def documented_precompute() -> str:
    """The house-rules precompute command docs/tables.md gives, as written."""
    text = (ROOT / "docs" / "tables.md").read_text()
    found = re.search(r"`(diceref precompute yardkle --rules '[^`]*' --target)`", text)
    assert found, "docs/tables.md no longer gives the house-rules duel precompute"
    return found.group(1)


def run_diceref(command: str, cache_dir: Path) -> subprocess.CompletedProcess[str]:
    words = shlex.split(command)
    assert words[0] == "diceref"
    own = ("DICEREF_", "REDIS_URL")
    env = {k: v for k, v in os.environ.items() if not k.startswith(own)}
    return subprocess.run(
        [sys.executable, "-m", "diceref.cli", *words[1:]],
        env=env | {"DICEREF_CACHE_DIR": str(cache_dir)},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_documented_precompute_solves_the_duel_table(tmp_path: Path) -> None:
    run = run_diceref(documented_precompute(), tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    kinds = [line.split()[:3] for line in run.stdout.splitlines()[1:]]
    assert kinds == [["yardkle", "policy", "computed"], ["yardkle", "duel", "computed"]], run.stdout
    key = duel_spec(SMALL).key
    assert (tmp_path / f"{key.id}.npy").exists() or any(
        key.id in p.name for p in tmp_path.rglob("*")
    )


def test_precompute_refuses_rules_beyond_the_duel_bound(tmp_path: Path) -> None:
    run = run_diceref("diceref precompute yardkle --rules '{\"target\": 20000}' --target", tmp_path)
    assert run.returncode == 2
    assert "--target: rules.target:" in run.stderr and "ruleset_limit" not in run.stdout
