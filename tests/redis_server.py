"""A redis-server of a test's own, on a free loopback port, which the test may kill and restart
(the `private_redis` fixture in conftest.py)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis


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


def private_redis_server(tmp_path: Path) -> Iterator[PrivateRedis]:
    """Started; stopped afterwards.  No redis-server binary fails under CI=true, else skips."""
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
