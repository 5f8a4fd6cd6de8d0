"""Structured logs: one JSON object per line on stdout, from the service and from granian.

`configure_logging(level, fmt)` sets up the root logger (the app factory and `diceref serve`
call it); `granian_log_config(level, fmt)` is the same setup as a `logging.config` dict for
granian, which configures logging in each worker process before it imports the app.  Both
are idempotent: the handler they install is recognised and replaced, never duplicated.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from contextvars import ContextVar
from typing import Any

# The id of the request being handled (set by `diceref.http.request_id` around each
# request): every log line written while it is set names it as `request_id`.
REQUEST_ID: ContextVar[str | None] = ContextVar("diceref_request_id", default=None)

# Attributes every LogRecord has; anything else on a record came from `extra=` and is logged
# (but for uvicorn's `color_message`, the message again with terminal colour codes).
_STANDARD = frozenset(
    logging.LogRecord("", 0, "", 0, "", None, None).__dict__.keys()
    | {"message", "asctime", "taskName", "color_message"}
)


class JsonFormatter(logging.Formatter):
    """`{"time", "level", "logger", "message", "pid", "request_id" (while a request is
    handled), ...extra fields, "exception"}`."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": _utc(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "pid": record.process,
        }
        request_id = REQUEST_ID.get()
        if request_id is not None:
            entry["request_id"] = request_id
        if record.name == "granian.access" and isinstance(record.args, dict):
            # granian's access log passes its fields as the format arguments
            entry.update(record.args)
        for name, value in record.__dict__.items():
            if name not in _STANDARD and name not in entry:
                entry[name] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def _utc(created: float) -> str:
    seconds = int(created)
    millis = int((created - seconds) * 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{millis:03d}Z"


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"


class ServiceHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """The one handler diceref puts on the root logger (a class of its own to be found again)."""

    def __init__(self) -> None:
        super().__init__(sys.stdout)


def _formatter(fmt: str) -> logging.Formatter:
    return JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT)


def configure_logging(level: str = "INFO", fmt: str = "json") -> None:
    """Root logger at `level`, one stdout handler in `fmt` ("json" or "text")."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if isinstance(handler, ServiceHandler):
            root.removeHandler(handler)
    handler = ServiceHandler()
    handler.setFormatter(_formatter(fmt))
    root.addHandler(handler)
    root.setLevel(level)
    # granian's loggers log through the root handler, in the same format
    for name in ("_granian", "granian.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True


def granian_log_config(level: str = "INFO", fmt: str = "json") -> dict[str, Any]:
    """The same setup for granian's `log_dictconfig` (applied in every worker process)."""
    formatter: dict[str, Any] = (
        {"()": "diceref.logs.JsonFormatter"}
        if fmt == "json"
        else {"()": "logging.Formatter", "fmt": TEXT_FORMAT}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"service": formatter},
        "handlers": {"service": {"()": "diceref.logs.ServiceHandler", "formatter": "service"}},
        "root": {"level": level, "handlers": ["service"]},
        "loggers": {
            "_granian": {"level": level, "handlers": [], "propagate": True},
            "granian.access": {"level": "INFO", "handlers": [], "propagate": True},
        },
    }
