"""The Dockerfile, read as text (no container engine on the development machines): slim base,
non-root user, tables baked into the cache the service reads, a health check on /healthz at
the port the service listens on; and its table-baking step runs."""

from __future__ import annotations

import re
from pathlib import Path

from diceref.cli import build_parser
from diceref.http.app import app

ROOT = Path(__file__).parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def env(name: str) -> str:
    found = re.findall(rf"\b{name}=(\S+)", DOCKERFILE)
    assert found, name
    return found[-1].rstrip("\\").strip()


def test_slim_base_and_non_root_user() -> None:
    assert re.findall(r"^FROM (\S+)", DOCKERFILE, re.M) == ["python:3.11-slim"] * 2
    users = re.findall(r"^USER (\S+)", DOCKERFILE, re.M)
    assert users and users[-1].split(":")[0] not in ("0", "root")
    runtime = DOCKERFILE.split("\nFROM ")[-1]
    assert "useradd" in runtime and "--uid 10001" in runtime


def test_tables_are_baked_where_the_service_reads_them() -> None:
    assert env("DICEREF_CACHE_DIR") == "/app/cache"
    assert "RUN diceref precompute" in DOCKERFILE
    assert "COPY --from=build /app/cache /app/cache" in DOCKERFILE


def test_healthcheck_and_port() -> None:
    check = re.search(r"^HEALTHCHECK .*\n\s+CMD (.*)$", DOCKERFILE, re.M)
    assert check and "/healthz" in check.group(1) and "DICEREF_PORT" in check.group(1)
    assert "/healthz" in {route.path for route in app.routes}
    port = int(env("DICEREF_PORT"))
    assert re.search(rf"^EXPOSE {port}$", DOCKERFILE, re.M)
    assert port == build_parser().parse_args(["serve"]).port
    assert env("DICEREF_HOST") == "0.0.0.0"
    assert re.search(r'^CMD \["serve"\]', DOCKERFILE, re.M)


def test_dockerignore_keeps_local_state_out() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", ".cache"} <= set(ignored)
    assert "README.md" not in ignored  # pyproject.toml names it: the build needs it
