"""Table files written or truncated in place while a worker maps them: never served, never
a crash.  The store itself only ever replaces a file whole (a temporary file renamed over
it); these tests do what another tool might (`cp` over a file, a restore, a hand edit)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np

from diceref.core.arrays import FloatArray
from diceref.tables.codec import read_header
from diceref.tables.config import TableSettings
from diceref.tables.disk import DiskCache
from diceref.tables.registry import TableRegistry
from diceref.tables.spec import TableSpec
from diceref.tables.store import TableStore
from helpers import registry_table

N = 4096  # floats: 32 KB, eight pages
SPEC = TableSpec("value", "game", "c0ffee", "t", (N,), lambda _: np.full(N, 30.0))


async def served(registry: TableRegistry) -> FloatArray:
    return await registry_table(registry, SPEC)


def rewrite_in_place(path: Path, value: float) -> None:
    """Write `value` over every element of the file's payload, in place (same inode).  The
    file is read-only: made writable first, as whoever does this must (root need not)."""
    offset = read_header(SPEC.key, path.read_bytes()).payload_offset
    time.sleep(0.05)  # past the file system's timestamp granularity (a few ms)
    path.chmod(0o600)
    with path.open("r+b") as file:
        file.seek(offset)
        file.write(np.full(N, value).tobytes())


def test_a_file_written_in_place_is_not_served_and_counts_as_corrupt(tmp_path: Path) -> None:
    """A probe wrote 1000.0 over a mapped table's file: `/holds` answered from the new
    bytes (1030.0) and the corrupt counter stayed 0.  Now the change is seen at the next
    read, the table is loaded again, the file is found corrupt (counted, deleted) and the
    table solved anew."""

    async def run() -> None:
        store = TableStore(TableSettings(cache_dir=tmp_path))
        registry = TableRegistry(store, [SPEC])
        await registry.start(())
        try:
            registry.request("game")
            table = await served(registry)
            assert table[0] == 30.0 and registry.states[SPEC.key].source == "computed"
            path = store.disk.path(SPEC.key)
            assert registry.table(SPEC) is not None  # still served while unchanged
            rewrite_in_place(path, 1000.0)
            assert registry.table(SPEC) is None  # not served from the changed mapping
            again = await served(registry)
            assert float(again.max()) == 30.0
            assert store.stats().corrupt["disk"] == 1
            assert registry.states[SPEC.key].source == "computed"
            assert float(store.disk.load(SPEC.key, (N,)).max()) == 30.0  # written anew
        finally:
            await registry.stop()

    asyncio.run(run())


def test_files_are_written_read_only_and_replaced_whole(tmp_path: Path) -> None:
    """A table file is read-only from the start, and a new one takes its place as another
    inode: the mapping of the old one never sees the new bytes."""
    from diceref.tables.codec import encode

    disk = DiskCache(tmp_path)
    old = disk.save(SPEC.key, encode(SPEC.key, np.full(N, 1.0)))
    path = disk.path(SPEC.key)
    assert path.stat().st_mode & 0o777 == 0o400
    inode = path.stat().st_ino
    new = disk.save(SPEC.key, encode(SPEC.key, np.full(N, 2.0)))
    assert path.stat().st_ino != inode
    assert (float(old[0]), float(new[0])) == (1.0, 2.0)
    assert not disk.changed(SPEC.key)


TRUNCATE = textwrap.dedent(
    """
    import asyncio, json, os, sys
    from pathlib import Path
    sys.path.insert(0, sys.argv[2])
    from test_changed_in_place import SPEC, served
    from diceref.tables.config import TableSettings
    from diceref.tables.registry import TableRegistry
    from diceref.tables.store import TableStore

    async def run():
        store = TableStore(TableSettings(cache_dir=Path(sys.argv[1])))
        registry = TableRegistry(store, [SPEC])
        await registry.start(())
        try:
            registry.request("game")
            await served(registry)
            path = store.disk.path(SPEC.key)
            path.chmod(0o600)
            os.truncate(path, path.stat().st_size // 2)
            gone = registry.table(SPEC)
            total = None if gone is None else float(gone.sum())  # past the end: SIGBUS
            again = await served(registry)
            return {"served": total, "again": float(again.sum()),
                    "corrupt": store.stats().corrupt["disk"]}
        finally:
            await registry.stop()

    print(json.dumps(asyncio.run(run())))
    """
)


def test_a_file_truncated_in_place_is_a_load_failure_not_a_crash(tmp_path: Path) -> None:
    """A probe truncated a mapped table's file: the next read of the table killed the
    worker (SIGBUS).  Now the truncation is seen before the read: the table is loaded
    again, the short file is corrupt (counted, deleted), and the table solved anew."""
    done = subprocess.run(
        [sys.executable, "-c", TRUNCATE, str(tmp_path), str(Path(__file__).parent)],
        capture_output=True,
        text=True,
        timeout=120,
        env=os.environ | {"PYTHONPATH": str(Path(__file__).parents[1])},
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    answer = json.loads(done.stdout.splitlines()[-1])
    assert answer == {"served": None, "again": 30.0 * N, "corrupt": 1}, answer
