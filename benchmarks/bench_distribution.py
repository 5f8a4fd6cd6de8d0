"""The distribution table's solve, compiled against the state-by-state reference.

    uv run python benchmarks/bench_distribution.py [--game yahtzee] [--rule KEY=JSON ...]
        [--open BOX ...] [--solve reference compiled] [--threads 2]

Solves the distribution table of the sub-game whose only open boxes are `--open` (every box
without it) once per `--solve`, in one process: `reference` is `target.solve_distribution`
(numpy, state by state, one process), `compiled` is `dist_kernel.solve_distribution_fast`
(the compiled loop, `--threads` threads; its machine code is loaded before the clock
starts).  Prints each solve's wall time beside the load average, then whether the tables
have the same bands (`lo`, `hi`), their largest difference and whether they are the same
to the bit.  `--rule`: a rule changed, as `variant` takes it (Verhoeff's: `--rule
joker='"free_choice"' --rule matching_upper_forced=false`).  The value table comes from
DICEREF_CACHE_DIR (default the test cache `.cache/`), solved there first when missing.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import variant
from diceref.games.scorecard.solver import dist_kernel
from diceref.games.scorecard.solver.bands import BandTable
from diceref.games.scorecard.solver.statespace import state_space
from diceref.games.scorecard.solver.target import layers, solve_distribution
from diceref.games.scorecard.tables import value_spec
from diceref.tables.config import TableSettings
from diceref.tables.spec import load_sync
from diceref.tables.store import TableStore

CACHE = Path(os.environ.get("DICEREF_CACHE_DIR", Path(__file__).parent.parent / ".cache"))
SOLVES = ("reference", "compiled")


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def bands_in_order(table: BandTable) -> FloatArray:
    """Every band's values, state by state in index order (a table's own order of its
    bands depends on how it was solved)."""
    has = np.flatnonzero(table.hi > table.lo)
    n = table.hi[has] - table.lo[has]
    at = np.repeat(table.start[has] - (np.cumsum(n) - n), n) + np.arange(int(n.sum()))
    out: FloatArray = table.values[at]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="yahtzee")
    parser.add_argument("--rule", action="append", default=[], help="KEY=JSON, a rule changed")
    parser.add_argument("--open", nargs="*", default=[], help="the sub-game's open boxes")
    parser.add_argument("--solve", nargs="+", choices=SOLVES, default=list(SOLVES))
    parser.add_argument("--threads", type=int, default=dist_kernel.THREADS)
    args = parser.parse_args()
    rules = {k: json.loads(v) for k, v in (rule.split("=", 1) for rule in args.rule)}
    ruleset = variant(args.game, **rules)
    values = load_sync(TableStore(TableSettings(cache_dir=CACHE)), value_spec(ruleset)).array
    within = 0
    if args.open:
        within = (1 << len(ruleset.boxes)) - 1
        for box in args.open:
            within &= ~(1 << ruleset.box_index[box])
    states = sum(map(len, layers(state_space(ruleset), within)))
    print(f"{args.game} {rules}, open {args.open or 'every box'}: {states} states")
    tables: list[BandTable] = []
    for solve in args.solve:
        if solve == "compiled":
            start = time.perf_counter()
            mask, sub, flag = state_space(ruleset).all_states()  # the empty card first
            dist_kernel.turn_ends_many(ruleset, values, [(int(mask[0]), int(sub[0]), int(flag[0]))])
            print(f"  the compiled loop loaded in {time.perf_counter() - start:.1f} s")
        start = time.perf_counter()
        if solve == "reference":
            tables.append(solve_distribution(ruleset, values, within=within))
            how = "target.solve_distribution, state by state"
        else:
            tables.append(
                dist_kernel.solve_distribution_fast(
                    ruleset, values, within=within, threads=args.threads
                )
            )
            how = f"dist_kernel.solve_distribution_fast, {args.threads} threads"
        wall = time.perf_counter() - start
        print(f"  {solve} ({how}): {wall:.1f} s wall (load {load()})", flush=True)
    if len(tables) == 2:
        a, b = tables
        bounds = np.array_equal(a.lo, b.lo) and np.array_equal(a.hi, b.hi)
        print(f"  the same bands (lo, hi): {bounds}")
        if bounds:
            va, vb = bands_in_order(a), bands_in_order(b)
            worst = float(np.abs(va - vb).max()) if len(va) else 0.0
            same = np.array_equal(va, vb)
            print(f"  largest difference {worst:.1e}; the same to the bit: {same}")


if __name__ == "__main__":
    main()
