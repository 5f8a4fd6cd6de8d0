"""Structured logs (one JSON object per line) and configuration from the environment."""

from __future__ import annotations

import json
import logging
import logging.config
import re
from pathlib import Path

import pytest

from diceref.logs import JsonFormatter, ServiceHandler, configure_logging, granian_log_config
from diceref.settings import Settings


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
    root = Path(__file__).parent.parent
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
