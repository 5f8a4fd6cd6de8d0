"""Two-player Yardkle, the reference solver (`solver/duel.py`): for each small game, the
first player's chance to win, the proven error bound and contraction factor, the deepest
turn cap and the solve time.

    uv run python benchmarks/bench_yardkle_duel.py [--six]

`--six` adds the six-dice games to 1,000 (about a minute each); the others play three dice,
the games the tests hold to a brute force.  The time is wall time on a shared machine, so
the load average is printed with it.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from diceref.games.yardkle.rules.ruleset import YardkleRules
from diceref.games.yardkle.solver.duel import solve_duel

THREE_DICE: dict[str, dict[str, Any]] = {
    "3 dice to 1,000": {"dice": 3, "target": 1000},
    "3 dice to 1,000, no entry minimum": {"dice": 3, "target": 1000, "entry_minimum": 0},
    "3 dice to 1,000, three 1s 1,000": {"dice": 3, "target": 1000, "three_ones": 1000},
    "3 dice to 1,000, ties not shared": {"dice": 3, "target": 1000, "ties_share_win": False},
    "3 dice to 2,000": {"dice": 3, "target": 2000},
    "3 dice to 2,000, no entry minimum": {"dice": 3, "target": 2000, "entry_minimum": 0},
}
SIX_DICE: dict[str, dict[str, Any]] = {
    "6 dice to 1,000": {"target": 1000},
    "6 dice to 1,000, no entry minimum": {"target": 1000, "entry_minimum": 0},
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--six", action="store_true")
    args = parser.parse_args()
    cases = {**THREE_DICE, **(SIX_DICE if args.six else {})}
    print("| game | first player wins | error bound | L | deepest cap | seconds | load |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, rules in cases.items():
        start = time.perf_counter()
        table = solve_duel(YardkleRules(**rules))
        took = time.perf_counter() - start
        cap = max(turn.cap for turn in table.turns.values())
        print(
            f"| {name} | {table.values[0, 0]:.9f} | {table.error_bound:.1e} | "
            f"{table.contraction:.5f} | {cap} | {took:.1f} | {os.getloadavg()[0]:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
