"""POST /reviews: server time per request, and over HTTP.

Target (issue 15): a 13-turn Yahtzee review in at most 20 ms of server time.  (The Yardkle
race, `/yardkle/holds` with a `need`, has its own: `benchmarks/bench_race.py`.)

Server time is the handler's own work in-process (decode, replay, value every decision,
encode), each game a fresh set of cards so the per-state turn cache never helps.  Beside
it, yatzy-solver (the peer) valuing the same decisions in-process with its own table
(`option_values` for every decision met), and the ratio.  Then the same reviews over HTTP
from a real server (one worker), request by request.
Run: uv run python benchmarks/bench_reviews.py [games]
(tables from DICEREF_CACHE_DIR, default the test cache `.cache/`.)
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec

from _server import serve
from diceref.games.scorecard.api.reviews import (
    ReviewRequest,
    _review_ruleset,
    review_out,
    turn_records,
)
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.scorecard import upper_subtotal
from diceref.games.scorecard.rules.turns import replay_game
from diceref.games.scorecard.solver import advice
from diceref.games.scorecard.solver.review import review_game
from diceref.games.scorecard.tables import value_spec
from diceref.tables.config import TableSettings
from diceref.tables.spec import load_sync
from diceref.tables.store import TableStore

sys.path.insert(0, str(Path(__file__).parent.parent / "tests" / "scorecard"))
from review_games import play

CACHE = Path(os.environ.get("DICEREF_CACHE_DIR", Path(__file__).parent.parent / ".cache"))
YAHTZEE = SCORECARD_GAMES["yahtzee"]


def pct(values: list[float]) -> str:
    q = statistics.quantiles(values, n=20)
    return f"p50 {statistics.median(values):.2f} ms  p95 {q[18]:.2f} ms  max {max(values):.2f} ms"


def review_server_time(body: dict[str, Any], values: Any, clock: Any = time.perf_counter) -> float:
    """Milliseconds of the handler's work for one review, cold per-state cache (`clock`:
    wall time, or `time.process_time` for the CPU time, which a loaded machine inflates
    less)."""
    advice._TURNS.clear()
    raw = msgspec.json.encode(body)
    t = clock()
    data = msgspec.json.decode(raw, type=ReviewRequest)
    ruleset, chosen = _review_ruleset(data)
    played = replay_game(ruleset, turn_records(data))
    msgspec.json.encode(review_out(ruleset, review_game(ruleset, values, played), chosen))
    return (clock() - t) * 1000


def peer_time(seen: list[Any]) -> float | None:
    """Milliseconds for yatzy-solver to value the same decisions (None: not installed)."""
    try:
        import yatzy_solver as ys
    except ImportError:
        return None
    solver = peer_solver(ys)
    t = time.perf_counter()
    for s in seen:
        filled = [b.id for b in YAHTZEE.boxes if b.id in s.card.boxes]
        filled = ["five_of_a_kind" if b == "yahtzee" else b for b in filled]
        text = (
            f"dice {' '.join(map(str, sorted(s.dice)))} | rolls {s.throws_left} | upper "
            f"{upper_subtotal(YAHTZEE, s.card.boxes)} | filled {','.join(filled) or '-'}"
        )
        if "yahtzee" in s.card.boxes:
            text += f" | five_of_a_kind {s.card.boxes['yahtzee']}"
        solver.option_values(text)
    return (time.perf_counter() - t) * 1000


_PEER: dict[str, Any] = {}


def peer_solver(ys: Any) -> Any:
    if "solver" not in _PEER:
        variant = ys.Variant("american+forced-joker")
        path = CACHE / "yatzy-solver" / f"american+forced-joker-{ys.SOLVER_VERSION}-f64.table"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            ys.Solver.build_table(variant, str(path), precision="f64")
        _PEER["solver"] = ys.Solver.load(str(path), variant)
    return _PEER["solver"]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    store = TableStore(TableSettings(cache_dir=CACHE))
    values = load_sync(store, value_spec(YAHTZEE)).array
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    bodies, ours, cpu, peers = [], [], [], []
    for seed in range(games):
        record, seen = play(YAHTZEE, values, 1000 + seed, 0.3)
        body = {"game": "yahtzee", "turns": record}
        bodies.append(body)
        ours.append(review_server_time(body, values))
        cpu.append(review_server_time(body, values, time.process_time))
        peer = peer_time(seen)
        if peer is not None:
            peers.append(peer)
    print(f"13-turn Yahtzee review, server time ({games} games): {pct(ours)}  (target <= 20 ms)")
    print(f"13-turn Yahtzee review, CPU time of the same work:   {pct(cpu)}")
    if peers:
        ratio = statistics.median(peers) / statistics.median(ours)
        print(
            f"yatzy-solver valuing the same decisions in-process: {pct(peers)}  "
            f"(peer / ours at p50: {ratio:.2f})"
        )
    env = {"DICEREF_CACHE_DIR": str(CACHE), "DICEREF_PRELOAD": "yahtzee"}
    with (
        serve(workers=1, env=env, ready_path="/readyz") as server,
        httpx.Client(base_url=server.base, timeout=30) as client,
    ):
        while client.post("/reviews", json=bodies[0]).status_code != 200:
            time.sleep(0.2)
        http = []
        for body in bodies:
            t = time.perf_counter()
            assert client.post("/reviews", json=body).status_code == 200
            http.append((time.perf_counter() - t) * 1000)
        print(f"POST /reviews over HTTP, one worker, one client: {pct(http)}")


if __name__ == "__main__":
    main()
