"""Yardkle policy tables against the solvable bound: levels, bytes and solve time of the
built-in game, of hot dice forced, of a 1-point step and of the borderline rules that
need exactly `MAX_LEVELS` levels (`diceref.games.yardkle.tables`).

    uv run python benchmarks/bench_yardkle_limits.py [--runs 3]

Each solve runs in a fresh process (`python -c`), so the scoring tables every new ruleset
builds first are in the time, as a solver worker pays them; the median of `--runs` is
printed with the load average, the machine being shared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CASES = {
    "built-in": {},
    "hot dice forced": {"hot_dice_optional": False},
    "1-point step (single 1 and 5 at 1)": {"single_one": 1, "single_five": 1},
    "borderline (single 5 at 49, straight 6,371)": {"single_five": 49, "straight": 6371},
}

CHILD = """
import json, sys, time
t = time.perf_counter()
from diceref.games.yardkle.rules.ruleset import YardkleRules
from diceref.games.yardkle.solver import policy
from diceref.games.yardkle.tables import levels_needed
rules = YardkleRules(**json.loads(sys.argv[1]))
values = policy.solve(rules).values
print(json.dumps({"levels": levels_needed(rules), "bytes": values.nbytes,
                  "seconds": time.perf_counter() - t}))
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    from diceref.games.yardkle.tables import MAX_LEVELS

    print(f"MAX_LEVELS {MAX_LEVELS:,}; load average {os.getloadavg()[0]:.2f}", flush=True)
    for name, rules in CASES.items():
        got = [
            json.loads(
                subprocess.run(
                    [sys.executable, "-c", CHILD, json.dumps(rules)],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
            )
            for _ in range(runs)
        ]
        seconds = statistics.median(g["seconds"] for g in got)
        print(
            f"{name:45} {got[0]['levels']:>7,} levels {got[0]['bytes']:>10,} bytes "
            f"{seconds:6.2f} s (median of {runs})",
            flush=True,
        )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
