"""Structured logs (one JSON object per line) and configuration from the environment."""

from __future__ import annotations

import json
import logging
import logging.config
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from diceref.cli import build_parser
from diceref.logs import JsonFormatter, ServiceHandler, configure_logging, granian_log_config
from diceref.settings import Settings, SettingsError


def record(message: str, *args: object, **extra: object) -> logging.LogRecord:
    rec = logging.LogRecord("diceref.tables", logging.WARNING, __file__, 1, message, args, None)
    rec.__dict__.update(extra)
    return rec


def test_json_lines_carry_the_message_and_extra_fields() -> None:
    line = JsonFormatter().format(record("table %s from %s", "value/yahtzee", "disk", game="yz"))
    entry = json.loads(line)
    assert entry["message"] == "table value/yahtzee from disk"
    assert entry["level"] == "WARNING" and entry["logger"] == "diceref.tables"
    assert entry["game"] == "yz" and isinstance(entry["pid"], int)
    assert entry["time"].endswith("Z") and "T" in entry["time"]
    assert "\n" not in line


def test_exceptions_stay_on_one_line() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        rec = record("failed")
        rec.exc_info = sys.exc_info()
    line = JsonFormatter().format(rec)
    assert "\n" not in line
    assert "ValueError: boom" in json.loads(line)["exception"]


def test_granian_access_fields_become_json_fields() -> None:
    rec = logging.LogRecord(
        "granian.access", logging.INFO, "", 0, "%(method)s %(path)s", None, None
    )
    rec.args = {"method": "GET", "path": "/healthz", "status": 200, "dt_ms": 0.2}
    entry = json.loads(JsonFormatter().format(rec))
    assert entry["message"] == "GET /healthz"
    assert entry["status"] == 200 and entry["path"] == "/healthz"


def test_configure_logging_is_idempotent() -> None:
    root = logging.getLogger()
    level = root.level
    try:
        configure_logging("WARNING", "json")
        configure_logging("INFO", "text")
        ours = [h for h in root.handlers if isinstance(h, ServiceHandler)]
        assert len(ours) == 1 and not isinstance(ours[0].formatter, JsonFormatter)
        assert root.level == logging.INFO
    finally:
        for h in [h for h in root.handlers if isinstance(h, ServiceHandler)]:
            root.removeHandler(h)
        root.setLevel(level)


def test_granian_log_config_is_a_valid_dict_config() -> None:
    config = granian_log_config("INFO", "json")
    assert config["loggers"]["_granian"]["propagate"] is True
    assert config["formatters"]["service"]["()"] == "diceref.logs.JsonFormatter"
    root = logging.getLogger()
    saved = (root.level, list(root.handlers))
    try:
        logging.config.dictConfig(config)
        assert any(isinstance(h, ServiceHandler) for h in root.handlers)
    finally:
        root.handlers[:] = saved[1]
        root.setLevel(saved[0])


def test_settings_defaults() -> None:
    s = Settings.from_env({})
    assert s.preload == ("yahtzee", "yardzee", "dice-poker", "russian-poker", "chute-5", "yatzy")
    assert (s.retry_after_seconds, s.max_body_bytes, s.cors_origins) == (5, 65536, ())
    assert (s.log_level, s.log_format, s.redis_check_interval) == ("INFO", "json", 5.0)


def test_settings_from_the_environment() -> None:
    s = Settings.from_env(
        {
            "DICEREF_PRELOAD": "chute-5, yahtzee",
            "DICEREF_RETRY_AFTER": "3",
            "DICEREF_MAX_BODY_BYTES": "4096",
            "DICEREF_CORS_ORIGINS": "*",
            "DICEREF_REDIS_CHECK_INTERVAL": "0.5",
            "DICEREF_LOG_LEVEL": "debug",
            "DICEREF_LOG_FORMAT": "TEXT",
        }
    )
    assert s.preload == ("chute-5", "yahtzee") and s.retry_after_seconds == 3
    assert s.max_body_bytes == 4096 and s.cors_origins == ("*",)
    assert (s.redis_check_interval, s.log_level, s.log_format) == (0.5, "DEBUG", "text")


@pytest.mark.parametrize(
    "env",
    [
        {"DICEREF_PRELOAD": "chess"},
        {"DICEREF_MAX_BODY_BYTES": "0"},
        {"DICEREF_MAX_BODY_BYTES": "lots"},
        {"DICEREF_RETRY_AFTER": "-1"},
        {"DICEREF_LOG_FORMAT": "xml"},
        {"DICEREF_LOG_LEVEL": "loud"},
        {"DICEREF_REDIS_CHECK_INTERVAL": "0"},
    ],
)
def test_bad_settings_fail_at_startup(env: dict[str, str]) -> None:
    with pytest.raises(ValueError, match=next(iter(env))):
        Settings.from_env(env)


def test_every_environment_variable_is_documented_with_its_default() -> None:
    """Each variable the service reads has a row (name, default, meaning) in the README."""
    root = Path(__file__).parents[2]
    read = set()
    for source in (root / "service").rglob("*.py"):
        read |= set(re.findall(r'"((?:DICEREF|REDIS|PROMETHEUS)_[A-Z_]+)"', source.read_text()))
    assert {"DICEREF_PRELOAD", "REDIS_URL", "DICEREF_MAX_BODY_BYTES"} <= read
    readme = (root / "README.md").read_text()
    rows = dict(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \| ([^|]+) \|", readme, re.M))
    missing = sorted(read - set(rows))
    assert not missing, f"not in the README's table: {missing}"
    assert all(default.strip() for default in rows.values())


def test_terminal_colour_copies_are_left_out() -> None:
    entry = json.loads(JsonFormatter().format(record("started", color_message="\x1b[36mstarted")))
    assert "color_message" not in entry


OWN = ("DICEREF_", "REDIS_URL")


def run_cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`diceref ARGS` as a user runs it, with `env` added to this environment."""
    return subprocess.run(
        [sys.executable, "-m", "diceref.cli", *args],
        # Only `env` configures the command: no Redis and no setting of this test run leak
        # in (a precompute must not publish under the production Redis prefix).
        env={k: v for k, v in os.environ.items() if not k.startswith(OWN)} | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"DICEREF_PORT": "abc"}, "DICEREF_PORT='abc' is not allowed: a whole number from 1 to "
         "65535"),
        ({"DICEREF_WORKERS": "0"}, "DICEREF_WORKERS='0' is not allowed: a whole number from 1"),
        ({"DICEREF_ACCESS_LOG": "maybe"}, "DICEREF_ACCESS_LOG='maybe' is not allowed: true or "
         "false"),
        ({"DICEREF_LOG_FORMAT": "xml"}, "DICEREF_LOG_FORMAT='xml' is not allowed: one of json, "
         "text"),
        ({"DICEREF_REDIS_TIMEOUT": "soon"}, "DICEREF_REDIS_TIMEOUT='soon' is not allowed: a "
         "number"),
        ({"DICEREF_PRELOAD": "chess"}, "DICEREF_PRELOAD='chess' names unknown games (chess)"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("command", [["score", "yahtzee", "1", "2", "3", "4", "5"], ["serve"]])
def test_a_bad_setting_stops_every_command_with_one_line(
    env: dict[str, str], says: str, command: list[str]
) -> None:
    run = run_cli(*command, **env)
    assert run.returncode == 2
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
    assert lines[0].startswith("diceref: error: ") and says in lines[0], lines[0]


def test_uvicorn_with_several_workers_is_refused() -> None:
    run = run_cli("serve", "--server", "uvicorn", "--workers", "2")
    assert run.returncode == 2
    assert "--server uvicorn runs one process" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("server", ["granian", "uvicorn"])
def test_a_busy_port_stops_serve_with_one_line(server: str) -> None:
    """Another process listening on the port: one line naming the address and the
    settings that choose another, exit 2 (granian printed a Python and Rust traceback)."""
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        run = run_cli("serve", "--server", server, "--port", str(port), DICEREF_PRELOAD="none")
    assert run.returncode == 2, run.stderr
    assert run.stdout == "" and "Traceback" not in run.stderr
    assert run.stderr.splitlines() == [
        f"diceref serve: error: cannot listen on 127.0.0.1:{port}: Address already in use "
        "(choose another with --port or DICEREF_PORT, --host or DICEREF_HOST)"
    ]


def test_workers_below_one_are_refused_on_the_command_line() -> None:
    run = run_cli("serve", "--workers", "0")
    assert run.returncode == 2 and "must be at least 1" in run.stderr


def test_precompute_refuses_an_unknown_game() -> None:
    run = run_cli("precompute", "chess")
    assert run.returncode == 2
    assert "unknown game(s) chess" in run.stderr and "yahtzee" in run.stderr


def test_the_settings_feed_serves_defaults() -> None:
    settings = Settings.from_env({"DICEREF_PORT": "8123", "DICEREF_WORKERS": "3"})
    args = build_parser(settings).parse_args(["serve"])
    assert (args.port, args.workers, args.host) == (8123, 3, "127.0.0.1")


def test_precompute_prints_a_few_plain_lines_when_not_on_a_terminal(tmp_path: Path) -> None:
    """A build log gets at most five progress lines per solved table and no `\\r` redraws;
    a table found in the cache prints none."""
    run = run_cli("precompute", "chute-5", DICEREF_CACHE_DIR=str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert "\r" not in run.stderr
    lines = run.stderr.splitlines()
    assert lines == [f"chute-5 value: solving, {p}%" for p in (0, 25, 50, 75, 100)], lines
    assert [line.split()[:3] for line in run.stdout.splitlines()] == [
        ["chute-5", "value", "computed"],
        ["chute-5", "max", "computed"],
    ]
    again = run_cli("precompute", "chute-5", DICEREF_CACHE_DIR=str(tmp_path))
    assert again.stderr == "" and [line.split()[2] for line in again.stdout.splitlines()] == [
        "disk",
        "disk",
    ]


def test_the_compiled_kernel_goes_where_the_settings_say(tmp_path: Path) -> None:
    """By default beside the tables (`<DICEREF_CACHE_DIR>/kernels`), else in
    DICEREF_KERNEL_CACHE_DIR; a solve in a later process loads it from there."""
    run = run_cli("precompute", "chute-5", DICEREF_CACHE_DIR=str(tmp_path / "a"))
    assert run.returncode == 0, run.stderr
    assert len(list((tmp_path / "a" / "kernels").glob("kernel-*.o"))) == 1
    kernels = tmp_path / "elsewhere"
    run = run_cli(
        "precompute",
        "chute-5",
        DICEREF_CACHE_DIR=str(tmp_path / "b"),
        DICEREF_KERNEL_CACHE_DIR=str(kernels),
    )
    assert run.returncode == 0, run.stderr
    assert not (tmp_path / "b" / "kernels").exists()
    (written,) = kernels.glob("kernel-*.o")
    assert (
        written.read_bytes() == next((tmp_path / "a" / "kernels").glob("kernel-*.o")).read_bytes()
    )


def test_the_connection_settings_reach_granian() -> None:
    """Each limit of issue 18 is a variable with a default, and `serve` hands it to granian
    (HTTP/1.1 only: in `auto` mode a silent connection escaped the header timeout)."""
    from granian.constants import HTTPModes

    from diceref.cli import _connection_limits

    defaults = _connection_limits(Settings.from_env({}))
    assert defaults["http"] is HTTPModes.http1
    assert (defaults["backlog"], defaults["backpressure"]) == (1024, 512)
    assert defaults["http1_settings"].header_read_timeout == 10_000
    assert defaults["http1_settings"].keep_alive is True
    assert defaults["workers_kill_timeout"] == 20
    assert defaults["send_timeout"] == 10
    assert Settings.from_env({}).body_timeout == 30
    given = Settings.from_env(
        {
            "DICEREF_BACKLOG": "2048",
            "DICEREF_MAX_CONNECTIONS": "100",
            "DICEREF_HEADER_TIMEOUT": "2.5",
            "DICEREF_BODY_TIMEOUT": "4",
            "DICEREF_KEEP_ALIVE": "false",
            "DICEREF_SHUTDOWN_TIMEOUT": "7",
            "DICEREF_SEND_TIMEOUT": "2.5",
        }
    )
    limits = _connection_limits(given)
    assert (limits["backlog"], limits["backpressure"], limits["workers_kill_timeout"]) == (
        2048,
        100,
        7,
    )
    assert limits["http1_settings"].header_read_timeout == 2_500
    assert limits["http1_settings"].keep_alive is False
    assert limits["send_timeout"] == 2.5
    assert given.body_timeout == 4


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"DICEREF_BACKLOG": "10"}, "a whole number from 128 to 65535"),
        ({"DICEREF_MAX_CONNECTIONS": "0"}, "a whole number from 1 to 65535"),
        ({"DICEREF_HEADER_TIMEOUT": "120"}, "a number of seconds from 0.001 to 60"),
        ({"DICEREF_BODY_TIMEOUT": "0"}, "a number of seconds greater than 0"),
        ({"DICEREF_SHUTDOWN_TIMEOUT": "1.5"}, "a whole number from 1 to 1800"),
        ({"DICEREF_SEND_TIMEOUT": "0.1"}, "a number of seconds from 0.5 to 600"),
    ],
)
def test_a_bad_connection_setting_is_named(env: dict[str, str], says: str) -> None:
    with pytest.raises(SettingsError) as raised:
        Settings.from_env(env)
    ((name, value),) = env.items()
    assert str(raised.value) == f"{name}={value!r} is not allowed: {says}"


def test_precompute_solves_a_house_rules_variant(tmp_path: Path) -> None:
    """`--rules` solves the variant's tables under its rules' hash, where a request's
    `rules` looks them up; a second run finds them on disk."""
    from diceref.games.scorecard.rules.games import variant

    rules = '{"break_over": 25, "upper_bonus_points": 15}'
    rules_hash = variant("chute-5", break_over=25, upper_bonus_points=15).rules_hash
    run = run_cli("precompute", "chute-5", "--rules", rules, DICEREF_CACHE_DIR=str(tmp_path))
    assert run.returncode == 0, run.stderr
    header, *tables = run.stdout.splitlines()
    assert header.startswith(f"chute-5 house rules {rules_hash}: ")
    assert [line.split()[:3] for line in tables] == [
        ["chute-5", "value", "computed"],
        ["chute-5", "max", "computed"],
    ]
    assert {p.name.split("-v")[0] for p in (tmp_path / "tables").glob("*.dtbl")} == {
        f"value-chute-5-{rules_hash}",
        f"max-chute-5-{rules_hash}",
    }
    again = run_cli("precompute", "chute-5", "--rules", rules, DICEREF_CACHE_DIR=str(tmp_path))
    assert [line.split()[2] for line in again.stdout.splitlines()[1:]] == ["disk", "disk"]


def test_precompute_solves_a_yardkle_house_rules_table(tmp_path: Path) -> None:
    """Yardkle's coach table under `--rules` is solved under the rules' hash, the table
    `/yardkle/holds` reads for the same `rules`."""
    from diceref.games.yardkle.rules.ruleset import yardkle

    variant = yardkle(three_ones=1000).ruleset_id
    run = run_cli(
        "precompute", "yardkle", "--rules", '{"three_ones": 1000}', DICEREF_CACHE_DIR=str(tmp_path)
    )
    assert run.returncode == 0, run.stderr
    header, *tables = run.stdout.splitlines()
    assert header == f'yardkle house rules {variant}: {{"three_ones": 1000}}'
    assert [line.split()[:3] for line in tables] == [["yardkle", "policy", "computed"]]
    assert [p.name.split("-v")[0] for p in (tmp_path / "tables").glob("*.dtbl")] == [
        f"policy-yardkle-{variant}"
    ]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["precompute", "yahtzee", "--rules", '{"jokers": "none"}'], "rules.jokers: 'yahtzee'"),
        (["precompute", "yahtzee", "--rules", '{"joker": "never"}'], "rules.joker: one of"),
        (["precompute", "--rules", '{"joker": "none"}'], "--rules applies to one game"),
        (["precompute", "yahtzee", "--rules", "joker=none"], "--rules is not JSON"),
        (["precompute", "yahtzee", "--rules", "[1]"], "--rules is a JSON object"),
        (
            ["precompute", "chicago", "--rules", '{"worst_tie_loser": "earlier"}'],
            "chicago has no tables to solve under house rules",
        ),
        (["score", "yahtzee", "1", "2", "3", "4", "5", "--throw", "4"], "not a throw 4"),
    ],
)
def test_refused_house_rules_exit_2_naming_the_parameter(args: list[str], says: str) -> None:
    run = run_cli(*args)
    assert run.returncode == 2 and says in run.stderr, run.stderr


def test_score_under_house_rules() -> None:
    """Yatzy where five of a kind is also a full house: five 6s score 30 there."""
    dice = ["yatzy", "6", "6", "6", "6", "6"]
    plain = run_cli("score", *dice)
    house = run_cli("score", *dice, "--rules", '{"full_house_accepts_five_of_a_kind": true}')
    assert plain.returncode == house.returncode == 0, house.stderr
    assert re.search(r"^Full house\s+0\s+0$", plain.stdout, re.M), plain.stdout
    assert re.search(r"^Full house\s+30\s+0$", house.stdout, re.M), house.stdout
    assert "house rules" in house.stdout.splitlines()[0]
    four = run_cli("score", "yahtzee", "1", "2", "3", "4", "5", "--throw", "4", "--rules",
                   '{"throws_per_turn": 4}')  # fmt: skip
    assert four.returncode == 0, four.stderr


def test_precompute_draws_a_bar_on_a_terminal(tmp_path: Path) -> None:
    """On a terminal the progress is rich's bar (redrawn in place), not the plain lines."""
    import pty
    import select

    main, secondary = pty.openpty()
    env = {k: v for k, v in os.environ.items() if not k.startswith(OWN)}
    with subprocess.Popen(
        [sys.executable, "-m", "diceref.cli", "precompute", "chute-5"],
        env=env | {"DICEREF_CACHE_DIR": str(tmp_path), "TERM": "xterm", "COLUMNS": "100"},
        stdout=subprocess.DEVNULL,
        stderr=secondary,
    ) as proc:
        os.close(secondary)
        shown = b""
        while True:
            ready, _, _ = select.select([main], [], [], 60)
            if not ready:
                break
            try:
                got = os.read(main, 4096)
            except OSError:  # the terminal closed: the process is done
                break
            if not got:
                break
            shown += got
        assert proc.wait(timeout=60) == 0
    os.close(main)
    text = shown.decode(errors="replace")
    assert "chute-5 value" in text and "100%" in text, text
    assert "━" in text, text  # rich's bar
    assert "solving, 0%" not in text, text  # not the build-log lines
