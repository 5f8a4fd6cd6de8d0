"""`RedisDown`, in a module of its own so that the store can catch it without importing
redis-py, which only a deployment with `REDIS_URL` loads (about 0.1 s of a process's
start-up, which `diceref precompute` and a laptop's `diceref serve` need not pay)."""

from __future__ import annotations


class RedisDown(Exception):
    """Redis could not answer; already logged and counted."""
