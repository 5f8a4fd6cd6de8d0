"""The tables store: precomputed numpy tables from memory, disk, Redis or the solver.

Layering: this package knows nothing of the HTTP API; the API and the CLI use it.
"""

from diceref.tables.codec import CorruptTable, decode, encode
from diceref.tables.config import TableSettings
from diceref.tables.key import TableKey

__all__ = ["CorruptTable", "TableKey", "TableSettings", "decode", "encode"]
