"""Which driver of the tables lookup a caller gets, chosen here so that neither driver's
module knows the other."""

from __future__ import annotations

from diceref.tables.config import TableSettings
from diceref.tables.lookup import SyncTables


def sync_store(settings: TableSettings) -> SyncTables:
    """The store for a synchronous command: without Redis a `HostTables` (no event loop, no
    asyncio imported), with it a `TableStore`, whose `get_sync` runs one."""
    if settings.redis_url is None:
        from diceref.tables.host import HostTables

        return HostTables(settings)
    from diceref.tables.store import TableStore

    return TableStore(settings)
