"""The fast solve (`solver/batched.py`) against the box-by-box one (`reference_solver.py`).

The two share the rules (points table, state space) but not the code that turns them into
a turn's value: the fast one compiles the turn into gathers with points added ahead of
time, shared scratch rows and a different order of the keeps, the reference evaluates it
box by box as `/holds` does.  Every state's value and every max value must agree.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from reference_solver import solve_max_reference, solve_reference, turn_values

from diceref.games.scorecard.rules.games import SCORECARD_GAMES, variant
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.solver import batched
from diceref.games.scorecard.solver.engine import solve, solve_max
from diceref.games.scorecard.solver.statespace import state_space


def assert_same_table(fast: np.ndarray, reference: np.ndarray) -> None:
    assert fast.shape == reference.shape
    assert np.array_equal(np.isnan(fast), np.isnan(reference))  # the same states reachable
    reached = ~np.isnan(reference)
    assert reached.any()
    np.testing.assert_allclose(fast[reached], reference[reached], rtol=1e-9, atol=1e-9)


SMALL = ["chute-5", "russian-poker"]


@pytest.mark.parametrize("game", SMALL)
def test_value_table_equals_the_reference(game: str) -> None:
    ruleset = SCORECARD_GAMES[game]
    assert_same_table(solve(ruleset), solve_reference(ruleset))


@pytest.mark.parametrize("game", sorted(SCORECARD_GAMES))
def test_max_table_equals_the_reference(game: str) -> None:
    ruleset = SCORECARD_GAMES[game]
    assert_same_table(solve_max(ruleset), solve_max_reference(ruleset))


@pytest.mark.parametrize(
    "ruleset",
    [
        variant("yatzy", order="forced"),
        variant("yatzy", order="forced", throws_per_turn=4),
        variant("russian-poker", throws_per_turn=1),
    ],
    ids=["forced-order", "forced-order-4-throws", "one-throw"],
)
def test_forced_order_and_one_throw_turns_equal_the_reference(ruleset: Ruleset) -> None:
    """Every box in scorecard order, and turns of a single throw (no keep to solve)."""
    assert_same_table(solve(ruleset), solve_reference(ruleset))
    assert_same_table(solve_max(ruleset), solve_max_reference(ruleset))


HOUSE_RULES: list[Ruleset] = [
    variant("yardzee", matching_upper_forced=False),  # Joker: free choice, natural value while open
    variant("yardzee", joker_when_scratched=False),
    variant("dice-poker", upper_bonus_strictly_greater=False, two_pairs_distinct=False),
]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["yahtzee", "yardzee"])
def test_joker_games_equal_the_reference(game: str) -> None:
    ruleset = SCORECARD_GAMES[game]
    assert_same_table(solve(ruleset), solve_reference(ruleset))


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", HOUSE_RULES[:2], ids=lambda r: r.rules_hash)
def test_house_rules_equal_the_reference(ruleset: Ruleset) -> None:
    assert_same_table(solve(ruleset), solve_reference(ruleset))
    assert_same_table(solve_max(ruleset), solve_max_reference(ruleset))


def test_fifteen_boxes_at_sampled_states() -> None:
    """dice-poker (15 boxes, 1.4 million states) is too slow for the reference in full: its
    fast table is checked by evaluating the reference's turn at sampled states of every
    layer against the fast table's own next states."""
    ruleset = HOUSE_RULES[2]
    table = solve(ruleset)
    space = state_space(ruleset)
    mask, sub, flag = space.all_states()
    rng = np.random.default_rng(14)
    pick = np.sort(rng.choice(len(mask), size=2048, replace=False))
    pick = pick[mask[pick] != (1 << space.n_boxes) - 1]
    m, s, f = mask[pick], sub[pick], flag[pick]
    reference = turn_values(space, table, m, s, f).start
    np.testing.assert_allclose(table[space.index(m, s, f)], reference, rtol=1e-9, atol=1e-9)


def test_plan_is_built_once_per_ruleset() -> None:
    ruleset = SCORECARD_GAMES["chute-5"]
    assert batched.turn_plan(ruleset) is batched.turn_plan(ruleset)


def test_progress_counts_every_state_once() -> None:
    ruleset = SCORECARD_GAMES["russian-poker"]
    seen: list[tuple[int, int]] = []
    solve(ruleset, progress=lambda done, total: seen.append((done, total)))
    mask, _, _ = state_space(ruleset).all_states()
    total = int((mask != (1 << len(ruleset.boxes)) - 1).sum())
    assert seen[-1] == (total, total)
    assert all(a[0] < b[0] for a, b in itertools.pairwise(seen))


def test_forked_helper_and_threads_give_the_same_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes on shared memory (the default with two cores) and threads (the
    fallback) solve with the same arithmetic; batches cut at other states may round
    differently in the last bit, never more."""
    ruleset = SCORECARD_GAMES["chute-5"]
    assert len(state_space(ruleset).all_states()[0]) >= batched.FORK_MIN_STATES
    monkeypatch.setattr(batched, "THREADS", 2)
    monkeypatch.setattr(batched, "FORK", True)
    forked = solve(ruleset)
    monkeypatch.setattr(batched, "FORK", False)
    threaded = solve(ruleset)
    np.testing.assert_allclose(forked, threaded, rtol=1e-13, atol=1e-12)
    assert np.array_equal(np.isnan(forked), np.isnan(threaded))
    monkeypatch.setattr(batched, "THREADS", 1)
    np.testing.assert_allclose(solve(ruleset), threaded, rtol=1e-13, atol=1e-12)


def test_a_failing_helper_fails_the_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error in the forked helper is not a table with holes: the solve raises."""
    import os

    ruleset = SCORECARD_GAMES["chute-5"]
    parent = os.getpid()
    real = batched.solve_block

    def fails_in_child(*args: object, **kwargs: object) -> object:
        if os.getpid() != parent:
            raise MemoryError("no memory in the helper")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(batched, "THREADS", 2)
    monkeypatch.setattr(batched, "FORK", True)
    monkeypatch.setattr(batched, "solve_block", fails_in_child)
    with pytest.raises(RuntimeError, match="helper process failed"):
        solve(ruleset)


def test_both_tables_in_one_pass_equal_each_alone() -> None:
    ruleset = SCORECARD_GAMES["chute-5"]
    values, best = batched.solve_tables(ruleset)
    assert values is not None and best is not None
    np.testing.assert_array_equal(values, solve(ruleset))
    np.testing.assert_array_equal(best, solve_max(ruleset))


HELPER_RACE = """
import mmap, os, time
import numpy as np
from diceref.games.scorecard.solver import batched

parent = os.getpid()
runs = np.frombuffer(mmap.mmap(-1, 8 * 64), dtype=np.int64)
layers = [(0, 100), (100, 5000), (5000, 5001), (5001, 5001), (5001, 90000)]

def run(part):
    if os.getpid() == parent:
        time.sleep(0.02)  # a slow parent: the child finishes each layer first
    runs[part.start % 64] += 1
    return part.stop - part.start

with batched._ForkedHalf(run, layers) as helper:
    assert sum(helper.layer() for _ in layers) == 90000
print(sum(len(blocks) for blocks in helper.blocks), int(runs.sum()))
"""


def test_helper_and_parent_take_each_block_once_whoever_is_faster() -> None:
    """Regression: a child that finished its layer first must not read the parent's end
    mark as the next layer's (both then waited for blocks that never came)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", HELPER_RACE], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    blocks, runs = done.stdout.split()
    assert blocks == runs and int(blocks) > len("01234")
