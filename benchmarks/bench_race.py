"""The Yardkle race (`/yardkle/holds` with a `need`), as a frontend sees it.

    uv run python benchmarks/bench_race.py [--step 50] [--http 200]

Issue 15: with a `need`, every option's exact `win_probability`, computed per request by
dynamic programming, for any need up to the target, within 5 ms of server time.  Printed,
for the built-in rules and two house rules (three 1s at 1,000; no entry minimum and a
20,000 target, so needs up to 20,000):

- server time: the whole ASGI app in process (routing, middleware, decoding, the handler,
  the race, the expected points beside it, encoding; no sockets), one request at a time,
  for every need from 50 to the target (every `--step` points) and for each of a set of
  states (six dice with the most set-asides, fewer dice, points in hand, on the pad and
  off it).  "Cold": the race's per-ruleset memo of the chances is emptied before each
  request, so each one runs the whole dynamic programme up to its need (the first race of
  a ruleset in a process); "warm": as a process serves them after the first.  The worst
  request of each, with its need and state;
- over HTTP: a real `diceref serve` (one worker) answering `--http` requests of the
  built-in rules' needs in rotation, one at a time, client-side latency.

The machine is shared (two cores): the load average is printed beside the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import msgspec

from _server import asgi_scope, serve
from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES, YardkleRules
from diceref.games.yardkle.solver import race
from diceref.games.yardkle.tables import policy_spec, solve_policy_table
from diceref.http.app import create_app
from diceref.settings import Settings
from diceref.tables.config import TableSettings
from diceref.tables.store import TableStore

CACHE = Path(os.environ.get("DICEREF_CACHE_DIR", Path(__file__).parent.parent / ".cache"))

# (label, rules as a request sends them, the rules)
RULESETS: list[tuple[str, dict[str, Any] | None, YardkleRules]] = [
    ("built-in rules", None, DEFAULT_RULES),
    ("three_ones 1000", {"three_ones": 1000}, YardkleRules(three_ones=1000)),
    (
        "entry_minimum 0, target 20000",
        {"entry_minimum": 0, "target": 20_000},
        YardkleRules(entry_minimum=0, target=20_000),
    ),
]
# (dice, turn points in hand): the throws with the most set-asides, and fewer dice.
STATES: list[tuple[list[int], int]] = [
    ([1, 1, 1, 5, 5, 5], 0),
    ([1, 1, 5, 5, 2, 2], 0),
    ([1, 5, 1, 5, 3, 3], 0),
    ([1, 2, 3, 4, 5, 6], 0),
    ([1, 5, 2, 3], 300),
    ([5, 2], 850),
]


def forget_chances() -> None:
    """Empty the race's memo of solved chances (a process's first race of a ruleset)."""
    forget: Callable[[], None] | None = getattr(race, "forget_chances", None)
    if forget is not None:
        forget()


async def server_times(
    app: Any, bodies: list[bytes], cold: bool
) -> tuple[list[float], list[float], list[int]]:
    """Milliseconds per request through the whole ASGI app, in process: wall time, and the
    CPU time of the same work (which the other processes of a shared machine inflate
    far less: a request preempted halfway shows in the first, not in the second); and the
    requests during which Python ran a full (generation 2) garbage collection, a pause of
    the whole process that a server has too, which lands on one request or another."""
    sent: list[Any] = []

    async def send(message: Any) -> None:
        sent.append(message)

    times: list[float] = []
    cpu: list[float] = []
    collected: list[int] = []
    for i, body in enumerate(bodies):
        messages = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive(messages: list[Any] = messages) -> Any:
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        if cold:
            forget_chances()
        sent.clear()
        full = gc.get_stats()[2]["collections"]
        start, start_cpu = time.perf_counter(), time.thread_time()
        await app(asgi_scope("/yardkle/holds", body), receive, send)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        times.append((time.perf_counter() - start) * 1000)
        assert sent[0]["status"] == 200, sent
        if gc.get_stats()[2]["collections"] != full:
            collected.append(i)
    return times, cpu, collected


def bodies_of(rules: dict[str, Any] | None, target: int, step: int) -> list[dict[str, Any]]:
    out = []
    for need in [*range(step, target, step), target]:
        for dice, in_hand in STATES:
            if in_hand >= need:
                continue
            for on_pad in (True, False):
                body: dict[str, Any] = {
                    "dice": dice,
                    "on_pad": on_pad,
                    "turn_points": in_hand,
                    "need": need,
                }
                if rules is not None:
                    body["rules"] = rules
                out.append(body)
    return out


def pct(values: list[float]) -> str:
    q = statistics.quantiles(values, n=20)
    return f"p50 {statistics.median(values):.2f} ms  p95 {q[18]:.2f} ms  max {max(values):.2f} ms"


def worst(times: list[float], bodies: list[dict[str, Any]]) -> str:
    i = max(range(len(times)), key=times.__getitem__)
    b = bodies[i]
    return (
        f"need {b['need']}, dice {b['dice']}, {b['turn_points']} in hand, "
        f"{'on' if b['on_pad'] else 'off'} the pad"
    )


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step", type=int, default=50, help="points between needs")
    parser.add_argument("--http", type=int, default=200, help="requests over HTTP")
    args = parser.parse_args()
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request otherwise
    store = TableStore(TableSettings(cache_dir=CACHE))
    app = create_app(Settings(preload=(), log_format=None), store=store)
    for _, _, rules in RULESETS:
        app.state.tables.put(policy_spec(rules), solve_policy_table(rules), "memory")
    print(f"load average before: {load_average()}")
    for label, sent, rules in RULESETS:
        bodies = bodies_of(sent, rules.target, args.step)
        raw = [msgspec.json.encode(b) for b in bodies]
        asyncio.run(server_times(app, raw[:20], cold=False))  # the ruleset's scoring, derived once
        for name, cold in (("cold", True), ("warm", False)):
            times, cpu, collected = asyncio.run(server_times(app, raw, cold))
            print(
                f"{label}, {name}, {len(times)} requests (needs {args.step}..{rules.target}):"
                f"\n  server time {pct(times)}; worst: {worst(times, bodies)}"
                f"\n  CPU time    {pct(cpu)}; worst: {worst(cpu, bodies)}"
            )
            if collected:
                rest = [c for i, c in enumerate(cpu) if i not in collected]
                print(
                    f"  {len(collected)} request(s) ran a full garbage collection (CPU "
                    f"{', '.join(f'{cpu[i]:.2f}' for i in collected)} ms); the others' CPU "
                    f"max {max(rest):.2f} ms"
                )
    biggest = {"dice": [1, 1, 1, 5, 5, 5], "on_pad": True, "need": 100_000}
    times, cpu, _ = asyncio.run(server_times(app, [msgspec.json.encode(biggest)] * 30, cold=True))
    print(
        f"the largest need a request may send (100,000: {race.MAX_LEVELS} levels), cold, "
        f"30 requests:\n  server time {pct(times)}\n  CPU time    {pct(cpu)}"
    )
    print("  (the whole ASGI app in process, one request at a time; target: <= 5 ms)")
    print(f"load average after the in-process runs: {load_average()}")

    if args.http < 1:  # --http 0: the in-process figures only
        return
    bodies = bodies_of(None, DEFAULT_RULES.target, args.step)
    # Yardkle's table loads at start-up; no other table is needed
    env = {"DICEREF_CACHE_DIR": str(CACHE), "DICEREF_PRELOAD": "none"}
    with (
        serve(workers=1, env=env, ready_path="/readyz") as server,
        httpx.Client(base_url=server.base, timeout=30) as client,
    ):
        while client.post("/yardkle/holds", json=bodies[0]).status_code != 200:
            time.sleep(0.2)
        every = len(bodies) // args.http or 1
        sample = bodies[::every][: args.http]
        http = []
        for body in sample:
            t = time.perf_counter()
            assert client.post("/yardkle/holds", json=body).status_code == 200
            http.append((time.perf_counter() - t) * 1000)
        print(
            f"POST /yardkle/holds with a need over HTTP, one worker, one client: {pct(http)} "
            f"({len(sample)} requests, needs 50..{DEFAULT_RULES.target})"
        )
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
