"""Start a real `diceref serve` in a child process and drive it with a load generator in
another (wrk when installed, else a small asyncio client), printing requests per second."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx


@dataclass(frozen=True)
class Server:
    base: str
    pid: int


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve(
    workers: int = 1,
    env: dict[str, str] | None = None,
    ready_path: str = "/healthz",
    timeout: float = 120.0,
) -> Iterator[Server]:
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "diceref.cli",
        "serve",
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--server",
        os.environ.get("BENCH_SERVER", "granian"),
    ]
    proc = subprocess.Popen(
        cmd, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(base + ready_path, timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"server did not become ready on {ready_path}")
            time.sleep(0.2)
        yield Server(base, proc.pid)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


Body = dict[str, object]


def load(
    url: str, body: Body | list[Body] | None, seconds: float = 10, connections: int = 16
) -> dict[str, float]:
    """Requests per second and latency percentiles (ms) for one route; a list of bodies is
    sent in rotation (so per-state caches in the service do not flatter the figures)."""
    bodies = body if isinstance(body, list) else None if body is None else [body]
    if shutil.which("wrk"):
        return _wrk(url, bodies, seconds, connections)
    return asyncio.run(_asyncio_load(url, bodies, seconds, connections))


def _lua_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


REPORT = """done = function(summary, latency, requests)
  io.write(string.format("P50 %f\\nP95 %f\\nP99 %f\\nERR %d\\nNON2XX %d\\n",
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.timeout, summary.errors.status))
end
"""


def _wrk(url: str, bodies: list[Body] | None, seconds: float, connections: int) -> dict[str, float]:
    script = ""
    if bodies:
        payloads = ",\n".join(_lua_string(json.dumps(b)) for b in bodies)
        script = (
            f"local bodies = {{{payloads}}}\nlocal i = 0\n"
            'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
            "request = function()\n  i = i % #bodies + 1\n"
            "  return wrk.format(nil, nil, nil, bodies[i])\nend\n"
        )
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script + REPORT)
    cmd = ["wrk", "-t1", f"-c{connections}", f"-d{int(seconds)}s", "-s", f.name, url]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    Path(f.name).unlink()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    fig = {k: float(v) for k, v in re.findall(r"^(P50|P95|P99|ERR|NON2XX) ([\d.]+)$", out, re.M)}
    return {
        "rps": rps,
        "p50_ms": fig["P50"],
        "p95_ms": fig["P95"],
        "p99_ms": fig["P99"],
        "errors": fig["ERR"] + fig["NON2XX"],
    }


async def _asyncio_load(
    url: str, bodies: list[Body] | None, seconds: float, connections: int
) -> dict[str, float]:
    latencies: list[float] = []
    errors = 0
    deadline = time.monotonic() + seconds

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal errors
        n = 0
        while time.monotonic() < deadline:
            n += 1
            t = time.perf_counter()
            if bodies:
                r = await client.post(url, json=bodies[n % len(bodies)])
            else:
                r = await client.get(url)
            latencies.append((time.perf_counter() - t) * 1000)
            errors += r.status_code >= 400

    async with httpx.AsyncClient(limits=httpx.Limits(max_connections=connections)) as client:
        await asyncio.gather(*(worker(client) for _ in range(connections)))
    latencies.sort()
    n = len(latencies)
    return {
        "rps": n / seconds,
        "p50_ms": latencies[n // 2],
        "p95_ms": latencies[n * 95 // 100],
        "p99_ms": latencies[n * 99 // 100],
        "errors": float(errors),
    }


def asgi_scope(path: str, body: bytes, method: str = "POST") -> dict[str, Any]:
    """An HTTP request's ASGI scope, for timing the whole app in process (no sockets)."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"bench"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
        "state": {},
    }
