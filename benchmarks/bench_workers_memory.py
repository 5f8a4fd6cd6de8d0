"""Resident memory of `diceref serve --workers N` for N = 1, 2, 3, every table loaded.

Each worker maps the disk cache's table files read-only, so the workers of a host share
those pages instead of each holding a private copy.  For every N this prints, summed over
the server's processes (the granian main process and its workers): RSS, PSS (shared pages
divided among the processes mapping them) and USS (pages private to one process), plus the
table files' mapped pages, and the cost of each extra worker as the growth of the summed
PSS from N - 1 to N workers.  Target (issue 7): under 60 MB per extra worker.

Run: uv run python benchmarks/bench_workers_memory.py   (uses the tables in .cache/)
"""

from __future__ import annotations

import itertools
import os
import re
import sys
import time
from pathlib import Path

import httpx

from _server import serve
from diceref.games.scorecard.rules.games import SCORECARD_GAMES

CACHE = Path(os.environ.get("DICEREF_TEST_CACHE", Path(__file__).parent.parent / ".cache"))
MB = 1024 * 1024


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(c) for c in text]
    return found


def rollup(pid: int) -> dict[str, int]:
    """Bytes of Rss, Pss and private (Uss) memory of one process."""
    fields = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value, *_ = line.split()
        fields[name.rstrip(":")] = int(value) * 1024
    return {
        "rss": fields["Rss"],
        "pss": fields["Pss"],
        "uss": fields["Private_Clean"] + fields["Private_Dirty"],
    }


def table_mappings(pid: int) -> tuple[int, int]:
    """(Rss, Private) bytes of this process's mappings of .dtbl table files."""
    rss = private = 0
    current = False
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            current = line.rstrip().endswith(".dtbl")
        elif current and line.startswith("Rss:"):
            rss += int(line.split()[1]) * 1024
        elif current and line.startswith(("Private_Clean:", "Private_Dirty:")):
            private += int(line.split()[1]) * 1024
    return rss, private


def all_loaded(base: str, workers: int) -> bool:
    text = httpx.get(base + "/metrics", timeout=5).text
    loads = re.findall(
        r'^diceref_table_loads_total\{game="([^"]+)",kind="value".*\} (\S+)$', text, re.M
    )
    per_game: dict[str, float] = {}
    for game, count in loads:
        per_game[game] = per_game.get(game, 0) + float(count)
    return len(per_game) == len(SCORECARD_GAMES) and all(v >= workers for v in per_game.values())


def measure(workers: int) -> dict[str, float]:
    env = {"DICEREF_CACHE_DIR": str(CACHE), "DICEREF_PRELOAD": "all", "REDIS_URL": ""}
    with serve(workers=workers, env=env, ready_path="/readyz") as server:
        base = server.base
        deadline = time.monotonic() + 120
        while not all_loaded(base, workers):
            if time.monotonic() > deadline:
                raise RuntimeError("tables did not load in every worker")
            time.sleep(0.5)
        for _ in range(200):  # touch every route so each worker's code paths are warm
            httpx.post(base + "/score", json={"game": "yahtzee", "dice": [1, 2, 3, 4, 5]})
        time.sleep(1)
        port = base.rsplit(":", 1)[1]
        # granian's workers are forked: they share the main process's command line
        main = [
            int(p)
            for p in os.listdir("/proc")
            if p.isdigit()
            and f"--port\0{port}\0" in Path(f"/proc/{p}/cmdline").read_text(errors="replace")
        ]
        pids = sorted(set(main) | {c for m in main for c in children(m)})
        totals = {"rss": 0, "pss": 0, "uss": 0, "table_rss": 0, "table_private": 0}
        for pid in pids:
            own = rollup(pid)
            role = "main" if pid in main and pid == min(pids) else "worker"
            print(
                f"  {workers} worker(s): {role:6} pid {pid}: RSS {own['rss'] / MB:.1f} MB, "
                f"PSS {own['pss'] / MB:.1f} MB, USS {own['uss'] / MB:.1f} MB"
            )
            for k, v in own.items():
                totals[k] += v
            t_rss, t_private = table_mappings(pid)
            totals["table_rss"] += t_rss
            totals["table_private"] += t_private
        return {k: v / MB for k, v in totals.items()} | {"processes": len(pids)}


def main() -> None:
    counts = [int(a) for a in sys.argv[1:]] or [1, 2, 3]
    results = {n: measure(n) for n in counts}
    print(
        f"{'workers':>7} {'procs':>5} {'RSS MB':>8} {'PSS MB':>8} {'USS MB':>8} "
        f"{'tables RSS':>10} {'tables private':>14}"
    )
    for n, r in results.items():
        print(
            f"{n:>7} {r['processes']:>5.0f} {r['rss']:>8.1f} {r['pss']:>8.1f} {r['uss']:>8.1f} "
            f"{r['table_rss']:>10.1f} {r['table_private']:>14.1f}"
        )
    for a, b in itertools.pairwise(counts):
        if b == a + 1:
            extra = results[b]["pss"] - results[a]["pss"]
            verdict = "OK" if extra < 60 else "OVER TARGET"
            print(f"worker {b}: +{extra:.1f} MB PSS (target < 60 MB) {verdict}")


if __name__ == "__main__":
    main()
