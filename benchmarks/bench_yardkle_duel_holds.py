"""Two-player Yardkle served: `/yardkle/holds` with an `opponent`, server time per request
against the default rules' duel table, beside the same throws without an opponent.

    uv run python benchmarks/bench_yardkle_duel_holds.py [--requests 300]

The duel table comes from DICEREF_CACHE_DIR (default the test cache `.cache/`), solved
there first when missing (about 5 minutes on this machine: docs/solver.md).  Requests go
through the whole ASGI app in process, one at a time (routing, middleware, handler,
encoding; no sockets).  The table's rebuild from its array, numba's import and the sweep's
first compile are the spec's `warm`, which the registry runs before it serves a loaded
table: timed apart, then the first request and every request after it.  Each state is a
pair of totals drawn at random (0, or from the entry minimum to the goal), fresh dice and
turn points in hand, so most requests recompute their pair's turn (`CompactDuel.turn`), as
a frontend's first question about a pair does.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

from _server import asgi_scope
from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES
from diceref.games.yardkle.rules.scoring import set_asides
from diceref.games.yardkle.tables import duel_spec, policy_spec
from diceref.http.app import create_app
from diceref.settings import Settings
from diceref.tables.config import TableSettings
from diceref.tables.spec import load_sync
from diceref.tables.store import TableStore

CACHE = Path(os.environ.get("DICEREF_CACHE_DIR", Path(__file__).parent.parent / ".cache"))


def bodies(count: int, seed: int) -> tuple[list[bytes], list[bytes]]:
    """Two-player /holds bodies at random states, and the same throws without an opponent."""
    rules = DEFAULT_RULES
    rng = np.random.default_rng(seed)
    totals = [0, *range(rules.entry_minimum, rules.target, rules.unit)]
    duel, plain = [], []
    while len(duel) < count:
        dice = sorted(int(d) for d in rng.integers(1, 7, size=int(rng.integers(1, 7))))
        if not set_asides(tuple(dice), rules):
            continue
        total, theirs = (int(rng.choice(totals)) for _ in range(2))
        points = 0 if len(dice) == rules.dice else int(rng.choice([0, 300, 500, 1000]))
        base = {"dice": dice, "turn_points": points, "on_pad": total > 0}
        opponent = {"total": total, "opponent": {"total": theirs, "on_pad": theirs > 0}}
        duel.append(msgspec.json.encode({**base, **opponent}))
        plain.append(msgspec.json.encode(base))
    return duel, plain


async def server_times(app: Any, requests: list[bytes]) -> list[float]:
    sent: list[Any] = []

    async def send(message: Any) -> None:
        sent.append(message)

    times = []
    for body in requests:
        messages = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive(messages: list[Any] = messages) -> Any:
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        sent.clear()
        start = time.perf_counter()
        await app(asgi_scope("/yardkle/holds", body), receive, send)
        times.append((time.perf_counter() - start) * 1e3)
        assert sent[0]["status"] in (200, 422), (sent, body)
    return times


def report(label: str, times: list[float], budget: str) -> None:
    print(
        f"{label:44} p50 {statistics.median(times):7.2f} ms  max {max(times):7.2f} ms"
        f"  ({len(times)} requests; {budget})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    store = TableStore(TableSettings(cache_dir=CACHE))
    specs = (policy_spec(DEFAULT_RULES), duel_spec(DEFAULT_RULES))
    start = time.perf_counter()
    loaded = [load_sync(store, spec) for spec in specs]
    size = loaded[1].array.nbytes
    print(f"tables loaded (or solved) in {time.perf_counter() - start:.1f} s; duel {size:,} B")
    app = create_app(Settings(preload=(), log_format=None), store=store)
    start = time.perf_counter()
    for spec, table in zip(specs, loaded, strict=True):
        if spec.warm is not None:  # as the registry does before it serves a loaded table
            spec.warm(table.array)
        app.state.tables.put(spec, table.array, "memory")
    warmed = 1000 * (time.perf_counter() - start)
    print(f"the duel table's warm at load (rebuild, numba's import, compile): {warmed:.0f} ms")
    duel, plain = bodies(args.requests + 1, seed=29)
    first = asyncio.run(server_times(app, duel[:1]))
    print(f"the first two-player request after it: {first[0]:.1f} ms")
    cases = [
        ("/yardkle/holds without an opponent", plain[1:], "for comparison"),
        ("/yardkle/holds with an opponent", duel[1:], "p50 <= 2 ms"),
    ]
    for label, requests, budget in cases:
        report(label, asyncio.run(server_times(app, requests)), budget)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
