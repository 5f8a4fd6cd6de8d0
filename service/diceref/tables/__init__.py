"""The tables store: precomputed numpy tables from memory, disk, Redis or the solver.

Layering: this package knows nothing of the HTTP API; the API and the CLI use it.
See docs/tables.md for the format, lookup order, locking protocol and settings.
"""

from diceref.tables.codec import CorruptTable, decode, encode
from diceref.tables.config import TableSettings
from diceref.tables.key import TableKey
from diceref.tables.stats import SOURCES, Source, StoreStats
from diceref.tables.store import Compute, LoadedTable, TableStore

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
