"""Play to win: the tables' build (whole process) and size, and the requests' server time.

    uv run python benchmarks/bench_play_to_win.py [--game yahtzee] [--build] [--requests 300]
        [--reach]

- `--build`: `diceref precompute --target GAME` in a fresh process with an empty cache
  directory (value, max, distribution and win tables), its wall time and peak memory, and
  the sizes of the files it wrote; without it the tables come from DICEREF_CACHE_DIR
  (default the test cache `.cache/`), solved there first when missing.
- server time: the whole ASGI app in process, one request at a time (routing, middleware,
  handler, the per-request turn, encoding; no sockets), the coach's per-turn caches emptied
  before each request: `/holds` with a `target` (and without, the same throws),
  `/distributions` from the start of a turn (empty card included) and with dice, and target
  play's distribution near the end.
- `--reach` (instead of the requests): how far from a card's end target play's
  distribution is answered.  By boxes open, for cards of expected-points play and the
  target an open one (the card's expected final total): the share answered within
  `MAX_OPEN_TURNS` and its time; then, with no limit, the open turns the exact answer
  follows (three cards each, 4 to 7 boxes open) and its time.
- memory: this process's private (anonymous) memory before the tables, once they are
  mapped and warmed (the decoder compiled), and after the requests: what a worker adds.
Printed beside the peers' published figures (the issue's): timpalpant/yahtzee's
beat-a-score tables 1.8 GB and minutes to load; Holderied's advisor 5-20 h of
precomputation, 1.6 GB; dlangk/yatzy's `POST /density` about 100 ms on 8 cores.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

from _server import asgi_scope
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.scorecard import Scorecard, card_total
from diceref.games.scorecard.solver import advice, target
from diceref.games.scorecard.solver.advice import BoxAdvice, card_state
from diceref.games.scorecard.tables import band_table, distribution_spec, value_spec, win_spec
from diceref.http.app import create_app
from diceref.settings import Settings
from diceref.tables.config import TableSettings
from diceref.tables.spec import load_sync
from diceref.tables.store import TableStore

CACHE = Path(os.environ.get("DICEREF_CACHE_DIR", Path(__file__).parent.parent / ".cache"))


def private_mb() -> float:
    """RssAnon: the resident memory no other process can share (heap, numba's code)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def build(game: str) -> None:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "DICEREF_CACHE_DIR": cache}
        start = time.perf_counter()
        cmd = [sys.executable, "-m", "diceref.cli", "precompute", "--target", game]
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"diceref precompute --target {game}: {wall:.1f} s wall, peak RSS {peak:.0f} MB")
        for path in sorted(Path(cache).rglob("*")):
            if path.is_file() and path.stat().st_size > 1 << 20:
                print(f"  {path.name}: {path.stat().st_size / 1e6:.1f} MB")


def cards(
    game: str, values: np.ndarray, count: int, seed: int
) -> list[tuple[Scorecard, list[int], int]]:
    """Cards from expected-points play at every stage, with fresh dice."""
    ruleset = SCORECARD_GAMES[game]
    rng = np.random.default_rng(seed)
    out = []
    card = Scorecard()
    while len(out) < count:
        if len(card.boxes) == len(ruleset.boxes):
            card = Scorecard()
        dice = sorted(int(d) for d in rng.integers(1, 7, size=5))
        out.append((card, dice, int(rng.integers(0, ruleset.throws_per_turn))))
        best = next(
            a for a in advice.advise(ruleset, values, card, dice, 0) if isinstance(a, BoxAdvice)
        )
        card = Scorecard({**card.boxes, best.box: best.points}, card.extra_bonus)
    return out


async def server_times(app: Any, path: str, bodies: list[bytes]) -> list[float]:
    sent: list[Any] = []

    async def send(message: Any) -> None:
        sent.append(message)

    times = []
    for body in bodies:
        messages = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive(messages: list[Any] = messages) -> Any:
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        advice._TURNS.clear()
        advice._WIN_TURNS.clear()
        sent.clear()
        start = time.perf_counter()
        await app(asgi_scope(path, body), receive, send)
        times.append((time.perf_counter() - start) * 1e3)
        assert sent[0]["status"] in (200, 422), (sent, body)
    return times


def report(label: str, times: list[float], budget: str) -> None:
    print(
        f"{label:52} p50 {statistics.median(times):7.2f} ms  max {max(times):7.2f} ms"
        f"  ({len(times)} requests; {budget})"
    )


def reach(game: str, values: np.ndarray, dist_table: np.ndarray, win_table: np.ndarray) -> None:
    """Target play's distribution by boxes open: answered within the limit, and the open
    turns an exact answer follows without it."""
    ruleset = SCORECARD_GAMES[game]
    dist, win = band_table(dist_table), band_table(win_table)
    followed = [0]
    turn_ends = target.turn_ends

    def counted(*args: Any, **kwargs: Any) -> Any:
        followed[0] += 1
        return turn_ends(*args, **kwargs)

    def timed(card: Scorecard, limit: int = target.MAX_OPEN_TURNS) -> float | None:
        """Seconds to answer the card for its expected total; None: refused."""
        state = card_state(ruleset, card)
        total = card_total(ruleset, card)
        mean = target.final_distribution(
            ruleset, values, dist, state.mask, state.sub, state.flag, total
        ).mean
        start = time.perf_counter()
        try:
            target.target_distribution(
                ruleset, values, win, dist, state.mask, state.sub, state.flag, total,
                round(mean), limit=limit,
            )  # fmt: skip
        except target.TooManyTurns:
            return None
        return time.perf_counter() - start

    by_open: dict[int, list[tuple[Scorecard, float | None]]] = {}
    for card, _, _ in cards(game, values, 50 * len(ruleset.boxes), seed=5):
        by_open.setdefault(len(ruleset.boxes) - len(card.boxes), []).append((card, timed(card)))
    print(f"target play's distribution, target the expected total, {target.MAX_OPEN_TURNS} turns:")
    for k, rows in sorted(by_open.items()):
        done = [s for _, s in rows if s is not None]
        times = (
            f": p50 {np.median(done) * 1e3:.0f} ms, max {max(done) * 1e3:.0f} ms" if done else ""
        )
        print(f"  {k:2} boxes open: {len(done)}/{len(rows)} answered{times}")
    target.turn_ends = counted
    print("without the limit (the open turns an exact answer follows):")
    for k in range(4, 8):
        for card, _ in by_open.get(k, [])[:3]:
            followed[0] = 0
            seconds = timed(card, limit=1 << 62)
            print(f"  {k:2} boxes open: {followed[0]:6} open turns, {seconds:.2f} s")
    target.turn_ends = turn_ends


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="yahtzee")
    parser.add_argument("--build", action="store_true")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--reach", action="store_true")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.build:
        build(args.game)
    ruleset = SCORECARD_GAMES[args.game]
    store = TableStore(TableSettings(cache_dir=CACHE))
    specs = (value_spec(ruleset), distribution_spec(ruleset), win_spec(ruleset))
    before = private_mb()
    start = time.perf_counter()
    loaded = [load_sync(store, spec) for spec in specs]
    print(f"tables loaded (or solved) in {time.perf_counter() - start:.1f} s")
    app = create_app(Settings(preload=(), log_format=None), store=store)
    for spec, table in zip(specs, loaded, strict=True):
        app.state.tables.put(spec, table.array, "memory")
        if spec.warm is not None:  # as the registry does before it serves a loaded table
            spec.warm(table.array)
    warmed = private_mb()
    values = loaded[0].array
    if args.reach:
        reach(args.game, values, loaded[1].array, loaded[2].array)
        return
    situations = cards(args.game, values, args.requests, seed=26)
    rng = np.random.default_rng(7)

    def body(card: Scorecard, **more: Any) -> bytes:
        filled = {"filled": dict(card.boxes), "extra_bonus": card.extra_bonus}
        return msgspec.json.encode({"game": args.game, "scorecard": filled, **more})

    def target_of(card: Scorecard) -> int:
        return max(0, card_total(ruleset, card) + int(rng.integers(0, 250)))

    holds = [body(c, dice=d, throws_left=t, target=target_of(c)) for c, d, t in situations]
    points_holds = [body(c, dice=d, throws_left=t) for c, d, t in situations]
    start_of_turn = [body(c, play="expected_points") for c, _, _ in situations]
    with_dice = [body(c, dice=d, throws_left=t) for c, d, t in situations]
    empty = [body(Scorecard())] * 20
    late = [(c, d, t) for c, d, t in situations if len(ruleset.boxes) - len(c.boxes) <= 3]
    target_play = [body(c, dice=d, throws_left=t, target=target_of(c)) for c, d, t in late]
    cases = [
        ("/holds without a target (the same throws)", "/holds", points_holds, "for comparison"),
        ("/holds with a target", "/holds", holds, "p50 <= 1 ms"),
        (
            "/distributions, turn start, expected points",
            "/distributions",
            start_of_turn,
            "p50 <= 100 ms, max <= 300 ms",
        ),
        ("/distributions, the empty card", "/distributions", empty, "max <= 300 ms"),
        (
            "/distributions, dice thrown",
            "/distributions",
            with_dice,
            "p50 <= 100 ms, max <= 300 ms",
        ),
        (
            "/distributions, target play, <= 3 boxes open",
            "/distributions",
            target_play,
            "followed turn by turn",
        ),
    ]
    for label, path, bodies, budget in cases:
        if bodies:
            report(label, asyncio.run(server_times(app, path, bodies)), budget)
    print("peers (published): timpalpant/yahtzee 1.8 GB of beat-a-score tables, minutes to load;")
    print("  Holderied 5-20 h of precomputation, 1.6 GB; dlangk/yatzy /density ~100 ms on 8 cores")
    print(
        f"this process's private (anonymous) memory: {before:.1f} MB before the tables, "
        f"{warmed:.1f} MB once they are mapped and warmed, {private_mb():.1f} MB after the "
        "requests (a worker's growth: the files' pages are the page cache's, shared)"
    )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
