"""The packed play-to-win tables: their size, and the time to read them as requests do.

    uv run python benchmarks/bench_packed.py [--game yahtzee] [--rounds 300]

Loads the game's win and distribution tables from DICEREF_CACHE_DIR (default the test
cache `.cache/`; `diceref precompute --target GAME` fills it), prints each file's size
beside float32's (four bytes a value, as the tables were stored before) and the bits a
value, then times `lookup` of 100 values of distinct random states at one need each (what
`/holds` with a target reads) and a whole band (`/distributions` at a turn's start), p50
and max over `--rounds`, beside the peers' published table sizes.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.tables import band_table, distribution_spec, win_spec
from diceref.tables.config import TableSettings
from diceref.tables.spec import load_sync
from diceref.tables.store import TableStore

CACHE = Path(os.environ.get("DICEREF_CACHE_DIR", Path(__file__).parent.parent / ".cache"))


def quantiles(times: list[float]) -> str:
    times = sorted(times)
    return f"p50 {times[len(times) // 2] * 1e6:.0f} µs, max {times[-1] * 1e6:.0f} µs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="yahtzee")
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    ruleset = SCORECARD_GAMES[args.game]
    store = TableStore(TableSettings(cache_dir=CACHE))
    rng = np.random.default_rng(0)
    for spec in (win_spec(ruleset), distribution_spec(ruleset)):
        array = load_sync(store, spec).array
        table = band_table(array)
        table.warm()
        width = (table.hi.astype(np.int64) - table.lo).clip(0)
        values = int(width.sum())
        print(
            f"{args.game} {spec.kind}: {array.nbytes / 1e6:.1f} MB packed, "
            f"{(values + 4 * table.size) * 4 / 1e6:.1f} MB as float32, "
            f"{values / 1e6:.1f} million values, "
            f"{array.nbytes * 8 / max(values, 1):.1f} bits a value"
        )
        banded = np.flatnonzero(width > 0)
        lookups, rows = [], []
        for _ in range(args.rounds):
            states = rng.choice(banded, 100)
            needs = table.lo[states] + (width[states] * rng.random(100)).astype(np.int64)
            start = time.perf_counter()
            table.lookup(states, needs)
            lookups.append(time.perf_counter() - start)
            state = int(rng.choice(banded))
            start = time.perf_counter()
            table.row(state, int(table.lo[state]), int(table.hi[state]))
            rows.append(time.perf_counter() - start)
        print(f"  100 values of distinct states: {quantiles(lookups)}; a band: {quantiles(rows)}")
    print(
        "peers, as published: timpalpant/yahtzee's beat-a-score tables 1.8 GB (one ruleset); "
        "Holderied's advisor 1.6 GB"
    )


if __name__ == "__main__":
    main()
