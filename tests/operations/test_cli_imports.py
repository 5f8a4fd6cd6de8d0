"""What `diceref precompute yahtzee` imports: only what solving a scorecard game needs.

Without `REDIS_URL` the command runs the store's lookup without an event loop
(`diceref.tables.host`), so neither asyncio nor redis-py is imported; it imports the
scorecard family alone, platformdirs only without DICEREF_CACHE_DIR, and the solve does
not reach numpy.ma.  Together some 70-100 ms of every run; this keeps any of them from
coming back unnoticed.  Read off `sys.modules` at the end of the command (`-X importtime`
does not list a module imported by `importlib.import_module`, as the families are).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

OWN = ("DICEREF_", "REDIS_URL")
DEFERRED = (
    "asyncio",
    "ssl",
    "redis",
    "platformdirs",
    "numpy.ma",
    "diceref.tables.store",
    "diceref.games.chicago",
    "diceref.games.yardkle",
)
# `diceref ARGS` as its console script runs it (`diceref.cli:main`), then every module the
# process holds, written to the file named first.
PROBE = """
import sys
from diceref.cli import main
status = main(sys.argv[2:])
with open(sys.argv[1], "w") as out:
    out.write("\\n".join(sorted(sys.modules)))
sys.exit(status)
"""


def imported_by(tmp_path: Path, *args: str, **env: str) -> tuple[set[str], str]:
    """The modules `diceref ARGS` imports (with `env` and none of this run's settings) and
    what it printed."""
    listing = tmp_path / "modules.txt"
    run = subprocess.run(
        [sys.executable, "-c", PROBE, str(listing), *args],
        env={k: v for k, v in os.environ.items() if not k.startswith(OWN)} | env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return set(listing.read_text().split()), run.stdout


@pytest.mark.slow
def test_precompute_without_redis_imports_neither_asyncio_nor_other_families(
    tmp_path: Path,
) -> None:
    cache = tmp_path / "cache"
    modules, solved = imported_by(tmp_path, "precompute", "yahtzee", DICEREF_CACHE_DIR=str(cache))
    assert [line.split()[:3] for line in solved.splitlines()] == [
        ["yahtzee", "value", "computed"],
        ["yahtzee", "max", "computed"],
    ]
    assert {"numpy", "diceref.games.scorecard", "diceref.tables.host"} <= modules
    assert sorted(m for m in DEFERRED if m in modules) == []

    # With Redis configured the same command does import the store's asyncio and
    # redis-py (an unreachable Redis: the tables come from the disk cache just filled).
    modules, loaded = imported_by(
        tmp_path,
        "precompute",
        "yahtzee",
        DICEREF_CACHE_DIR=str(cache),
        REDIS_URL="redis://127.0.0.1:1/0",
    )
    assert [line.split()[2] for line in loaded.splitlines()] == ["disk", "disk"]
    assert {"asyncio", "redis", "diceref.tables.store"} <= modules
