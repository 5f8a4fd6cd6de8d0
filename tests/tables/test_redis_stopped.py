"""A Redis that stops answering without closing its connections (SIGSTOP: a frozen process,
a network partition) while house rules are solved.

Every Redis operation then waits out its socket timeout, retried once: a ruleset's load
asks Redis for each table, so one ruleset stayed `solving` for 31 s before it was solved
here.  Now the first operation to time out pauses the others (they fail at once) and is not
retried, so the ruleset is solved locally after one timeout, and published to Redis once
it answers again.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from diceref.tables.config import TableSettings
from diceref.tables.registry import TableRegistry
from diceref.tables.spec import TableSpec
from diceref.tables.store import TableStore
from redis_server import PrivateRedis

pytestmark = pytest.mark.redis

N = 1000


def test_a_stopped_redis_costs_a_ruleset_one_timeout(
    tmp_path: Path, private_redis: PrivateRedis
) -> None:
    rules_hash = uuid.uuid4().hex[:16]
    group = [
        TableSpec(kind, "house", rules_hash, "t", (N,), lambda _: np.ones(N))
        for kind in ("value", "max")
    ]
    settings = TableSettings(cache_dir=tmp_path, redis_url=private_redis.url, redis_timeout=1.0)
    store = TableStore(settings)
    assert store.redis is not None and private_redis.process is not None
    redis_tables = store.redis
    waited: list[str] = []  # the load's operations that waited for the stopped Redis
    call = redis_tables._call

    async def timed_call(what: str, op: Any, *args: Any, **kwargs: Any) -> Any:
        started = time.monotonic()
        try:
            return await call(what, op, *args, **kwargs)
        finally:
            if what != "ping" and time.monotonic() - started >= settings.redis_timeout / 2:
                waited.append(what)

    redis_tables._call = timed_call  # type: ignore[method-assign]

    async def run() -> list[str | None]:
        registry = TableRegistry(store, [])
        await registry.start((), redis_check_interval=0.5)
        try:
            while registry.redis_up is not True:  # connected: the pool holds a connection
                await asyncio.sleep(0.05)
            os.kill(private_redis.process.pid, signal.SIGSTOP)
            try:
                registry.admit(group)
                deadline = time.monotonic() + 60
                while registry.status_of(group[0]).status != "ready":
                    assert registry.status_of(group[0]).status in ("queued", "solving")
                    assert time.monotonic() < deadline, registry.status_of(group[0])
                    await asyncio.sleep(0.05)
            finally:
                os.kill(private_redis.process.pid, signal.SIGCONT)
            sources = [registry.states[s.key].source for s in group]
            # Redis answers again: the watchdog publishes what was solved without it
            deadline = time.monotonic() + 30
            while not all(private_redis.has(f"diceref:table:{s.key.id}") for s in group):
                assert time.monotonic() < deadline, "never published"
                await asyncio.sleep(0.1)
            return sources
        finally:
            await registry.stop()

    assert asyncio.run(run()) == ["computed", "computed"]
    # One operation waited for Redis; every other one while it was stopped failed at once
    # (before: each table's GET waited, twice: its timeout and a retry's).
    assert waited == ["get"], waited
    assert redis_tables.refused >= 1
