"""The distribution table's solve, batched turn ends against the state-by-state reference.

    uv run python benchmarks/bench_distribution.py [--game yahtzee] [--rule KEY=JSON ...]
        [--open BOX ...] [--batch 0 32]

Solves the distribution table (`win_kernel.solve_distribution_fast`, the forked helper
included) of the sub-game whose only open boxes are `--open` (every box without it), once
per `--batch` in one process (0: `target.turn_ends` state by state, the reference; n: the
turn ends of n states at once, `ends_batch`), and prints each solve's wall time beside the
load average, and whether the tables are the same to the bit.  `--rule`: a rule changed,
as `variant` takes it (Verhoeff's: `--rule joker='"free_choice"' --rule
matching_upper_forced=false`).  The value table comes from DICEREF_CACHE_DIR (default the
test cache `.cache/`), solved there first when missing.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

from diceref.games.scorecard.rules.games import variant
from diceref.games.scorecard.solver import win_kernel
from diceref.games.scorecard.solver.bands import BandTable
from diceref.games.scorecard.solver.statespace import state_space
from diceref.games.scorecard.solver.target import layers
from diceref.games.scorecard.tables import value_spec
from diceref.tables.config import TableSettings
from diceref.tables.spec import load_sync
from diceref.tables.store import TableStore

CACHE = Path(os.environ.get("DICEREF_CACHE_DIR", Path(__file__).parent.parent / ".cache"))


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="yahtzee")
    parser.add_argument("--rule", action="append", default=[], help="KEY=JSON, a rule changed")
    parser.add_argument("--open", nargs="*", default=[], help="the sub-game's open boxes")
    parser.add_argument("--batch", nargs="+", type=int, default=[0, win_kernel.BATCH])
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
    for batch in args.batch:
        start = time.perf_counter()
        tables.append(
            win_kernel.solve_distribution_fast(ruleset, values, within=within, batch=batch)
        )
        wall = time.perf_counter() - start
        print(f"  batch {batch}: {wall:.1f} s wall (load {load()})", flush=True)
    first = tables[0]
    same = all(
        all(np.array_equal(getattr(first, f), getattr(t, f)) for f in ("lo", "hi", "values"))
        for t in tables[1:]
    )
    print(f"  the same table to the bit: {same}")


if __name__ == "__main__":
    main()
