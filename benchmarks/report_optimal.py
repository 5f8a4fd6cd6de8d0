"""Every scorecard game's optimal expected score, and a seeded simulation of optimal play
that must agree with it within its standard error (the figures in docs/solver.md).

Run: uv run python benchmarks/report_optimal.py [games per simulation] [seed]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.scorecard import Scorecard
from diceref.games.scorecard.solver.advice import expected_final_score
from diceref.games.scorecard.solver.simulate import simulate
from diceref.games.scorecard.tables import max_score, max_spec, value_spec
from diceref.tables.config import TableSettings
from diceref.tables.spec import load_sync
from diceref.tables.store import TableStore

CACHE = Path(os.environ.get("DICEREF_CACHE_DIR", Path(__file__).parent.parent / ".cache"))


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    store = TableStore(TableSettings(cache_dir=CACHE))
    print(
        f"| game | optimal expected score | max score | simulated mean ({games} games, "
        f"seed {seed}) | std | standard error | deviation / SE | p5 | p25 | p50 | p75 | p95 |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for game, ruleset in SCORECARD_GAMES.items():
        values = load_sync(store, value_spec(ruleset)).array
        expected = expected_final_score(ruleset, values, Scorecard())
        started = time.perf_counter()
        s = simulate(ruleset, values, games, seed)
        z = (s.mean - expected) / s.standard_error
        p = s.percentiles
        best = max_score(load_sync(store, max_spec(ruleset)).array)
        print(
            f"| `{game}` | {expected:.7f} | {best} | {s.mean:.3f} | "
            f"{s.std:.2f} | {s.standard_error:.3f} | {z:+.2f} | {p[5]:.0f} | {p[25]:.0f} | "
            f"{p[50]:.0f} | {p[75]:.0f} | {p[95]:.0f} |",
            flush=True,
        )
        print(f"  ({time.perf_counter() - started:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
