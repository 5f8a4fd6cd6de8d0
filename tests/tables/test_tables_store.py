"""TableStore without Redis: memory, then disk, then compute; one computation per key.

The synchronous lookups run twice: through `TableStore.get_sync` (an event loop, threads)
and through `HostTables.get_sync` (`diceref precompute` without Redis: every step inline, no
asyncio), which share every step of the lookup but how it is run."""

from __future__ import annotations

import asyncio
import mmap
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from diceref.settings import Settings, SettingsError
from diceref.tables import TableKey, TableSettings, TableStore, encode
from diceref.tables.host import HostTables

KEY = TableKey("value", "yahtzee", "c0ffee", "1")
N = 5000


class CountingCompute:
    """A stand-in solver that counts its runs (thread-safe: it runs in worker threads)."""

    def __init__(self, seconds: float = 0.0, n: int = N) -> None:
        self.seconds = seconds
        self.n = n
        self.calls = 0
        self._lock = threading.Lock()

    def __call__(self) -> np.ndarray:
        with self._lock:
            self.calls += 1
        time.sleep(self.seconds)
        return expected(self.n)


def expected(n: int = N) -> np.ndarray:
    values = np.arange(n, dtype=np.float64)
    values[1::3] = np.nan
    return values


def store(cache_dir: Path) -> TableStore:
    return TableStore(TableSettings(cache_dir=cache_dir))


@pytest.fixture(params=[TableStore, HostTables])
def sync_store(request: pytest.FixtureRequest) -> Callable[[Path], HostTables]:
    """A store for a synchronous caller, of either kind."""
    kind: type[HostTables] = request.param
    return lambda cache_dir: kind(TableSettings(cache_dir=cache_dir))


def test_memory_then_disk_then_compute(
    sync_store: Callable[[Path], HostTables], tmp_path: Path
) -> None:
    compute = CountingCompute()
    first = sync_store(tmp_path)
    got = first.get_sync(KEY, compute)
    assert (got.source, compute.calls) == ("computed", 1)
    np.testing.assert_array_equal(got.array, expected())
    assert first.get_sync(KEY, compute).source == "memory"
    assert sync_store(tmp_path).get_sync(KEY, compute).source == "disk"  # another process
    assert compute.calls == 1
    stats = first.stats()
    assert stats.loads == {"memory": 1, "disk": 0, "redis": 0, "computed": 1}
    assert stats.load_seconds["computed"] > 0
    assert stats.redis_errors == 0


def backing_buffer(array: np.ndarray) -> object:
    base: object = array
    while isinstance(base, np.ndarray | memoryview):
        base = base.base if isinstance(base, np.ndarray) else base.obj
    return base


def test_computed_table_is_then_served_from_the_disk_file_mapping(
    sync_store: Callable[[Path], HostTables], tmp_path: Path
) -> None:
    tables = sync_store(tmp_path)
    got = tables.get_sync(KEY, CountingCompute())  # waits for the disk write-back
    assert not got.array.flags.writeable
    assert (tmp_path / "tables" / f"{KEY.id}.dtbl").exists()
    held = tables.peek(KEY)
    assert held is not None and not held.flags.writeable
    assert isinstance(backing_buffer(held), mmap.mmap)  # shared by the host's workers


def test_a_forgotten_table_is_let_go_of_and_read_again_from_its_file(
    sync_store: Callable[[Path], HostTables], tmp_path: Path
) -> None:
    """What `diceref precompute` does after each table: the next get maps the file it wrote
    rather than solving again."""
    compute = CountingCompute()
    tables = sync_store(tmp_path)
    first = tables.get_sync(KEY, compute)
    tables.forget(KEY)
    assert tables.peek(KEY) is None
    again = tables.get_sync(KEY, compute)
    assert (again.source, compute.calls) == ("disk", 1)
    np.testing.assert_array_equal(again.array, first.array)


def test_peek_never_computes(sync_store: Callable[[Path], HostTables], tmp_path: Path) -> None:
    compute = CountingCompute()
    tables = sync_store(tmp_path)
    assert tables.peek(KEY) is None
    assert compute.calls == 0
    got = tables.get_sync(KEY, compute)
    held = tables.peek(KEY)
    assert held is not None
    np.testing.assert_array_equal(held, got.array)
    assert compute.calls == 1


@pytest.mark.parametrize("damage", ["flip", "truncate", "foreign"])
def test_corrupt_disk_file_is_recomputed(
    sync_store: Callable[[Path], HostTables], tmp_path: Path, damage: str
) -> None:
    compute = CountingCompute()
    sync_store(tmp_path).get_sync(KEY, compute)
    path = tmp_path / "tables" / f"{KEY.id}.dtbl"
    blob = bytearray(path.read_bytes())
    if damage == "flip":
        blob[-9] ^= 0x10
    elif damage == "truncate":
        del blob[len(blob) // 2 :]
    else:
        blob = bytearray(encode(TableKey("value", "yahtzee", "c0ffee", "0"), expected()))
    path.chmod(0o600)  # table files are read-only
    path.write_bytes(bytes(blob))
    fresh = sync_store(tmp_path)
    got = fresh.get_sync(KEY, compute)
    assert (got.source, compute.calls) == ("computed", 2)
    np.testing.assert_array_equal(got.array, expected())
    assert fresh.stats().corrupt["disk"] == 1
    assert sync_store(tmp_path).get_sync(KEY, compute).source == "disk"  # the rewritten file


def test_stored_table_of_the_wrong_shape_is_recomputed(
    sync_store: Callable[[Path], HostTables], tmp_path: Path
) -> None:
    sync_store(tmp_path).get_sync(KEY, CountingCompute(n=N - 1))
    compute = CountingCompute()
    got = sync_store(tmp_path).get_sync(KEY, compute, shape=(N,))
    assert (got.source, got.array.shape, compute.calls) == ("computed", (N,), 1)


def test_compute_of_the_wrong_shape_raises(
    sync_store: Callable[[Path], HostTables], tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match="shape"):
        sync_store(tmp_path).get_sync(KEY, CountingCompute(n=3), shape=(N,))


def test_the_solve_runs_in_a_daemon_thread(
    sync_store: Callable[[Path], HostTables], tmp_path: Path
) -> None:
    """Nothing waits for a solve a process is told to stop during (SIGTERM to the server,
    Ctrl-C to `diceref precompute`: tests/operations/test_shutdown.py)."""
    threads: list[threading.Thread] = []

    def compute() -> np.ndarray:
        threads.append(threading.current_thread())
        return expected()

    sync_store(tmp_path).get_sync(KEY, compute)
    assert [(t.daemon, t is threading.main_thread()) for t in threads] == [(True, False)]


def test_concurrent_gets_share_one_computation(tmp_path: Path) -> None:
    compute = CountingCompute(seconds=0.3)
    tables = store(tmp_path)

    async def main() -> list[str]:
        results = await asyncio.gather(*(tables.get(KEY, compute) for _ in range(5)))
        assert all(r.array is results[0].array for r in results)
        return sorted(r.source for r in results)

    assert asyncio.run(main()) == ["computed", "memory", "memory", "memory", "memory"]
    assert compute.calls == 1


def test_event_loop_keeps_running_while_computing(tmp_path: Path) -> None:
    tables = store(tmp_path)

    async def main() -> int:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.02)
                ticks += 1

        task = asyncio.create_task(ticker())
        await tables.get(KEY, CountingCompute(seconds=0.5))
        task.cancel()
        return ticks

    assert asyncio.run(main()) >= 10


def test_failed_compute_is_not_remembered(
    sync_store: Callable[[Path], HostTables], tmp_path: Path
) -> None:
    tables = sync_store(tmp_path)

    def broken() -> np.ndarray:
        raise RuntimeError("solver bug")

    with pytest.raises(RuntimeError, match="solver bug"):
        tables.get_sync(KEY, broken)
    assert tables.get_sync(KEY, CountingCompute()).source == "computed"


def test_unwritable_cache_dir_and_temp_dir_still_serve_from_memory(
    sync_store: Callable[[Path], HostTables],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory should be")
    monkeypatch.setattr(tempfile, "tempdir", str(blocker))  # no fallback either
    compute = CountingCompute()
    tables = sync_store(blocker)
    got = tables.get_sync(KEY, compute)
    assert got.source == "computed"
    assert tables.get_sync(KEY, compute).source == "memory"
    assert tables.stats().disk_errors >= 1
    assert "serving it from memory only" in caplog.text


def test_workers_without_a_writable_cache_dir_compute_a_table_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No Redis and a cache directory that cannot be written (issue 18: each of two workers
    solved and held its own copy): the lock and the table go to a private directory under
    the temporary directory, so one worker computes and the other maps its file."""
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory should be")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    compute = CountingCompute(seconds=0.5)
    first, second = store(blocker), store(blocker)

    async def both() -> tuple[str, str]:
        a = asyncio.create_task(first.get(KEY, compute))
        await asyncio.sleep(0.1)  # the first holds the lock before the second asks
        b = await second.get(KEY, compute)
        return (await a).source, b.source

    assert asyncio.run(both()) == ("computed", "disk")
    assert compute.calls == 1
    assert (first.stats().waits, second.stats().waits) == (0, 1)
    assert first.stats().disk_errors == second.stats().disk_errors == 0
    private = first.disk.fallback
    assert private.parent.parent == tmp_path / "tmp"
    assert [p.name for p in (private / "tables").iterdir()] == [f"{KEY.id}.dtbl"]
    assert (private.parent.stat().st_mode & 0o777) == 0o700
    for tables in (first, second):  # both serve the one file's mapping
        held = tables.peek(KEY)
        assert held is not None and isinstance(backing_buffer(held), mmap.mmap)
    # a third worker started later finds it there too
    assert store(blocker).get_sync(KEY, compute).source == "disk" and compute.calls == 1


def test_workers_of_a_host_compute_a_table_once(tmp_path: Path) -> None:
    """No Redis: two stores on one cache directory (two workers) ask for a missing table at
    once; one computes and writes the file, the other waits on the lock file and maps it."""
    compute = CountingCompute(seconds=0.5)
    first, second = store(tmp_path), store(tmp_path)

    async def both() -> tuple[str, str]:
        a = asyncio.create_task(first.get(KEY, compute))
        await asyncio.sleep(0.1)  # the first holds the lock before the second asks
        b = await second.get(KEY, compute)
        return (await a).source, b.source

    assert asyncio.run(both()) == ("computed", "disk")
    assert compute.calls == 1
    assert (first.stats().waits, second.stats().waits) == (0, 1)
    for tables in (first, second):  # both serve the one file's mapping
        held = tables.peek(KEY)
        assert held is not None and isinstance(backing_buffer(held), mmap.mmap)


WORKER = """
import sys, time
from pathlib import Path
import numpy as np
from diceref.tables import TableKey, TableSettings, TableStore
from diceref.tables.host import HostTables

def compute():
    with open(sys.argv[2], "a") as runs:
        runs.write("computed\\n")
    time.sleep(1.0)
    return np.arange(1000, dtype=np.float64)

kind = {"TableStore": TableStore, "HostTables": HostTables}[sys.argv[3]]
got = kind(TableSettings(cache_dir=Path(sys.argv[1]), poll_interval=0.05)).get_sync(
    TableKey("value", "yahtzee", "c0ffee", "1"), compute
)
assert got.array[999] == 999
print(got.source)
"""


@pytest.mark.parametrize("kind", ["TableStore", "HostTables"])
@pytest.mark.parametrize("cache", ["writable", "unwritable"])
def test_worker_processes_compute_a_table_once(tmp_path: Path, cache: str, kind: str) -> None:
    """Three worker processes; with an unwritable cache directory (issue 18) the lock and
    the table go under their shared temporary directory, and still one of them computes
    (the others wait on the lock file: in the event loop, or in `time.sleep`)."""
    runs = tmp_path / "runs.txt"
    cache_dir = tmp_path / "cache"
    if cache == "unwritable":
        (tmp_path / "file").write_text("a file where the cache directory should be")
        cache_dir = tmp_path / "file" / "cache"
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp")}
    (tmp_path / "tmp").mkdir()
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(cache_dir), str(runs), kind],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(3)
    ]
    sources = sorted(w.communicate(timeout=60)[0].strip() for w in workers)
    assert [w.returncode for w in workers] == [0, 0, 0]
    assert runs.read_text().splitlines() == ["computed"]
    assert sources == ["computed", "disk", "disk"]


def test_a_lock_that_cannot_be_taken_still_computes(
    sync_store: Callable[[Path], HostTables],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "locks").write_text("a file where the lock directory should be")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "locks"))  # nor a fallback
    compute = CountingCompute()
    assert sync_store(tmp_path).get_sync(KEY, compute).source == "computed"
    assert compute.calls == 1
    assert "without the host lock" in caplog.text


@pytest.mark.slow
def test_a_35_mb_table_loads_from_disk_without_a_solve(tmp_path: Path) -> None:
    """Loaded from the file, not solved again (how fast: benchmarks/bench_tables.py)."""
    n = 35_000_000 // 8
    solved = np.random.default_rng(1).random(n)
    store(tmp_path).get_sync(KEY, lambda: solved)
    compute = CountingCompute()
    got = store(tmp_path).get_sync(KEY, compute)
    assert (got.source, compute.calls) == ("disk", 0)
    np.testing.assert_array_equal(got.array, solved)


def test_the_store_does_not_import_litestar() -> None:
    code = "import sys, diceref.tables; print('litestar' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_settings_from_environment() -> None:
    settings = Settings.from_env(
        {
            "DICEREF_CACHE_DIR": "/x",
            "REDIS_URL": "redis://h:1/2",
            "DICEREF_REDIS_PREFIX": "p:",
            "DICEREF_REDIS_CONNECT_TIMEOUT": "0.5",
            "DICEREF_REDIS_TIMEOUT": "3",
            "DICEREF_REDIS_LOCK_TTL": "12",
            "DICEREF_REDIS_WAIT_TIMEOUT": "60",
            "DICEREF_REDIS_POLL_INTERVAL": "0.1",
        }
    ).tables
    assert settings == TableSettings(Path("/x"), "redis://h:1/2", "p:", 0.5, 3.0, 12.0, 60.0, 0.1)
    assert Settings.from_env({"REDIS_URL": ""}).tables.redis_url is None
    with pytest.raises(SettingsError, match="DICEREF_REDIS_TIMEOUT='soon'"):
        Settings.from_env({"DICEREF_REDIS_TIMEOUT": "soon"})
    with pytest.raises(SettingsError, match="REDIS_URL"):
        Settings.from_env({"REDIS_URL": "localhost:6379"})
