"""Backward induction over a scorecard game: the expected points still to come from every
reachable state under optimal play, and the most points still to come if every throw
could be chosen.  Both tables are solved by `batched.py` from the ruleset's compiled turn;
the play-to-win tables, packed layer by layer as they are solved, by `win_solve` and
`dist_kernel`.
"""

from __future__ import annotations

from collections.abc import Callable

from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.solver import batched
from diceref.games.scorecard.solver.bands import Float32Array

SOLVER_VERSION = "5"  # bump whenever a table computed before would differ
Progress = Callable[[int, int], None]


def solve(ruleset: Ruleset, progress: Progress | None = None) -> FloatArray:
    """The value table: expected points still to come from each state (NaN: unreachable)."""
    return batched.solve_table(ruleset, progress)


def solve_with_max(
    ruleset: Ruleset, progress: Progress | None = None
) -> tuple[FloatArray, FloatArray]:
    """The value table and the max table from the same pass: both read the same successor
    states, so the max table costs a tenth of the solve instead of a pass of its own."""
    values, best = batched.solve_tables(ruleset, progress, value=True, maximum=True)
    assert values is not None and best is not None
    return values, best


def solve_max(ruleset: Ruleset) -> FloatArray:
    """Most points still to come from each state if every throw could be chosen."""
    return batched.solve_table(ruleset, maximum=True)


def solve_win_packed(ruleset: Ruleset, progress: Progress | None = None) -> Float32Array:
    """The win table in its stored form (`packed`), packed layer by layer as it is solved."""
    from diceref.games.scorecard.solver.win_solve import solve_win_packed as solve_packed

    return solve_packed(ruleset, progress)


def solve_distribution_packed(
    ruleset: Ruleset, values: FloatArray, progress: Progress | None = None
) -> Float32Array:
    """The distribution table in its stored form (`packed`), packed layer by layer."""
    from diceref.games.scorecard.solver.dist_kernel import solve_distribution_packed as packed

    return packed(ruleset, values, progress)
