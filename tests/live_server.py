"""`diceref serve` in a child process, for tests that need a real server (several processes,
Redis killed under it, the load test's smoke run).  Every wait is bounded."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

# Variables a test's server must not inherit from the test run: it gets exactly its own.
_OWN = ("DICEREF_", "REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    def __init__(self, log_path: Path, env: dict[str, str], workers: int = 1) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(_OWN)}
        self.env |= {"DICEREF_LOG_FORMAT": "json", "DICEREF_LOG_LEVEL": "INFO"} | env
        self.workers = workers
        self.process: subprocess.Popen[bytes] | None = None
        self.client = httpx.Client(base_url=self.base, timeout=10)

    def start(self) -> LiveServer:
        cmd = [sys.executable, "-m", "diceref.cli", "serve", "--port", str(self.port)]
        cmd += ["--workers", str(self.workers)]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(cmd, env=self.env, stdout=log, stderr=log)
        return self

    def wait(self, path: str = "/healthz", timeout: float = 60.0) -> httpx.Response:
        """Poll `path` until it answers 200; fail with the server's log if it never does."""
        deadline = time.monotonic() + timeout
        while True:
            assert self.process is not None
            if self.process.poll() is not None:
                raise AssertionError(f"server exited ({self.process.returncode}):\n{self.log()}")
            try:
                response = self.client.get(path, timeout=2)
                if response.status_code == 200:
                    return response
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"{path} not 200 after {timeout} s:\n{self.log()}")
            time.sleep(0.1)

    def stop(self) -> None:
        self.client.close()
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def log_records(self) -> list[dict[str, Any]]:
        """The JSON log lines (every line the server wrote must be one)."""
        return [json.loads(line) for line in self.log().splitlines() if line.strip()]

    def metrics(self) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
        text = self.client.get("/metrics").text
        return parse_metrics(text)

    def metric(self, name: str, **labels: str) -> float:
        """The sum of the samples of `name` whose labels include `labels`."""
        wanted = set(labels.items())
        return sum(v for (n, ls), v in self.metrics().items() if n == name and wanted <= ls)


def parse_metrics(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    out: dict[tuple[str, frozenset[tuple[str, str]]], float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return out
