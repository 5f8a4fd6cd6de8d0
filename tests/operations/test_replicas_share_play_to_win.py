"""Replicas get a built-in game's play-to-win tables as docs/tables.md says: one volume,
filled once by `diceref precompute --target GAME`, as every replica's disk cache.  Each
replica maps the tables from it when it starts and answers forecasts without solving."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import TEST_CACHE, make_test_store
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.tables import max_spec, target_specs, value_spec
from diceref.tables.spec import load_sync
from live_server import LiveServer

pytestmark = pytest.mark.slow

GAME = "chute-5"  # play-to-win tables of seconds, where Yahtzee's take a quarter of an hour


def _fill_volume(volume: Path) -> None:
    """The job: `diceref precompute --target GAME` with the volume as its disk cache.  Its
    tables are seeded from the test cache first (the test cache solved them once), so the
    job runs as written and finds them there instead of solving them again."""
    ruleset = SCORECARD_GAMES[GAME]
    store = make_test_store()
    (volume / "tables").mkdir(parents=True)
    for spec in (value_spec(ruleset), max_spec(ruleset), *target_specs(ruleset)):
        load_sync(store, spec)
        name = store.disk.path(spec.key).name
        shutil.copyfile(TEST_CACHE / "tables" / name, volume / "tables" / name)
    job = subprocess.run(
        [sys.executable, "-m", "diceref.cli", "precompute", "--target", GAME],
        env={"DICEREF_CACHE_DIR": str(volume), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert job.returncode == 0, job.stdout + job.stderr
    assert {"win", "distribution"} <= {
        line.split()[1] for line in job.stdout.splitlines() if line.startswith(GAME)
    }, job.stdout


def test_two_replicas_map_the_play_to_win_tables_of_one_shared_volume(tmp_path: Path) -> None:
    volume = tmp_path / "volume"
    _fill_volume(volume)
    files = _game_files(volume)
    env = {"DICEREF_CACHE_DIR": str(volume), "DICEREF_PRELOAD": GAME}
    body = {"game": GAME, "scorecard": {"filled": {"aces": 0, "twos": 0}}, "target": 60,
            "play": "expected_points"}  # fmt: skip
    answers = []
    with (
        LiveServer(tmp_path / "a.log", env) as first,
        LiveServer(tmp_path / "b.log", env) as second,
    ):
        for replica in (first, second):
            replica.wait("/readyz")
            deadline = time.monotonic() + 60
            for kind in ("win", "distribution"):
                while replica.metric("diceref_table_loads_total", kind=kind, game=GAME) < 1:
                    assert time.monotonic() < deadline, replica.log()
                    time.sleep(0.2)
                loads = replica.metric("diceref_table_loads_total", kind=kind, game=GAME)
                mapped = replica.metric(
                    "diceref_table_loads_total", kind=kind, game=GAME, source="disk"
                )
                assert loads == mapped == 1, replica.log()
            response = replica.client.post("/distributions", json=body)
            assert response.status_code == 200, response.text
            answers.append({k: v for k, v in response.json().items() if k != "request_id"})
    assert answers[0] == answers[1]
    assert 0 < answers[0]["win_probability"] < 1
    assert _game_files(volume) == files  # the game's tables were read, none written again


def _game_files(volume: Path) -> dict[str, int]:
    """The game's table files on the volume, with when each was last written."""
    return {p.name: p.stat().st_mtime_ns for p in (volume / "tables").glob(f"*-{GAME}-*")}
