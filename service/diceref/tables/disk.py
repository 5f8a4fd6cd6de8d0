"""The local disk cache: one file per table, memory-mapped read-only when loaded.

Memory-mapping lets the workers of a host share one copy of a table in the page cache.  That
is safe because a table file is never modified in place: it is written to a temporary file,
fsynced and renamed over the final name.  `HostLock` lets the workers of a host compute a
missing table once between them when there is no Redis.  A cache directory the service
cannot write is still read; locks and new tables then go to a private directory under the
system's temporary directory (`fallback_directory`), which the host's workers share alike.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import mmap
import os
import stat
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

    def __init__(self, path: Path, fallback: Path | None = None) -> None:
        self.path = path
        self._fallback = fallback
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def try_acquire(self) -> bool:
        """Take the lock if nobody holds it; never blocks.  OSError: cannot lock here."""
        if fcntl is None:
            return True
        fd = self._open()
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

    def _open(self) -> int:
        """The lock file, opened for writing; the fallback's if the lock file cannot be
        (every worker of the host takes the same one: they fail on the same directory)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            if self._fallback is None:
                raise
        _private_directory(self._fallback.parent)
        self.path = self._fallback
        return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing the only descriptor releases the flock


def fallback_directory(cache_dir: Path) -> Path:
    """Where locks and tables go when `cache_dir` cannot be written: a directory of this
    user's own under the temporary directory, one per cache directory (its path's hash)."""
    digest = hashlib.sha256(str(Path(cache_dir).absolute()).encode()).hexdigest()[:16]
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return Path(tempfile.gettempdir()) / f"diceref-{uid}" / digest


def _private_directory(directory: Path) -> Path:
    """`directory` (under a `diceref-<uid>` directory of the temporary directory), each of
    its levels from that one down made if missing and refused unless it is a real directory
    of this user's, mode 0700: in a shared /tmp another user could otherwise plant tables
    or a symlink there."""
    parts = directory.parts
    top = next(i for i, part in enumerate(parts) if part.startswith("diceref-"))
    Path(*parts[:top]).mkdir(parents=True, exist_ok=True)  # the temporary directory itself
    for level in range(top, len(parts)):
        path = Path(*parts[: level + 1])
        with contextlib.suppress(FileExistsError):
            path.mkdir(mode=0o700)
        info = os.lstat(path)
        if not stat.S_ISDIR(info.st_mode) or (hasattr(os, "getuid") and info.st_uid != os.getuid()):
            raise PermissionError(f"{path} is not a private directory of this user")
    return directory


class DiskCache:
    def __init__(self, cache_dir: Path, fallback: Path | None = None) -> None:
        self.directory = Path(cache_dir) / "tables"
        self.fallback = fallback_directory(Path(cache_dir)) if fallback is None else fallback

    def path(self, key: TableKey) -> Path:
        return self.directory / f"{key.id}{SUFFIX}"

    def touch(self, key: TableKey) -> None:
        """Mark the file used now (the on-demand disk bound trims the oldest first)."""
        with contextlib.suppress(OSError):
            os.utime(self.path(key))

    def lock(self, key: TableKey) -> HostLock:
        name = f"{key.id}.lock"
        return HostLock(self.directory.parent / "locks" / name, self.fallback / "locks" / name)

    def load(self, key: TableKey, shape: tuple[int, ...] | None = None) -> FloatArray | None:
        """The verified table, or None if absent (from the cache directory, else from the
        fallback directory).

        A corrupt file is deleted (so the next load recomputes it) and raises CorruptTable
        for the caller to count; other OS errors propagate.
        """
        found = self._load(self.path(key), key, shape)
        if found is None:
            fallback = self.fallback / "tables" / self.path(key).name
            with contextlib.suppress(FileNotFoundError, NotADirectoryError):
                if stat.S_ISREG(os.lstat(fallback).st_mode):
                    found = self._load(fallback, key, shape)
        return found

    def _load(self, path: Path, key: TableKey, shape: tuple[int, ...] | None) -> FloatArray | None:
        try:
            fd = os.open(path, os.O_RDONLY)
        except (FileNotFoundError, NotADirectoryError):
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
        """Write atomically and return the table mapped from the file just written: in the
        cache directory, or if it cannot be written, in the fallback directory (OSError if
        neither can)."""
        try:
            return self._save(self.directory, key, blob)
        except OSError as exc:
            try:
                directory = _private_directory(self.fallback / "tables")
            except OSError:
                raise exc from None
            log.info(
                "cannot write table %s to %s (%s); writing it to %s",
                key,
                self.directory,
                exc,
                directory,
            )
            return self._save(directory, key, blob)

    def _save(self, directory: Path, key: TableKey, blob: bytes) -> FloatArray:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{key.id}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(blob)
                file.flush()
                os.fsync(file.fileno())
                # Map before the rename: the mapping is of exactly the inode we wrote.
                mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
            os.replace(tmp, directory / self.path(key).name)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        self._fsync_directory(directory)
        return decode(key, mapped)

    @staticmethod
    def _fsync_directory(directory: Path) -> None:
        """Make the rename itself durable (a crash could otherwise forget it)."""
        try:
            dir_fd = os.open(directory, os.O_RDONLY)
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
