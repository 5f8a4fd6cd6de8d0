"""Solving official Yahtzee from scratch: our `solve` against the `yatzy-solver` reference.

    uv run python benchmarks/bench_solver.py [--runs 3]

Alternates the two builds in one process (ours, theirs, ours, theirs, ...), `--runs` times
each, and prints every run, the medians, the ratio and both start values (expected final
score from an empty card; both are 254.5877287 under the forced Joker).

- Ours: `engine.solve(SCORECARD_GAMES["yahtzee"])` (`diceref.games.scorecard.solver`), no
  table store or disk cache; before each run the in-process memos the solve builds on (state
  space, points table, keep graph, throw rows, turn plan) are dropped, so every run starts
  from scratch.  With two cores it forks one helper process (`batched.py`;
  `batched.FORK = False` for threads instead); its CPU is not in this process's CPU time
  below (see `bench_precompute.py` for whole processes, helper included).
- Theirs: `yatzy_solver.Solver.build(Variant("american+forced-joker"))`, an in-memory f64
  solve on rayon's pool (every core unless RAYON_NUM_THREADS says otherwise).

Wall time is what is compared; CPU time (all threads of the process, with its system part)
and minor page faults are printed beside it: the first solve in a process spends seconds of
system time faulting in fresh pages for its temporaries, which later runs in the same
process reuse, so run 1 of ours is the cold one.  On a shared machine the load average is
printed before and after: other work slows both sides.
`yatzy-solver` is a dev dependency: this benchmark, like the tests, is its only user.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import time
from collections.abc import Callable

import numpy as np
import yatzy_solver as ys

from diceref.games.scorecard.rules import points, turn
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.solver import batched, keeps, statespace
from diceref.games.scorecard.solver.engine import solve
from diceref.games.scorecard.solver.statespace import state_space

GAME = "yahtzee"
VARIANT = "american+forced-joker"
PUBLISHED = 254.5877287  # forced Joker, as RULES.md and the reference's docs quote it


def forget_derived() -> None:
    """Drop what an earlier solve left in process memory (so 'from scratch' means it)."""
    statespace._SPACES.clear()
    points._CACHE.clear()
    turn._MODELS.clear()
    keeps.keep_graph.cache_clear()
    batched._PLANS.clear()


def ours() -> float:
    forget_derived()
    ruleset = SCORECARD_GAMES[GAME]
    values = solve(ruleset)
    zero = np.zeros(1, dtype=np.int64)
    return float(values[state_space(ruleset).index(zero, zero, zero)[0]])


def theirs() -> float:
    solver = ys.Solver.build(ys.Variant(VARIANT))
    return float(solver.state_value("upper 0 | filled -"))


def timed(build: Callable[[], float]) -> tuple[float, float, float, int, float]:
    """Wall and CPU seconds, system seconds, minor page faults, and the start value."""
    gc.collect()
    before = resource.getrusage(resource.RUSAGE_SELF)
    wall, cpu = time.perf_counter(), time.process_time()
    start_value = build()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    after = resource.getrusage(resource.RUSAGE_SELF)
    faults = after.ru_minflt - before.ru_minflt
    return wall, cpu, after.ru_stime - before.ru_stime, faults, start_value


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs

    print(
        f"{GAME} from scratch, {runs} runs each, alternating; cores {os.cpu_count()}, "
        f"ours {batched.THREADS} cores, theirs RAYON_NUM_THREADS="
        f"{os.environ.get('RAYON_NUM_THREADS', 'unset (all cores)')}; "
        f"yatzy-solver {ys.SOLVER_VERSION}, numpy {np.__version__}"
    )
    print(f"load average before: {load()}")
    sides: dict[str, Callable[[], float]] = {
        "diceref solve": ours,
        f"yatzy-solver {VARIANT}": theirs,
    }
    walls: dict[str, list[float]] = {name: [] for name in sides}
    starts: dict[str, float] = {}
    for run in range(1, runs + 1):
        for name, build in sides.items():
            wall, cpu, system, faults, start_value = timed(build)
            walls[name].append(wall)
            starts[name] = start_value
            print(
                f"run {run}  {name:38} {wall:6.2f} s wall  {cpu:6.2f} s CPU "
                f"({system:5.2f} s system, {faults:>9,} page faults)  start {start_value:.10f}",
                flush=True,
            )
    print(f"load average after:  {load()}")

    medians = {name: statistics.median(times) for name, times in walls.items()}
    for name, median in medians.items():
        print(f"median  {name:38} {median:7.2f} s")
    ours_median, theirs_median = medians.values()
    print(f"ratio   diceref / yatzy-solver = {ours_median / theirs_median:.2f}")
    ours_start, theirs_start = starts.values()
    print(
        f"start values: diceref {ours_start:.10f}, yatzy-solver {theirs_start:.10f}, "
        f"difference {ours_start - theirs_start:+.2e} (published {PUBLISHED})"
    )


if __name__ == "__main__":
    main()
