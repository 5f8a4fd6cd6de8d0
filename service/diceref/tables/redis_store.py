"""Tables shared through Redis, and the lock that lets only one replica compute a table.

Every operation either succeeds or raises `RedisDown`: the store treats that as a miss and
carries on with disk and memory.  An outage is logged once at WARNING (then at DEBUG while
it lasts) and its recovery once at INFO, so a dead Redis cannot flood the logs.
Reconnection needs no code: redis-py opens a new connection on the next call.

A Redis that stops answering without closing its connections (a stopped process, a
partition) costs an operation its whole socket timeout.  A load asks Redis several times
(the table, the lock, then the solved table and the unlock, for each table of a ruleset),
so after a timeout the other operations fail at once for `pause_after_timeout` seconds
instead of each waiting it out; the watchdog's ping is always sent, and an answer ends the
pause.  A timeout is not retried either (only a connection found dead is).  A refused
connection (Redis not running) fails at once anyway, and pauses nothing.

A table stored with a TTL is an on-demand one (house rules): its key is also listed in a
sorted set, `<prefix>on-demand`, by the time it was stored, and the same transaction that
stores it trims that list, oldest first, until the bytes of the tables still there are
within `on_demand_bytes`.  Built-in tables (stored without a TTL) are never listed, never
trimmed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

import redis.asyncio as aioredis
from redis.asyncio.connection import parse_url
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from diceref.tables.key import TableKey
from diceref.tables.outage import RedisDown

__all__ = ["RedisDown", "RedisTables", "describe_url"]

log = logging.getLogger(__name__)
T = TypeVar("T")

# Compare-and-delete / compare-and-extend: only the holder of the token touches the lock,
# so a replica whose lock expired cannot release or extend the next holder's lock.
_UNLOCK = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
_REFRESH = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""


# Run in the transaction that stores an on-demand table (KEYS[1] the list, ARGV[1] the
# table's key, ARGV[2] the byte budget, ARGV[3] the TTL): list it, scored by Redis's clock
# in milliseconds (a Lua number keeps 14 digits) and after the newest listed, so "oldest"
# is the order of storing; drop the entries of tables that expired; delete the new one if
# alone it is over the budget, else the oldest until the rest fit.  Returns {tables
# deleted, bytes kept}.  The sizes are read each time (STRLEN is O(1)) rather than kept in a
# counter, which expiry would leave wrong.
_TRIM = """
local now = redis.call('time')
local score = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local last = redis.call('zrange', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] and tonumber(last[2]) >= score then score = tonumber(last[2]) + 1 end
redis.call('zadd', KEYS[1], score, ARGV[1])
redis.call('expire', KEYS[1], ARGV[3])
local names = redis.call('zrange', KEYS[1], 0, -1)
local sizes, total = {}, 0
for i, name in ipairs(names) do
  sizes[i] = redis.call('strlen', name)
  if sizes[i] == 0 then redis.call('zrem', KEYS[1], name) end
  total = total + sizes[i]
end
local budget, deleted = tonumber(ARGV[2]), 0
for i, name in ipairs(names) do
  if name == ARGV[1] and sizes[i] > budget then
    redis.call('del', name)
    redis.call('zrem', KEYS[1], name)
    total = total - sizes[i]
    sizes[i] = 0
    deleted = 1
  end
end
for i, name in ipairs(names) do
  if total <= budget then break end
  if sizes[i] > 0 then
    redis.call('del', name)
    redis.call('zrem', KEYS[1], name)
    total = total - sizes[i]
    deleted = deleted + 1
  end
end
return {deleted, total}
"""


def describe_url(url: str) -> str:
    """host:port/db without credentials, fit for logs."""
    parts = parse_url(url)
    where = parts.get("path") or f"{parts.get('host', 'localhost')}:{parts.get('port', 6379)}"
    return f"{where}/{parts.get('db', 0)}"


class RedisTables:
    def __init__(
        self,
        url: str,
        prefix: str = "diceref:",
        *,
        connect_timeout: float = 1.0,
        timeout: float = 5.0,
        lock_ttl: float = 30.0,
        pause_after_timeout: float = 5.0,
        on_demand_bytes: int | None = None,
    ) -> None:
        self.url = url
        self.where = describe_url(url)
        self.prefix = prefix
        self.connect_timeout = connect_timeout
        self.timeout = timeout
        self.lock_ttl = lock_ttl
        self.pause_after_timeout = pause_after_timeout
        self.on_demand_bytes = on_demand_bytes  # None: on-demand tables have no byte budget
        self.errors = 0
        self.refused = 0  # operations failed at once during a pause after a timeout
        self._healthy = True
        self._paused_until = 0.0
        # A redis.asyncio client belongs to the event loop it first ran on; `get_sync`
        # runs each call in a new loop, so the client is made per loop.
        self._client: aioredis.Redis | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def table_key(self, key: TableKey) -> str:
        return f"{self.prefix}table:{key.id}"

    def lock_key(self, key: TableKey) -> str:
        return f"{self.prefix}lock:{key.id}"

    @property
    def on_demand_key(self) -> str:
        """The sorted set of on-demand tables' keys, by when each was stored."""
        return f"{self.prefix}on-demand"

    def _connection(self) -> aioredis.Redis:
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            self._client = aioredis.Redis.from_url(
                self.url,
                socket_connect_timeout=self.connect_timeout,
                socket_timeout=self.timeout,
                # One immediate retry: it rides over a connection that died while idle in
                # the pool (Redis restarted) without stalling when Redis is really down.
                # Not after a timeout: that would wait the timeout out twice.
                retry=Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
            )
            self._loop = loop
        return self._client

    async def _call(
        self, what: str, op: Callable[[aioredis.Redis], Awaitable[T]], probe: bool = False
    ) -> T:
        """`op`, or `RedisDown`; during a pause after a timeout, `RedisDown` at once
        unless `probe` (the watchdog's ping)."""
        if not probe and time.monotonic() < self._paused_until:
            self.errors += 1
            self.refused += 1
            raise RedisDown(f"{what}: Redis timed out less than {self.pause_after_timeout} s ago")
        try:
            result = await op(self._connection())
        except (TimeoutError, RedisError, OSError) as exc:
            self.errors += 1
            if isinstance(exc, (TimeoutError, RedisTimeoutError)):
                self._paused_until = time.monotonic() + self.pause_after_timeout
            if self._healthy:
                self._healthy = False
                log.warning(
                    "Redis at %s unreachable (%s: %s); going on with disk and memory",
                    self.where,
                    what,
                    exc,
                )
            else:
                log.debug("Redis at %s still unreachable (%s: %s)", self.where, what, exc)
            raise RedisDown(str(exc)) from exc
        self._paused_until = 0.0
        if not self._healthy:
            self._healthy = True
            log.info("Redis back at %s", self.where)
        return result

    async def get(self, key: TableKey) -> bytes | None:
        name = self.table_key(key)
        return await self._call("get", lambda r: cast(Awaitable[bytes | None], r.get(name)))

    async def put(self, key: TableKey, blob: bytes, ttl: int | None = None) -> None:
        """SET; with a `ttl`, an on-demand table, expiring after `ttl` seconds and kept
        within the on-demand byte budget."""
        await self._store("set", key, blob, ttl, only_if_absent=False)

    async def put_if_absent(self, key: TableKey, blob: bytes, ttl: int | None = None) -> bool:
        """SET NX: True if `blob` was stored, False if Redis already had this table."""
        return await self._store("set nx", key, blob, ttl, only_if_absent=True)

    async def _store(
        self, what: str, key: TableKey, blob: bytes, ttl: int | None, *, only_if_absent: bool
    ) -> bool:
        name, budget = self.table_key(key), self.on_demand_bytes
        nx = only_if_absent
        if ttl is None or budget is None:
            done = await self._call(
                what, lambda r: cast(Awaitable[bool | None], r.set(name, blob, nx=nx, ex=ttl))
            )
            return bool(done)

        async def store_and_trim(r: aioredis.Redis) -> list[Any]:
            async with r.pipeline(transaction=True) as pipe:
                pipe.set(name, blob, nx=nx, ex=ttl)
                pipe.eval(_TRIM, 1, self.on_demand_key, name, str(budget), str(ttl))
                return await pipe.execute()

        stored, (deleted, kept) = await self._call(what, store_and_trim)
        if deleted:
            log.info(
                "trimmed %d on-demand tables from Redis (%d bytes kept, budget %d)",
                deleted,
                kept,
                budget,
            )
        return bool(stored)

    async def exists(self, key: TableKey) -> bool:
        name = self.table_key(key)
        found = await self._call("exists", lambda r: r.exists(name))
        return bool(found)

    async def ping(self) -> bool:
        """True if Redis answers; raises RedisDown (counted and logged) if it does not."""
        return bool(await self._call("ping", lambda r: r.ping(), probe=True))

    @property
    def healthy(self) -> bool:
        """Whether the last operation succeeded (True before the first one)."""
        return self._healthy

    async def delete(self, key: TableKey) -> None:
        name = self.table_key(key)
        await self._call("delete", lambda r: cast(Awaitable[object], r.delete(name)))

    async def try_lock(self, key: TableKey) -> str | None:
        """A token if this caller now holds the compute lock for `key`, else None."""
        token = secrets.token_hex(16)
        name, ttl = self.lock_key(key), self._ttl_ms()
        got = await self._call(
            "lock",
            lambda r: cast(Awaitable[bool | None], r.set(name, token, nx=True, px=ttl)),
        )
        return token if got else None

    async def refresh(self, key: TableKey, token: str) -> bool:
        """Extend the lock; False if it is no longer ours (expired, taken over)."""
        name, ttl = self.lock_key(key), self._ttl_ms()
        done = await self._call(
            "refresh lock",
            lambda r: cast(Awaitable[int], r.eval(_REFRESH, 1, name, token, str(ttl))),
        )
        return bool(done)

    async def unlock(self, key: TableKey, token: str) -> bool:
        """Release the lock if still ours; False if it had expired or changed hands."""
        name = self.lock_key(key)
        done = await self._call(
            "unlock", lambda r: cast(Awaitable[int], r.eval(_UNLOCK, 1, name, token))
        )
        return bool(done)

    async def aclose(self) -> None:
        """Close the current loop's client (the next call opens a new one)."""
        client, self._client, self._loop = self._client, None, None
        if client is not None:
            with contextlib.suppress(RedisError, OSError, RuntimeError):
                await client.aclose()

    def _ttl_ms(self) -> int:
        return max(1, round(self.lock_ttl * 1000))
