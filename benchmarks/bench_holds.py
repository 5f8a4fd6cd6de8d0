"""POST /holds from loaded tables: server time per request, throughput on one worker, and
resident memory with all five scorecard tables loaded.

Targets (issue 3): under 1 ms of server time per request (p50), at least 2,000 req/s on one
worker, all five tables loaded under 400 MB resident.
Run: uv run python benchmarks/bench_holds.py [seconds]
(tables come from DICEREF_CACHE_DIR, default the test cache `.cache/`; missing ones are
solved first, which takes a minute.)
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

import httpx
import msgspec
import numpy as np

from _server import load, serve
from diceref.games.scorecard.api.models import BoxOption, HoldsResponse, KeepOption
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.scorecard import Scorecard, card_total
from diceref.games.scorecard.solver.advice import BoxAdvice, advise
from diceref.games.scorecard.tables import value_spec
from diceref.tables.config import TableSettings
from diceref.tables.spec import load_sync
from diceref.tables.store import TableStore

CACHE = Path(os.environ.get("DICEREF_CACHE_DIR", Path(__file__).parent.parent / ".cache"))


def situations(game: str, values: np.ndarray, count: int, seed: int) -> list[dict[str, object]]:
    """Requests as a frontend sends them: cards from optimal play, fresh dice each time."""
    ruleset = SCORECARD_GAMES[game]
    rng = np.random.default_rng(seed)
    out: list[dict[str, object]] = []
    card = Scorecard()
    while len(out) < count:
        if len(card.boxes) == len(ruleset.boxes):
            card = Scorecard()
        dice = sorted(rng.integers(1, 7, size=5).tolist())
        throws_left = int(rng.integers(0, 3))
        out.append(
            {
                "game": game,
                "dice": dice,
                "throws_left": throws_left,
                "scorecard": {"filled": dict(card.boxes), "extra_bonus": card.extra_bonus},
            }
        )
        best = next(a for a in advise(ruleset, values, card, dice, 0) if isinstance(a, BoxAdvice))
        card = Scorecard({**card.boxes, best.box: best.points}, card.extra_bonus)
    return out


def server_time(game: str, values: np.ndarray, requests: list[dict[str, object]]) -> list[float]:
    """Microseconds per request for the handler's work: decode, advise, encode."""
    ruleset = SCORECARD_GAMES[game]
    encoder = msgspec.json.Encoder()
    times = []
    for body in requests:
        raw = msgspec.json.encode(body)
        t = time.perf_counter()
        req = msgspec.json.decode(raw)
        card = Scorecard(req["scorecard"]["boxes"], req["scorecard"]["extra_bonus"])
        options = [
            BoxOption(a.box, a.points, a.bonus, a.expected_total)
            if isinstance(a, BoxAdvice)
            else KeepOption(list(a.keep), a.expected_total)
            for a in advise(ruleset, values, card, req["dice"], req["throws_left"])
        ]
        encoder.encode(
            HoldsResponse(game, req["dice"], req["throws_left"], card_total(ruleset, card), options)
        )
        times.append((time.perf_counter() - t) * 1e6)
    return times


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (granian runs workers as children)."""
    total = 0.0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    for p in pids:
        for line in Path(f"/proc/{p}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) / 1024
    return total


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10
    store = TableStore(TableSettings(cache_dir=CACHE))
    for game in SCORECARD_GAMES:
        load_sync(store, value_spec(SCORECARD_GAMES[game]))  # make sure the disk cache has them
    values = load_sync(store, value_spec(SCORECARD_GAMES["yahtzee"])).array
    requests = situations("yahtzee", values, 300, seed=11)
    times = server_time("yahtzee", values, requests)  # first pass: every state a cache miss
    warm = server_time("yahtzee", values, requests)
    q = statistics.quantiles(times, n=20)
    print(
        f"server time /holds (cold per-state cache): p50 {statistics.median(times):.0f} us  "
        f"p95 {q[18]:.0f} us  (target p50 < 1000 us)"
    )
    print(f"server time /holds (same states again):    p50 {statistics.median(warm):.0f} us")
    env = {"DICEREF_CACHE_DIR": str(CACHE), "DICEREF_PRELOAD": "all"}
    with serve(workers=1, env=env) as server:
        base = server.base
        for game in SCORECARD_GAMES:  # ready when every table answers
            body = {"game": game, "dice": [1, 2, 3, 4, 5], "throws_left": 1}
            while httpx.post(base + "/holds", json=body).status_code != 200:
                time.sleep(0.2)
        resident = rss_mb(server.pid)
        # 2,000 distinct states, more than the per-state cache holds: every request computes
        fig = load(base + "/holds", situations("yahtzee", values, 2000, seed=12), seconds)
        print(
            f"POST /holds over HTTP, one worker: {fig['rps']:.0f} req/s  p50 "
            f"{fig['p50_ms']:.2f} ms  p95 {fig['p95_ms']:.2f} ms  errors {fig['errors']:.0f} "
            f"(target >= 2000 req/s)"
        )
        print(
            f"resident memory, all five tables loaded (server + worker): {resident:.0f} MB "
            f"(target < 400 MB)"
        )


if __name__ == "__main__":
    main()
