"""Time to load a 35 MB table into a cold process, from disk and from Redis.

    uv run python benchmarks/bench_tables.py [--runs 5]

Each measurement runs in a fresh Python process (empty process memory), as a newly started
worker would.  "page cache dropped" first evicts the file with posix_fadvise, so the load
reads from the device (fincore shows whether it did).  A Redis load is timed until `get`
returns; the write-back to the replica's disk cache then runs in the background.  Finally
two processes map the same disk table at once and report how much of it is private to each
(the cost of an extra worker).  Uses REDIS_URL (default redis://127.0.0.1:6379/0) under a
throwaway key prefix that is deleted at the end.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import numpy as np
import redis

from diceref.tables import TableKey, TableSettings, TableStore

KEY = TableKey("value", "bench", "35mb", "0")
VALUES = 35_000_000 // 8


def refuse() -> np.ndarray:
    raise RuntimeError("the benchmark table should never be recomputed")


def settings(cache_dir: str, redis_url: str | None, prefix: str) -> TableSettings:
    return TableSettings(cache_dir=Path(cache_dir), redis_url=redis_url, redis_prefix=prefix)


def child(cache_dir: str, redis_url: str | None, prefix: str, hold: bool) -> None:
    """One cold load; prints source, seconds and the mapping's memory as JSON."""
    got = TableStore(settings(cache_dir, redis_url, prefix)).get_sync(KEY, refuse)
    report: dict[str, object] = {"source": got.source, "seconds": got.seconds}
    report.update(mapping_memory(str(Path(cache_dir) / "tables")))
    print(json.dumps(report), flush=True)
    if hold:  # keep the mapping alive while the parent starts another worker, then re-measure
        sys.stdin.readline()
        print(json.dumps(mapping_memory(str(Path(cache_dir) / "tables"))), flush=True)
        sys.stdin.read()  # until the parent has measured every worker
        assert got.array is not None  # the table stays mapped until here


def mapping_memory(directory: str) -> dict[str, float]:
    """Rss / Pss / private kB of this process's mappings of files in `directory`."""
    totals: dict[str, float] = {}
    inside = False
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            fields = line.split()
            if "-" in fields[0] and len(fields) >= 5:  # a mapping's header line
                inside = len(fields) >= 6 and fields[5].startswith(directory)
            elif inside and fields[0] in ("Rss:", "Pss:", "Private_Clean:", "Private_Dirty:"):
                name = fields[0].rstrip(":").lower()
                totals[name] = totals.get(name, 0.0) + int(fields[1]) / 1024
    return {f"{name}_mb": round(mb, 1) for name, mb in totals.items()}


def run_child(cache_dir: str, redis_url: str | None, prefix: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", cache_dir, redis_url or "", prefix],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(out.stdout)
    return result


def drop_page_cache(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def resident(path: Path) -> str:
    """How much of the file is in the page cache, per util-linux fincore if installed."""
    try:
        out = subprocess.run(
            ["fincore", "--noheadings", "--output", "RES", str(path)],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown (no fincore)"
    return out.stdout.strip()


def summary(name: str, seconds: list[float]) -> None:
    ms = sorted(s * 1000 for s in seconds)
    print(
        f"{name:<34} median {statistics.median(ms):7.1f} ms   "
        f"min {ms[0]:7.1f}   max {ms[-1]:7.1f}   ({len(ms)} runs)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--child", nargs=3, metavar=("CACHE_DIR", "REDIS_URL", "PREFIX"))
    parser.add_argument("--hold", action="store_true")
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1] or None, args.child[2], args.hold)
        return

    redis_url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    prefix = f"diceref-bench:{uuid.uuid4().hex}:"
    table = np.random.default_rng(0).random(VALUES)
    print(f"table: {table.nbytes / 1e6:.1f} MB float64, Redis at {redis_url}")
    with tempfile.TemporaryDirectory() as seeded, redis.Redis.from_url(redis_url) as client:
        try:
            seeder = TableStore(settings(seeded, redis_url, prefix))
            seeder.get_sync(KEY, lambda: table)
            del seeder  # unmap it here: the kernel will not evict pages a process maps
            gc.collect()
            path = Path(seeded) / "tables" / f"{KEY.id}.dtbl"

            warm = [run_child(seeded, None, prefix) for _ in range(args.runs)]
            cold = []
            for _ in range(args.runs):
                drop_page_cache(path)
                cold.append(run_child(seeded, None, prefix))
            drop_page_cache(path)
            print(f"after dropping, resident: {resident(path)}")
            from_redis = []
            for _ in range(args.runs):
                with tempfile.TemporaryDirectory() as empty:
                    from_redis.append(run_child(empty, redis_url, prefix))
            for name, runs, source in (
                ("disk (page cache warm)", warm, "disk"),
                ("disk (page cache dropped)", cold, "disk"),
                ("redis (empty disk cache)", from_redis, "redis"),
            ):
                assert all(r["source"] == source for r in runs), runs
                summary(name, [float(str(r["seconds"])) for r in runs])

            command = [sys.executable, __file__, "--child", seeded, "", prefix, "--hold"]
            workers = []
            for _ in range(2):  # one after the other, each keeping its mapping
                worker = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                assert worker.stdout is not None
                worker.stdout.readline()
                workers.append(worker)
            print("two workers mapping the disk table at once (MB of that mapping):")
            for n, worker in enumerate(workers, 1):
                assert worker.stdin is not None and worker.stdout is not None
                worker.stdin.write(b"\n")
                worker.stdin.flush()
                print(f"  worker {n}: {json.loads(worker.stdout.readline())}")
            for worker in workers:
                worker.communicate()
        finally:
            keys = list(client.scan_iter(match=f"{prefix}*"))
            if keys:
                client.delete(*keys)


if __name__ == "__main__":
    main()
