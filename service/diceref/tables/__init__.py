"""The tables store: precomputed numpy tables from memory, disk, Redis or the solver.

Layering: this package knows nothing of the HTTP API; the API and the CLI use it.
See docs/tables.md for the format, lookup order, locking protocol and settings.

The names below are imported from their modules on first use: `diceref.settings` and the
CLI import modules of this package, and importing the store here would load asyncio into
every command (`diceref.tables.drivers.sync_store` picks a store without one).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diceref.tables.codec import CorruptTable, decode, encode
    from diceref.tables.config import TableSettings
    from diceref.tables.key import TableKey
    from diceref.tables.lookup import Compute, LoadedTable
    from diceref.tables.stats import SOURCES, Source, StoreStats
    from diceref.tables.store import TableStore

_MODULE_OF = {
    "SOURCES": "stats",
    "Compute": "lookup",
    "CorruptTable": "codec",
    "LoadedTable": "lookup",
    "Source": "stats",
    "StoreStats": "stats",
    "TableKey": "key",
    "TableSettings": "config",
    "TableStore": "store",
    "decode": "codec",
    "encode": "codec",
}

__all__ = [
    "SOURCES",
    "Compute",
    "CorruptTable",
    "LoadedTable",
    "Source",
    "StoreStats",
    "TableKey",
    "TableSettings",
    "TableStore",
    "decode",
    "encode",
]


def __getattr__(name: str) -> object:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
