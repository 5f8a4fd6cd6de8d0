"""A flood of distinct house rules against a real `diceref serve`: the on-demand solves are
bounded (429s once the queue is full), the server's memory stays within its bound, and
`/score` and the built-in games' `/holds` keep their latency while the flood is solved.

The test asserts outcomes: every `/score` and built-in `/holds` during the flood is
answered, and no solve falls back to the serving process; the round trips before and
during are printed, and `benchmarks/bench_flood.py` measures them (no test asserts a time).
"""

from __future__ import annotations

import random
import shutil
import statistics
import threading
import time
from pathlib import Path

import httpx

from conftest import TEST_CACHE
from diceref.games.families import table_specs
from diceref.games.scorecard.rules.games import SCORECARD_GAMES, variant
from diceref.games.scorecard.solver.statespace import state_space
from diceref.games.scorecard.tables import max_spec, value_spec
from live_server import LiveServer

MEMORY_BOUND = 32 * 1024 * 1024  # on-demand tables held in memory: two Yatzy variants
FLOOD = 40  # distinct rulesets, far more than the queue holds
SOLVE_QUEUE = 4
# A flooded Yatzy variant's value table (bonus at 60: 15.25 MiB), the bound's unit.
VARIANT_TABLE_BYTES = (
    state_space(variant("yatzy", upper_bonus_points=1, upper_bonus_threshold=60)).size * 8
)


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def serving_pid(master: int) -> int:
    """The process that serves the requests: `diceref serve` runs granian, whose master
    process forks the worker that runs the app (and it spawns the solver processes), so
    the master's own memory says nothing of the tables held."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    assert len(children) == 1, children  # one worker
    return int(children[0])


def mapped_tables(pid: int, exclude: set[str]) -> dict[str, int]:
    """The table files the process has mapped (its served tables: a table loaded from or
    written to disk is served from its mapping), by name, with the bytes mapped: a table
    evicted but still mapped would show here.  RSS alone does not see them, as a mapped
    table's untouched pages are not resident."""
    mapped: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and ".dtbl" in fields[5]:
            name = Path(fields[5].removesuffix(" (deleted)")).name
            if name not in exclude:
                start, end = (int(x, 16) for x in fields[0].split("-"))
                mapped[name] = mapped.get(name, 0) + end - start
    return mapped


def latencies(client: httpx.Client, seconds: float, rng: random.Random) -> dict[str, float]:
    """Median round trip of `/score` and of the built-in `/holds` over `seconds`."""
    times: dict[str, list[float]] = {"score": [], "holds": []}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        dice = sorted(rng.randint(1, 6) for _ in range(5))
        for path, body in (
            ("score", {"game": "yatzy", "dice": dice}),
            ("holds", {"game": "yatzy", "dice": dice, "throws_left": rng.randint(0, 2)}),
        ):
            start = time.perf_counter()
            r = client.post(f"/{path}", json=body)
            times[path].append(time.perf_counter() - start)
            assert r.status_code == 200, r.text
    return {k: statistics.median(v) for k, v in times.items()}


def test_a_flood_of_house_rules_is_bounded_and_slows_nothing(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    (cache / "tables").mkdir(parents=True)
    yatzy = SCORECARD_GAMES["yatzy"]
    for spec in (value_spec(yatzy), max_spec(yatzy)):  # the built-in tables, already solved
        name = f"{spec.key.id}.dtbl"
        if (TEST_CACHE / "tables" / name).exists():
            shutil.copy(TEST_CACHE / "tables" / name, cache / "tables" / name)
    env = {
        "DICEREF_CACHE_DIR": str(cache),
        "DICEREF_PRELOAD": "yatzy",
        "DICEREF_ON_DEMAND_MEMORY_BYTES": str(MEMORY_BOUND),
        "DICEREF_ON_DEMAND_DISK_BYTES": str(64 * 1024 * 1024),
        # Room for SOLVE_QUEUE rulesets waiting: with the one solving and those the flood's
        # /holds admit as the queue drains, more rulesets than the memory bound holds get
        # solved (so some are evicted), yet few enough to be solved within the test.
        "DICEREF_SOLVE_QUEUE": str(SOLVE_QUEUE),
    }
    rng = random.Random(7)
    with LiveServer(tmp_path / "server.log", env) as server:
        server.wait("/readyz", timeout=120)
        with httpx.Client(base_url=server.base, timeout=10) as client:
            latencies(client, 1.0, rng)  # warm up
            before = latencies(client, 3.0, rng)
            assert server.process is not None
            worker = serving_pid(server.process.pid)
            memory_before = rss_bytes(worker)

            statuses: list[int] = []

            def flood() -> None:
                with httpx.Client(base_url=server.base, timeout=10) as flooder:
                    for points in range(1, FLOOD + 1):
                        rules = {"upper_bonus_points": points, "upper_bonus_threshold": 60}
                        r = flooder.post("/rulesets", json={"game": "yatzy", "rules": rules})
                        statuses.append(r.status_code)
                        holds = {"game": "yatzy", "dice": [1, 2, 3, 4, 5], "throws_left": 1}
                        r = flooder.post("/holds", json=holds | {"rules": rules})
                        assert r.status_code in (200, 429, 503), r.text

            flooder = threading.Thread(target=flood)
            flooder.start()
            during = latencies(client, 8.0, rng)
            flooder.join(60)
            solving = client.get("/readyz").json()
            memory_after = rss_bytes(worker)
            # Every admitted ruleset solved (or evicted once solved): the tables the server
            # then holds are at their most, so this is where the memory bound must hold.
            started = time.monotonic()
            while (settled := client.get("/readyz").json())["on_demand"].keys() & {
                "queued",
                "loading",
            }:
                assert time.monotonic() - started < 240, settled
                time.sleep(0.5)
            settle_seconds = time.monotonic() - started
            memory_settled = rss_bytes(worker)
            builtin = {f"{spec.key.id}.dtbl" for spec in table_specs()}
            mapped = mapped_tables(worker, builtin)
            # and the flood's rulesets are solved, in the server's solver processes
            first = {
                "game": "yatzy",
                "rules": {"upper_bonus_points": 1, "upper_bonus_threshold": 60},
            }
            deadline = time.monotonic() + 120
            while (answer := client.post("/rulesets", json=first).json())["status"] != "ready":
                assert answer["status"] in ("queued", "solving"), answer
                assert time.monotonic() < deadline, answer
                time.sleep(0.5)
            assert answer["optimal_expected_score"] > 200

    log = server.log()
    assert solving["status"] == "ready", solving  # house rules never make a replica unready
    assert statuses.count(429) > 0 and statuses.count(200) >= SOLVE_QUEUE + 1, statuses
    # The solves ran niced in processes of their own, never in the serving one (their
    # effect on latency is benchmarks/bench_flood.py's figure).
    assert "solving it in this process" not in log, log
    # The serving process's memory: during the flood, the tables within the on-demand
    # bound plus one solve's hand-over in flight (its result arrives pickled, is unpickled
    # and is encoded for the disk: three copies of a table); once every admitted ruleset is
    # solved (the most tables it then holds), the bound alone, the hand-overs' memory given
    # back (`solver_pool.return_large_arrays`).  16 MiB for the rest.
    hand_over = 3 * VARIANT_TABLE_BYTES
    rest = 16 * 1024 * 1024
    grown = (memory_before, memory_after, memory_settled)
    assert memory_after - memory_before <= MEMORY_BOUND + hand_over + rest, grown
    assert memory_settled - memory_before <= MEMORY_BOUND + rest, grown
    # ... and the tables it serves mapped: no more than the bound (plus the page each
    # mapping rounds up to), none of the evicted ones
    assert sum(mapped.values()) <= MEMORY_BOUND + 4096 * len(mapped), mapped
    ready = settled["on_demand"].get("ready", 0)
    assert len(mapped) <= ready, (mapped, settled)
    assert settled["on_demand"].keys() <= {"ready"}, settled  # none failed
    # tables held: a value and a max table per ruleset, as many rulesets as the bound holds
    assert 2 <= ready <= 2 * (MEMORY_BOUND // VARIANT_TABLE_BYTES), settled
    print(
        f"flood: before {before}, during {during}, readyz {solving}; settled after "
        f"{settle_seconds:.1f} s: {settled['on_demand']}, memory +"
        f"{(memory_after - memory_before) / 2**20:.1f} MiB during, "
        f"+{(memory_settled - memory_before) / 2**20:.1f} MiB settled, "
        f"{sum(mapped.values()) / 2**20:.1f} MiB of {len(mapped)} tables mapped"
    )
