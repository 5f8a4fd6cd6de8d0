"""Redis dies while the service runs, then comes back: a private redis-server we can kill."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import redis

from diceref.tables import TableKey, TableSettings, TableStore

pytestmark = pytest.mark.redis


class PrivateRedis:
    """A redis-server on a free loopback port, which a test may stop and start again."""

    def __init__(self, binary: str, workdir: Path) -> None:
        self.binary = binary
        self.workdir = workdir
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        options = {"port": str(self.port), "bind": "127.0.0.1", "save": "", "appendonly": "no"}
        args = [self.binary, "--dir", str(self.workdir)]
        for name, value in options.items():
            args += [f"--{name}", value]
        self.process = subprocess.Popen(
            args,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with redis.Redis(port=self.port, socket_connect_timeout=0.2) as client:
                    client.ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def has(self, name: str) -> bool:
        with redis.Redis(port=self.port) as client:
            return bool(client.exists(name))


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    binary = shutil.which("redis-server")
    if binary is None:
        message = "redis-server is not installed (apt-get install redis-server)"
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail(message)
        pytest.skip(message)
    workdir = tmp_path / "redis"
    workdir.mkdir()
    server = PrivateRedis(binary, workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def compute() -> np.ndarray:
    return np.arange(1000, dtype=np.float64)


def test_redis_killed_while_serving_then_back(
    tmp_path: Path, private_redis: PrivateRedis, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="diceref.tables")
    keys = [TableKey("value", "yahtzee", "0ff1ce", str(v)) for v in range(4)]
    settings = TableSettings(cache_dir=tmp_path / "a", redis_url=private_redis.url)
    store = TableStore(settings)

    async def serve() -> list[str]:
        sources = [(await store.get(keys[0], compute)).source]
        private_redis.stop()
        assert store.peek(keys[0]) is not None  # requests keep succeeding from memory
        sources.append((await store.get(keys[0], compute)).source)
        sources.append((await store.get(keys[1], compute)).source)
        sources.append((await store.get(keys[2], compute)).source)
        private_redis.start()  # an empty Redis, as after a restart without persistence
        sources.append((await store.get(keys[3], compute)).source)
        await store.aclose()
        return sources

    assert asyncio.run(serve()) == ["computed", "memory", "computed", "computed", "computed"]
    assert private_redis.has(f"diceref:table:{keys[3].id}")  # reconnected and shared again
    messages = [r.getMessage() for r in caplog.records if r.name.endswith("redis_store")]
    assert sum("unreachable" in m for m in messages) == 1
    assert sum("Redis back" in m for m in messages) == 1
    assert store.stats().redis_errors >= 2
    other = TableStore(TableSettings(cache_dir=tmp_path / "b", redis_url=private_redis.url))
    assert other.get_sync(keys[3], compute).source == "redis"
