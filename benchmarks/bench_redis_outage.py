"""`/score` and Yardkle's `/holds` round trips on one `diceref serve` worker while its Redis
is up, then killed (`kill -9`, as an outage looks to the service): median, 99th percentile
and slowest, and the ratio of the outage's median to the one before.

The goal: no request waits for a Redis timeout (`DICEREF_REDIS_TIMEOUT`, 1 s here), so the
slowest answer during the outage stays far below it.  tests/tables/test_redis_outage_service.py
asserts that every answer meanwhile is right; the times are this benchmark's.
Run: uv run python benchmarks/bench_redis_outage.py [requests]   (needs redis-server)
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import redis

from _server import free_port, serve

CALLS = [
    ("/score", {"game": "yahtzee", "dice": [6, 6, 6, 6, 6], "throw": 2}),
    ("/yardkle/holds", {"dice": [1, 5, 5, 2, 3, 3], "turn_points": 0, "on_pad": False}),
]
TEST_CACHE = Path(__file__).parents[1] / ".cache"


def start_redis(workdir: Path) -> tuple[subprocess.Popen[bytes], int]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(workdir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(200):
        try:
            with redis.Redis(port=port, socket_connect_timeout=0.2) as client:
                client.ping()
            return process, port
        except (OSError, redis.ConnectionError):
            time.sleep(0.05)
    raise SystemExit("redis-server did not start")


def round_trips(client: httpx.Client, count: int) -> list[float]:
    took = []
    for i in range(count):
        path, body = CALLS[i % len(CALLS)]
        started = time.perf_counter()
        answer = client.post(path, json=body)
        took.append(time.perf_counter() - started)
        assert answer.status_code == 200, answer.text
    return took


def summary(name: str, took: list[float]) -> float:
    ordered = sorted(took)
    median = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    print(
        f"{name:14} {len(took):5} requests: median {median * 1000:6.2f} ms, "
        f"p99 {p99 * 1000:6.2f} ms, slowest {ordered[-1] * 1000:7.2f} ms"
    )
    return median


def main(count: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-redis-outage-") as tmp:
        redis_server, port = start_redis(Path(tmp))
        env = {
            "REDIS_URL": f"redis://127.0.0.1:{port}/0",
            "DICEREF_CACHE_DIR": str(TEST_CACHE),
            "DICEREF_PRELOAD": "none",
            "DICEREF_REDIS_CHECK_INTERVAL": "0.2",
            "DICEREF_REDIS_CONNECT_TIMEOUT": "0.2",
            "DICEREF_REDIS_TIMEOUT": "1",
            "DICEREF_LOG_LEVEL": "ERROR",
        }
        try:
            with (
                serve(1, env, ready_path="/readyz") as server,
                httpx.Client(base_url=server.base, timeout=30) as client,
            ):
                round_trips(client, 50)  # warm
                before = summary("redis up", round_trips(client, count))
                redis_server.kill()
                redis_server.wait(10)
                during = summary("redis killed", round_trips(client, count))
                print(f"outage median / before: {during / before:.2f}")
        finally:
            if redis_server.poll() is None:
                redis_server.kill()
                redis_server.wait(10)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
