"""POST /holds (and /score beside /healthz) on one worker, as a frontend sees them.

    uv run python benchmarks/bench_holds.py [--seconds 10] [--repeats 3]

Issue 14 asks, on one worker: at least 3,000 req/s over HTTP for /holds with 2,000 distinct
states in rotation, a server time p50 of at most 0.2 ms on a state not asked before, and
/score at at least 0.6 of /healthz's requests a second.  Printed:

- server time: the whole ASGI app in process (Litestar's routing, the middleware, the lean
  JSON path, the handler, the coach and the encoding; no sockets), one request at a time,
  the coach's per-turn cache emptied before each request, so every request is a state not
  asked before; then the same requests again (the next decision of a turn, cached);
- over HTTP: a real `diceref serve` (granian, one worker, every table loaded) driven by wrk
  (one thread, 16 connections; `apt-get install wrk`, else a slower asyncio client) with
  2,000 distinct /holds bodies from seeded optimal play in rotation (more states than the
  coach's per-turn cache holds, so every request evaluates a turn), then /score with the
  same bodies and /healthz, alternating, each `--repeats` times; medians and the ratio.

The load generator shares the machine's two cores with the server, as it would on a laptop;
the load average is printed before and after (the machine is shared).
(Tables come from DICEREF_CACHE_DIR, default the test cache `.cache/`; missing ones are
solved first.)
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import time
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

from _server import asgi_scope, load, serve
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.scorecard import Scorecard
from diceref.games.scorecard.solver import advice
from diceref.games.scorecard.solver.advice import BoxAdvice
from diceref.games.scorecard.tables import value_spec
from diceref.http.app import create_app
from diceref.settings import Settings
from diceref.tables.config import TableSettings
from diceref.tables.spec import load_sync
from diceref.tables.store import TableStore

CACHE = Path(os.environ.get("DICEREF_CACHE_DIR", Path(__file__).parent.parent / ".cache"))
GAME = "yahtzee"


def situations(values: np.ndarray, count: int, seed: int) -> list[dict[str, object]]:
    """Requests as a frontend sends them: cards from optimal play, fresh dice each time."""
    ruleset = SCORECARD_GAMES[GAME]
    rng = np.random.default_rng(seed)
    out: list[dict[str, object]] = []
    card = Scorecard()
    while len(out) < count:
        if len(card.boxes) == len(ruleset.boxes):
            card = Scorecard()
        dice = sorted(int(d) for d in rng.integers(1, 7, size=5))
        out.append(
            {
                "game": GAME,
                "dice": dice,
                "throws_left": int(rng.integers(0, 3)),
                "scorecard": {"filled": dict(card.boxes), "extra_bonus": card.extra_bonus},
            }
        )
        best = next(
            a for a in advice.advise(ruleset, values, card, dice, 0) if isinstance(a, BoxAdvice)
        )
        card = Scorecard({**card.boxes, best.box: best.points}, card.extra_bonus)
    return out


async def server_times(
    store: TableStore, values: np.ndarray, path: str, bodies: list[bytes] | None, fresh: bool
) -> list[float]:
    """Microseconds per request through the whole ASGI app, in process (`bodies` None: a
    GET, 2,000 of them)."""
    app = create_app(Settings(preload=(), log_format=None), store=store)
    app.state.tables.put(value_spec(SCORECARD_GAMES[GAME]), values, "memory")
    sent: list[Any] = []

    async def send(message: Any) -> None:
        sent.append(message)

    times: list[float] = []
    for body in bodies if bodies is not None else [b""] * 2000:
        scope = asgi_scope(path, body, "POST" if bodies is not None else "GET")
        messages = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive(messages: list[Any] = messages) -> Any:
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        if fresh:
            advice._TURNS.clear()
        sent.clear()
        start = time.perf_counter()
        await app(scope, receive, send)  # type: ignore[arg-type]
        times.append((time.perf_counter() - start) * 1e6)
        assert sent[0]["status"] == 200, sent
    return times


def _score_body(holds: dict[str, object]) -> dict[str, object]:
    """The same situation as a /score request (the throw instead of the throws left)."""
    left = holds["throws_left"]
    assert isinstance(left, int)
    return {
        "game": holds["game"],
        "dice": holds["dice"],
        "throw": 3 - left,
        "scorecard": holds["scorecard"],
    }


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per readiness poll
    store = TableStore(TableSettings(cache_dir=CACHE))
    for game in SCORECARD_GAMES:
        load_sync(store, value_spec(SCORECARD_GAMES[game]))  # make sure the disk cache has them
    values = load_sync(store, value_spec(SCORECARD_GAMES[GAME])).array
    bodies = situations(values, args.requests, seed=12)
    raw = [msgspec.json.encode(b) for b in bodies]
    print(f"load average before: {load_average()}")

    score_raw = [msgspec.json.encode(_score_body(b)) for b in bodies]
    cases: list[tuple[str, str, list[bytes] | None, bool]] = [
        ("/holds, a state not asked before", "/holds", raw, True),
        ("/holds, the same turn again", "/holds", raw, False),
        ("/score", "/score", score_raw, False),
        ("/healthz", "/healthz", None, False),
    ]
    for label, path, case_bodies, fresh in cases:
        times = asyncio.run(server_times(store, values, path, case_bodies, fresh))
        q = statistics.quantiles(times, n=20)
        print(
            f"server time {label:33}: p50 {statistics.median(times):6.0f} us  "
            f"p95 {q[18]:6.0f} us" + ("  (issue 14: p50 <= 200 us)" if fresh else "")
        )
    print("  (the whole ASGI app in process, one request at a time: routing, middleware, the")
    print("   lean JSON path, handler, coach, encoding; no sockets)")

    env = {"DICEREF_CACHE_DIR": str(CACHE), "DICEREF_PRELOAD": "all"}
    with serve(workers=1, env=env, ready_path="/readyz") as server:
        base = server.base
        routes: dict[str, tuple[str, list[dict[str, object]] | None]] = {
            "/holds": (base + "/holds", bodies),
            "/score": (base + "/score", [_score_body(b) for b in bodies]),
            "/healthz": (base + "/healthz", None),
        }
        for route in routes.values():  # warm-up: connections, the first decodes
            load(route[0], route[1], 2)
        figures: dict[str, list[dict[str, float]]] = {name: [] for name in routes}
        for repeat in range(1, args.repeats + 1):
            for name, (url, body) in routes.items():
                fig = load(url, body, args.seconds)
                figures[name].append(fig)
                print(
                    f"run {repeat}  {name:9} {fig['rps']:7.0f} req/s  p50 {fig['p50_ms']:5.2f} ms  "
                    f"p95 {fig['p95_ms']:5.2f} ms  errors {fig['errors']:.0f}",
                    flush=True,
                )
        median = {n: statistics.median(f["rps"] for f in figs) for n, figs in figures.items()}
        print(f"load average after: {load_average()}")
        print(
            f"median  /holds {median['/holds']:.0f} req/s ({args.requests} distinct states in "
            f"rotation; issue 14: >= 3000)"
        )
        print(
            f"median  /score {median['/score']:.0f} req/s, /healthz {median['/healthz']:.0f} "
            f"req/s: ratio {median['/score'] / median['/healthz']:.2f} (issue 14: >= 0.6)"
        )


if __name__ == "__main__":
    main()
