"""A flood of distinct house rules against one `diceref serve` worker: the median round trip
of `/score` and of the built-in `/holds` before the flood and while its tables are solved
(in the solver pool's niced processes), their ratio, and the server's resident memory.

Issue 13: a flood of distinct rulesets can neither exhaust memory nor slow `/score` or the
built-in games' `/holds`.  Each round measures "before" and "during" back to back, so that
the machine's drift affects both alike; the ratios are the figures to quote.
Run: uv run python benchmarks/bench_flood.py [rounds]
(the built-in yatzy tables come from the test cache `.cache/`, solved first if missing.)
"""

from __future__ import annotations

import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from _server import serve
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.tables import ruleset_specs
from diceref.tables.config import TableSettings
from diceref.tables.spec import load_sync
from diceref.tables.store import TableStore

CACHE = Path(__file__).parent.parent / ".cache"
MEMORY_BOUND = 64 * 1024 * 1024


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def medians(client: httpx.Client, seconds: float, rng: random.Random) -> dict[str, float]:
    times: dict[str, list[float]] = {"score": [], "holds": []}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        dice = sorted(rng.randint(1, 6) for _ in range(5))
        for path, body in (
            ("score", {"game": "yatzy", "dice": dice}),
            ("holds", {"game": "yatzy", "dice": dice, "throws_left": rng.randint(0, 2)}),
        ):
            start = time.perf_counter()
            client.post(f"/{path}", json=body).raise_for_status()
            times[path].append(time.perf_counter() - start)
    return {k: statistics.median(v) * 1e3 for k, v in times.items()}


def flood(base: str, first: int, count: int, statuses: list[int]) -> None:
    with httpx.Client(base_url=base, timeout=10) as client:
        for points in range(first, first + count):
            rules = {"upper_bonus_points": points, "upper_bonus_threshold": 61}
            statuses.append(
                client.post("/rulesets", json={"game": "yatzy", "rules": rules}).status_code
            )


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    store = TableStore(TableSettings(cache_dir=CACHE))
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "tables").mkdir()
        for spec in ruleset_specs(SCORECARD_GAMES["yatzy"]):
            load_sync(store, spec)
            name = f"{spec.key.id}.dtbl"
            shutil.copy(CACHE / "tables" / name, Path(tmp) / "tables" / name)
        env = {
            "DICEREF_CACHE_DIR": tmp,
            "DICEREF_PRELOAD": "yatzy",
            "DICEREF_ON_DEMAND_MEMORY_BYTES": str(MEMORY_BOUND),
            "DICEREF_LOG_LEVEL": "WARNING",
        }
        rng = random.Random(1)
        with (
            serve(env=env, ready_path="/readyz") as server,
            httpx.Client(base_url=server.base, timeout=10) as client,
        ):
            medians(client, 1.0, rng)
            start_rss = rss_mb(server.pid)
            print(f"{'round':>5} {'score ms':>17} {'holds ms':>17} {'429s':>5} {'RSS MB':>7}")
            for r in range(rounds):
                before = medians(client, 3.0, rng)
                statuses: list[int] = []
                thread = threading.Thread(
                    target=flood, args=(server.base, 100 * r + 1, 40, statuses)
                )
                thread.start()
                during = medians(client, 8.0, rng)
                thread.join()
                print(
                    f"{r:>5} {before['score']:6.2f} -> {during['score']:6.2f} "
                    f"{before['holds']:6.2f} -> {during['holds']:6.2f} "
                    f"{statuses.count(429):>5} {rss_mb(server.pid):7.0f}"
                )
                print(
                    f"      ratio during/before: score {during['score'] / before['score']:.2f}, "
                    f"holds {during['holds'] / before['holds']:.2f}"
                )
            print(
                f"RSS {start_rss:.0f} MB before the floods, {rss_mb(server.pid):.0f} MB after "
                f"(on-demand memory bound {MEMORY_BOUND >> 20} MB)"
            )


if __name__ == "__main__":
    main()
