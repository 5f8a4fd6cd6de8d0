"""`RedisDown`, in a module of its own so that the store can catch it without importing
redis-py, which only a deployment with `REDIS_URL` loads (`diceref precompute` and a
laptop's `diceref serve` need not pay for its import)."""

from __future__ import annotations


class RedisDown(Exception):
    """Redis could not answer; already logged and counted."""
