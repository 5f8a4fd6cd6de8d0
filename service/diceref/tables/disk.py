"""The local disk cache: one file per table, memory-mapped read-only when loaded.

Memory-mapping lets every worker process on a host share one copy of a table in the page
cache instead of each holding a private one.  That is only safe because a table file is
never modified in place: it is written to a temporary file, fsynced and renamed over the
final name, so a reader sees either the old complete file or the new complete file, and a
mapping of a replaced file keeps the old inode alive.

`HostLock` lets the workers of one host (which share this directory) compute a missing
table once between them when there is no Redis to coordinate them.
"""

from __future__ import annotations

import contextlib
import logging
import mmap
import os
import tempfile
from pathlib import Path

from diceref.core.arrays import FloatArray
from diceref.tables.codec import CorruptTable, decode
from diceref.tables.key import TableKey

log = logging.getLogger(__name__)

SUFFIX = ".dtbl"

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no host lock, each worker computes
    fcntl = None  # type: ignore[assignment]


class HostLock:
    """One table's compute lock among the processes of this host: `flock` on a lock file.

    The kernel drops the lock when its holder exits, however it exits, so a crashed worker
    never blocks the others.  The lock files live apart from the tables and are left in
    place (a few empty files); deleting a lock file that another process holds or is about
    to open would split the lock in two.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def try_acquire(self) -> bool:
        """Take the lock if nobody holds it; never blocks.  OSError: cannot lock here."""
        if fcntl is None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing the only descriptor releases the flock


class DiskCache:
    def __init__(self, cache_dir: Path) -> None:
        self.directory = Path(cache_dir) / "tables"

    def path(self, key: TableKey) -> Path:
        return self.directory / f"{key.id}{SUFFIX}"

    def lock(self, key: TableKey) -> HostLock:
        return HostLock(self.directory.parent / "locks" / f"{key.id}.lock")

    def load(self, key: TableKey, shape: tuple[int, ...] | None = None) -> FloatArray | None:
        """The verified table, or None if absent.

        A corrupt file is deleted (so the next load recomputes it) and raises CorruptTable
        for the caller to count; other OS errors propagate.
        """
        path = self.path(key)
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            return None
        try:
            opened = os.fstat(fd)
            try:
                mapped = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
            except ValueError as exc:  # an empty file cannot be mapped
                raise CorruptTable(f"{key}: empty file") from exc
        except CorruptTable:
            self._discard(path, opened)
            raise
        finally:
            os.close(fd)  # the mapping stays valid without the descriptor
        try:
            return decode(key, mapped, shape)
        except CorruptTable:
            with contextlib.suppress(BufferError):
                mapped.close()
            self._discard(path, opened)
            raise

    def save(self, key: TableKey, blob: bytes) -> FloatArray:
        """Write atomically and return the table mapped from the file just written."""
        self.directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=f".{key.id}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(blob)
                file.flush()
                os.fsync(file.fileno())
                # Map before the rename: the mapping is of exactly the inode we wrote.
                mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
            os.replace(tmp, self.path(key))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        self._fsync_directory()
        return decode(key, mapped)

    def _fsync_directory(self) -> None:
        """Make the rename itself durable (a crash could otherwise forget it)."""
        try:
            dir_fd = os.open(self.directory, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(dir_fd)
        except OSError:
            pass  # some file systems refuse fsync on a directory; the data is safe anyway
        finally:
            os.close(dir_fd)

    @staticmethod
    def _discard(path: Path, opened: os.stat_result) -> None:
        """Delete a corrupt file unless another process already replaced it with a new one."""
        try:
            now = os.stat(path)
            if (now.st_dev, now.st_ino) == (opened.st_dev, opened.st_ino):
                os.unlink(path)
                log.warning("deleted corrupt table file %s", path)
        except OSError:
            pass
