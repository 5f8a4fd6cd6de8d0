"""Built-in `/score` latency (p50, p95) on a 2-worker `diceref serve`: quiet, while clients that
honour `Retry-After` keep both workers' solvers busy with distinct house rules ("solving":
what the solves cost the requests), and while a flood of them ignores it ("flooded": the
solves and a stream of refused requests, which the serving workers answer).

The flood's clients post a new ruleset as soon as the last answer came (200 or 429), so
each worker always has a solve under way and its queue full; the polite ones wait out each
429's `Retry-After`.  The probe is one client sending `/score` back to back.  The phases
alternate in the same run (the machine drifts); the ratios to "quiet" are the figures.
Run: uv run python benchmarks/bench_solve_flood.py [rounds] [seconds per phase] [flooders]
"""

from __future__ import annotations

import itertools
import statistics
import sys
import tempfile
import threading
import time

import httpx

from _server import serve

SCORE = {"game": "yahtzee", "dice": [3, 3, 3, 5, 5], "throw": 1}


def probe(base: str, seconds: float) -> dict[str, float]:
    times: list[float] = []
    with httpx.Client(base_url=base, timeout=10) as client:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            start = time.perf_counter()
            client.post("/score", json=SCORE).raise_for_status()
            times.append(time.perf_counter() - start)
    cuts = statistics.quantiles(times, n=20)
    return {"p50": statistics.median(times) * 1e3, "p95": cuts[18] * 1e3, "n": len(times)}


def flood(
    base: str, stop: threading.Event, counter: itertools.count[int], seen: list[int], polite: bool
) -> None:
    with httpx.Client(base_url=base, timeout=10) as client:
        while not stop.is_set():
            rules = {"upper_bonus_points": next(counter), "upper_bonus_threshold": 60}
            answer = client.post("/rulesets", json={"game": "yatzy", "rules": rules})
            seen.append(answer.status_code)
            if polite and answer.status_code == 429:
                stop.wait(float(answer.headers.get("Retry-After", "1")))


def solved(base: str) -> float:
    text = httpx.get(base + "/metrics", timeout=10).text
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("diceref_table_loads_total{") and 'source="computed"' in line
    )


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 8.0
    flooders = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    counter = itertools.count(1)
    with (
        tempfile.TemporaryDirectory() as cache,
        serve(
            workers=2,
            env={
                "DICEREF_CACHE_DIR": cache,
                "DICEREF_PRELOAD": "none",
                "DICEREF_LOG_LEVEL": "WARNING",
            },
        ) as server,
    ):
        probe(server.base, 1.0)  # warm up
        print(f"{'round':>5} {'phase':>8} {'p50 ms':>7} {'p95 ms':>7} {'requests':>8} {'429s':>5}")
        ratios: dict[str, list[float]] = {}
        for r in range(rounds):
            quiet = probe(server.base, seconds)
            print(f"{r:>5} {'quiet':>8} {quiet['p50']:7.2f} {quiet['p95']:7.2f} {quiet['n']:>8}")
            for phase in ("solving", "flooded"):
                stop, seen = threading.Event(), []
                threads = [
                    threading.Thread(
                        target=flood,
                        args=(server.base, stop, counter, seen, phase == "solving"),
                    )
                    for _ in range(flooders)
                ]
                for thread in threads:
                    thread.start()
                time.sleep(1.0)  # the solvers are busy
                busy = probe(server.base, seconds)
                stop.set()
                for thread in threads:
                    thread.join()
                print(
                    f"{r:>5} {phase:>8} {busy['p50']:7.2f} {busy['p95']:7.2f} "
                    f"{busy['n']:>8} {seen.count(429):>5}"
                )
                for k in ("p50", "p95"):
                    ratios.setdefault(f"{phase} {k}", []).append(busy[k] / quiet[k])
            time.sleep(2.0)
        print(
            f"ratios to quiet, median of {rounds} rounds: "
            + ", ".join(f"{k} x{statistics.median(v):.2f}" for k, v in ratios.items())
            + f"; {solved(server.base):.0f} tables solved by the workers"
        )


if __name__ == "__main__":
    main()
