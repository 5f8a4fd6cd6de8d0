"""TableStore with the real Redis at REDIS_URL: sharing between replicas, the compute lock,
corrupt blobs in Redis, and Redis being unreachable."""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import redis

from diceref.tables import LoadedTable, TableKey, TableSettings, TableStore, encode

pytestmark = pytest.mark.redis

KEY = TableKey("value", "dice-poker", "5eed", "1")
N = 20_000


class CountingCompute:
    """A stand-in solver shared by the replicas of a test, counting every run."""

    def __init__(self, seconds: float = 0.0) -> None:
        self.seconds = seconds
        self.calls = 0
        self._lock = threading.Lock()

    def __call__(self) -> np.ndarray:
        with self._lock:
            self.calls += 1
        time.sleep(self.seconds)
        return expected()


def expected() -> np.ndarray:
    values = np.linspace(0.0, 300.0, N)
    values[::5] = np.nan
    return values


def replica(cache_dir: Path, redis_url: str, prefix: str, **settings: float) -> TableStore:
    """A store as one replica would have it: its own disk, the shared Redis."""
    return TableStore(
        TableSettings(
            cache_dir=cache_dir,
            redis_url=redis_url,
            redis_prefix=prefix,
            poll_interval=0.05,
            **settings,  # type: ignore[arg-type]
        )
    )


def blob_in_redis(redis_url: str, prefix: str, key: TableKey = KEY) -> bytes | None:
    with redis.Redis.from_url(redis_url) as client:
        value = client.get(f"{prefix}table:{key.id}")
    assert value is None or isinstance(value, bytes)
    return value


def plant(redis_url: str, name: str, value: bytes, px: int | None = None) -> None:
    with redis.Redis.from_url(redis_url) as client:
        client.set(name, value, px=px)


def test_memory_disk_redis_compute_order(tmp_path: Path, redis_url: str, redis_prefix: str) -> None:
    compute = CountingCompute()
    a = replica(tmp_path / "a", redis_url, redis_prefix)
    assert a.get_sync(KEY, compute).source == "computed"
    assert a.get_sync(KEY, compute).source == "memory"
    assert blob_in_redis(redis_url, redis_prefix) is not None
    b = replica(tmp_path / "b", redis_url, redis_prefix)
    got = b.get_sync(KEY, compute)
    assert got.source == "redis"
    np.testing.assert_array_equal(got.array, expected())
    assert (tmp_path / "b" / "tables" / f"{KEY.id}.dtbl").exists()  # written back to disk
    assert replica(tmp_path / "b", redis_url, redis_prefix).get_sync(KEY, compute).source == (
        "disk"
    )
    assert compute.calls == 1
    assert b.stats().loads["redis"] == 1


def test_two_replicas_compute_once_threads(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    """Two replicas, each in its own thread and event loop, ask at the same moment."""
    compute = CountingCompute(seconds=0.5)
    stores = [replica(tmp_path / name, redis_url, redis_prefix) for name in ("a", "b")]
    results: list[LoadedTable] = []
    start = threading.Barrier(2)

    def run(store: TableStore) -> None:
        start.wait()
        results.append(store.get_sync(KEY, compute))

    threads = [threading.Thread(target=run, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert compute.calls == 1
    assert sorted(r.source for r in results) == ["computed", "redis"]
    for r in results:
        np.testing.assert_array_equal(r.array, expected())
    assert sum(s.stats().waits for s in stores) == 1


def test_two_replicas_compute_once_tasks(tmp_path: Path, redis_url: str, redis_prefix: str) -> None:
    compute = CountingCompute(seconds=0.5)
    a = replica(tmp_path / "a", redis_url, redis_prefix)
    b = replica(tmp_path / "b", redis_url, redis_prefix)

    async def main() -> list[str]:
        try:
            got = await asyncio.gather(a.get(KEY, compute), b.get(KEY, compute))
        finally:
            await a.aclose()
            await b.aclose()
        return sorted(r.source for r in got)

    assert asyncio.run(main()) == ["computed", "redis"]
    assert compute.calls == 1


def test_lock_is_released_after_computing_and_after_a_failure(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    store = replica(tmp_path, redis_url, redis_prefix)

    def broken() -> np.ndarray:
        raise RuntimeError("solver bug")

    with pytest.raises(RuntimeError):
        store.get_sync(KEY, broken)
    with redis.Redis.from_url(redis_url) as client:
        assert client.exists(f"{redis_prefix}lock:{KEY.id}") == 0
    store.get_sync(KEY, CountingCompute())
    with redis.Redis.from_url(redis_url) as client:
        assert client.exists(f"{redis_prefix}lock:{KEY.id}") == 0


def test_lock_is_kept_alive_during_a_long_compute(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    """With a 0.3 s lock TTL and a 1.2 s solve, a second replica still only waits."""
    compute = CountingCompute(seconds=1.2)
    a = replica(tmp_path / "a", redis_url, redis_prefix, lock_ttl=0.3)
    b = replica(tmp_path / "b", redis_url, redis_prefix, lock_ttl=0.3)

    async def main() -> list[str]:
        first = asyncio.create_task(a.get(KEY, compute))
        await asyncio.sleep(0.7)  # well past the TTL: only refreshes keep the lock alive
        second = await b.get(KEY, compute)
        return [(await first).source, second.source]

    assert asyncio.run(main()) == ["computed", "redis"]
    assert compute.calls == 1


def test_lock_of_a_dead_replica_expires(tmp_path: Path, redis_url: str, redis_prefix: str) -> None:
    plant(redis_url, f"{redis_prefix}lock:{KEY.id}", secrets.token_bytes(8), px=600)
    compute = CountingCompute()
    store = replica(tmp_path, redis_url, redis_prefix)
    got = store.get_sync(KEY, compute)
    assert (got.source, compute.calls) == ("computed", 1)
    assert store.stats().waits == 1  # it waited for the lock, which then expired
    assert blob_in_redis(redis_url, redis_prefix) is not None


def test_waiter_gives_up_after_the_wait_timeout(
    tmp_path: Path, redis_url: str, redis_prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    plant(redis_url, f"{redis_prefix}lock:{KEY.id}", b"someone-else", px=60_000)
    compute = CountingCompute()
    store = replica(tmp_path, redis_url, redis_prefix, wait_timeout=0.5)
    got = store.get_sync(KEY, compute)
    assert (got.source, compute.calls) == ("computed", 1)
    assert store.stats().waits == 1
    assert "computing it here" in caplog.text
    assert blob_in_redis(redis_url, redis_prefix) is not None  # still shared
    with redis.Redis.from_url(redis_url) as client:  # the other holder's lock is untouched
        assert client.get(f"{redis_prefix}lock:{KEY.id}") == b"someone-else"


@pytest.mark.parametrize("damage", ["flip", "truncate", "foreign", "garbage"])
def test_corrupt_blob_in_redis_is_discarded_and_recomputed(
    tmp_path: Path, redis_url: str, redis_prefix: str, damage: str
) -> None:
    blob = bytearray(encode(KEY, expected()))
    if damage == "flip":
        blob[-17] ^= 0x02
    elif damage == "truncate":
        del blob[-1:]
    elif damage == "foreign":
        blob = bytearray(encode(TableKey("value", "yahtzee", "5eed", "1"), expected()))
    else:
        blob = bytearray(b"not a table at all")
    plant(redis_url, f"{redis_prefix}table:{KEY.id}", bytes(blob))
    compute = CountingCompute()
    store = replica(tmp_path, redis_url, redis_prefix)
    got = store.get_sync(KEY, compute)
    assert (got.source, compute.calls) == ("computed", 1)
    np.testing.assert_array_equal(got.array, expected())
    assert store.stats().corrupt["redis"] == 1
    assert blob_in_redis(redis_url, redis_prefix) == encode(KEY, expected())  # repaired


def test_blob_of_unexpected_shape_in_redis_is_not_served(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    plant(redis_url, f"{redis_prefix}table:{KEY.id}", encode(KEY, expected()[:-1]))
    compute = CountingCompute()
    got = replica(tmp_path, redis_url, redis_prefix).get_sync(KEY, compute, shape=(N,))
    assert (got.source, got.array.shape, compute.calls) == ("computed", (N,), 1)


def test_unreachable_redis_falls_back_and_logs_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="diceref.tables")
    compute = CountingCompute()
    store = replica(tmp_path, "redis://127.0.0.1:1/0", "diceref-test:")
    keys = [TableKey("value", "dice-poker", "5eed", str(v)) for v in range(3)]
    for key in keys:
        assert store.get_sync(key, compute).source == "computed"
        assert store.get_sync(key, compute).source == "memory"
    assert replica(tmp_path, "redis://127.0.0.1:1/0", "x:").get_sync(keys[0], compute).source == (
        "disk"
    )
    assert compute.calls == 3
    unreachable = [
        r for r in caplog.records if "unreachable" in r.getMessage() and r.levelno >= logging.INFO
    ]
    assert len(unreachable) == 1
    assert unreachable[0].levelno == logging.WARNING
    assert store.stats().redis_errors == 3


def test_publish_writes_back_what_redis_lost(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    """After Redis lost a table (a restart without persistence), a replica that holds it
    publishes it again, once; a table Redis still has is left alone."""
    compute = CountingCompute()
    a = replica(tmp_path / "a", redis_url, redis_prefix)
    other = TableKey("value", "dice-poker", "5eed", "2")

    async def main() -> tuple[bool | None, int, int]:
        await a.get(KEY, compute)
        await a.get(other, compute)
        with redis.Redis.from_url(redis_url) as client:
            client.delete(f"{redis_prefix}table:{KEY.id}")
        up = await a.redis_ping()
        first = await a.publish()
        second = await a.publish()
        await a.aclose()
        return up, first, second

    assert asyncio.run(main()) == (True, 1, 0)
    assert a.stats().published == 1
    b = replica(tmp_path / "b", redis_url, redis_prefix)
    got = b.get_sync(KEY, compute)
    assert got.source == "redis" and compute.calls == 2
    np.testing.assert_array_equal(got.array, expected())


def test_ping_without_redis_or_with_redis_down(tmp_path: Path) -> None:
    alone = TableStore(TableSettings(cache_dir=tmp_path))
    down = TableStore(
        TableSettings(
            cache_dir=tmp_path, redis_url="redis://127.0.0.1:1/0", redis_connect_timeout=0.2
        )
    )

    async def main() -> tuple[bool | None, bool | None, int]:
        result = (await alone.redis_ping(), await down.redis_ping(), await down.publish())
        await down.aclose()
        return result

    assert asyncio.run(main()) == (None, False, 0)
    assert down.stats().redis_errors == 1
