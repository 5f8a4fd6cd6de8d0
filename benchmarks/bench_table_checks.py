"""What verifying a table file costs: the load of the largest table in a cache directory
(map it, check its size and checksum) in fresh processes, and the per-read check that its
file was not changed in place since (one `stat`).

    uv run python benchmarks/bench_table_checks.py [--cache-dir DIR] [--runs 9]

DIR defaults to $DICEREF_CACHE_DIR, else the repository's `.cache` (the test cache, where
the largest table is Dice Poker's 34 MB value table).  The table is copied into a temporary
cache directory first, so nothing in DIR is touched.  Run it with another checkout's
interpreter (`/path/to/other/.venv/bin/python benchmarks/bench_table_checks.py`) to compare
two versions side by side on one machine; a version without the per-read check prints
`null` for it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from diceref.tables.disk import SUFFIX, DiskCache
from diceref.tables.key import TableKey


def key_of(path: Path) -> TableKey:
    kind, rest = path.name.removesuffix(SUFFIX).split("-", 1)
    game, rules_hash, version = rest.rsplit("-", 2)
    return TableKey(kind, game, rules_hash, version.removeprefix("v"))


def child(cache_dir: str, name: str) -> None:
    """One cold load, then 100,000 checks; prints the seconds of each as JSON."""
    disk = DiskCache(Path(cache_dir))
    key = key_of(Path(name))
    start = time.perf_counter()
    table = disk.load(key)
    loaded = time.perf_counter() - start
    assert table is not None
    check = None
    if hasattr(disk, "changed"):
        start = time.perf_counter()
        for _ in range(100_000):
            disk.changed(key)
        check = (time.perf_counter() - start) / 100_000
    print(json.dumps({"load_s": loaded, "check_s": check}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    default = os.environ.get("DICEREF_CACHE_DIR") or str(Path(__file__).parents[1] / ".cache")
    parser.add_argument("--cache-dir", default=default)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    tables = sorted(
        Path(args.cache_dir, "tables").glob(f"*{SUFFIX}"), key=lambda p: p.stat().st_size
    )
    largest = tables[-1]
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "tables").mkdir()
        shutil.copyfile(largest, Path(scratch) / "tables" / largest.name)
        runs = []
        for _ in range(args.runs):
            out = subprocess.run(
                [sys.executable, __file__, "--child", scratch, largest.name],
                capture_output=True,
                text=True,
                check=True,
            )
            runs.append(json.loads(out.stdout))
    loads = [r["load_s"] for r in runs]
    checks = [r["check_s"] for r in runs if r["check_s"] is not None]
    report = {
        "table": largest.name,
        "mb": round(largest.stat().st_size / 1e6, 1),
        "load_ms_median": round(statistics.median(loads) * 1000, 1),
        "load_ms_min": round(min(loads) * 1000, 1),
        "check_us_median": round(statistics.median(checks) * 1e6, 2) if checks else None,
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
