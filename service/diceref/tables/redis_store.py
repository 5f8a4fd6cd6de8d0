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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar, cast

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
    ) -> None:
        self.url = url
        self.where = describe_url(url)
        self.prefix = prefix
        self.connect_timeout = connect_timeout
        self.timeout = timeout
        self.lock_ttl = lock_ttl
        self.pause_after_timeout = pause_after_timeout
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
        """SET, expiring after `ttl` seconds when given (an on-demand table)."""
        name = self.table_key(key)
        await self._call("set", lambda r: cast(Awaitable[object], r.set(name, blob, ex=ttl)))

    async def put_if_absent(self, key: TableKey, blob: bytes, ttl: int | None = None) -> bool:
        """SET NX: True if `blob` was stored, False if Redis already had this table."""
        name = self.table_key(key)
        done = await self._call(
            "set nx",
            lambda r: cast(Awaitable[bool | None], r.set(name, blob, nx=True, ex=ttl)),
        )
        return bool(done)

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
