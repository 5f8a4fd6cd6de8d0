"""Resident memory of the house-rules solver processes before and after solves, with a fresh
process per solve (the service's `SolverPool`) and with processes kept for every solve.

Each configuration solves the same distinct Yatzy variants' value tables, one after the
other, in a pool of one process, and prints the RSS of the pool's processes when idle
before the first solve and after each solve (the process that then waits for the next
solve: with recycling a fresh one), and the median wall time of a solve as the service
waits for it (with recycling, the fresh process was spawned while nothing was solved).
Run: uv run python benchmarks/bench_solver_memory.py [solves] [upper-bonus threshold]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from diceref.games.scorecard.rules.games import variant
from diceref.games.scorecard.tables import value_spec
from diceref.tables.solver_pool import SolverPool


def rss_mib(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def settled_pids(pool: SolverPool, timeout: float = 30.0) -> list[int]:
    """The pool's processes once it has as many as it keeps (a recycled one is replaced
    right after its solve)."""
    deadline = time.monotonic() + timeout
    while len(pids := pool.worker_pids()) < pool.workers and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # the new process's imports
    return pids


def run(
    label: str, solves_per_process: int | None, solves: int, threshold: int, kernels: Path
) -> None:
    pool = SolverPool(1, kernel_dir=kernels, solves_per_process=solves_per_process)
    try:
        pool.solve(
            value_spec(variant("yatzy", upper_bonus_threshold=5, upper_bonus_points=1)).solve
        )
        idle = rss_mib(settled_pids(pool))
        after, seconds = [], []
        for n in range(solves):
            ruleset = variant("yatzy", upper_bonus_threshold=threshold, upper_bonus_points=n + 2)
            started = time.perf_counter()
            pool.solve(value_spec(ruleset).solve)
            seconds.append(time.perf_counter() - started)
            after.append(rss_mib(settled_pids(pool)))
    finally:
        pool.shutdown()
    print(
        f"{label:<22} idle {idle:4.0f} MiB; after each solve "
        + " ".join(f"{m:4.0f}" for m in after)
        + f" MiB; median solve {statistics.median(seconds):5.2f} s"
    )


def main() -> None:
    solves = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    threshold = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    print(f"{solves} Yatzy value tables, upper bonus at {threshold}, one solver process")
    with tempfile.TemporaryDirectory() as kernels:  # compiled once, loaded by each process
        for _ in range(2):  # alternated: the machine drifts
            run("fresh process a solve", 1, solves, threshold, Path(kernels))
            run("processes kept", None, solves, threshold, Path(kernels))


if __name__ == "__main__":
    main()
