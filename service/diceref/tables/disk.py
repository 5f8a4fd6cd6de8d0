"""The local disk cache: one file per table, memory-mapped read-only when loaded.

Memory-mapping lets the workers of a host share one copy of a table in the page cache.  That
is safe because a table file is never modified in place: it is written to a temporary file
(read-only), fsynced and renamed over the final name.  A file something else writes or
truncates in place is caught: verified when mapped (size, checksum), and `changed` when its
size or modification time has moved since.  `HostLock` lets the workers of a host compute a
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
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from diceref.core.arrays import FloatArray
from diceref.tables.codec import CorruptTable, Shape, decode
from diceref.tables.key import TableKey

log = logging.getLogger(__name__)

SUFFIX = ".dtbl"
TRIM_LOCK = "trim.lock"  # not a table's: a table's lock is named by its key id, which has "-v"
# A temporary table file this old has lost its writer (writing one takes well under a second).
STALE_TEMPORARY_SECONDS = 3600.0

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no host lock, each worker computes
    fcntl = None  # type: ignore[assignment]


class HostLock:
    """One table's compute lock among the processes of this host: `flock` on a lock file.

    The kernel drops the lock when its holder exits, however it exits, so a crashed worker
    never blocks the others.  The holder deletes the lock file as it lets go (a flood of
    house rules would otherwise leave two files per ruleset).  That cannot split the lock:
    a taker checks, once its `flock` succeeds, that the file it locked is still the one at
    the path; a file deleted between its open and its lock is one nobody else will ever
    lock again, so it lets that one go and opens the path anew.
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
        return self._acquire(blocking=False)

    def acquire(self) -> None:
        """Take the lock, waiting for its holder to let go.  OSError: cannot lock here."""
        self._acquire(blocking=True)

    def _acquire(self, blocking: bool) -> bool:
        if fcntl is None:
            return True
        while True:
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX if blocking else fcntl.LOCK_EX | fcntl.LOCK_NB)
                if self._is_current(fd):
                    self._fd = fd
                    return True
            except BlockingIOError:
                os.close(fd)
                return False
            except BaseException:
                os.close(fd)
                raise
            os.close(fd)  # its holder deleted it as we opened it: take the path's new file

    def _is_current(self, fd: int) -> bool:
        try:
            now = os.stat(self.path)
        except FileNotFoundError:
            return False
        opened = os.fstat(fd)
        return (now.st_dev, now.st_ino) == (opened.st_dev, opened.st_ino)

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
            with contextlib.suppress(OSError):
                os.unlink(self.path)  # still locked: nobody else can have replaced it
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


@dataclass(frozen=True)
class _Mapped:
    """The file a table was mapped from, as it was when its contents were verified."""

    path: Path
    device: int
    inode: int
    size: int
    modified_ns: int

    @classmethod
    def of(cls, path: Path, info: os.stat_result) -> _Mapped:
        return cls(path, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


class DiskCache:
    """Table files, verified when mapped (`codec.decode`: size and checksum) and watched
    afterwards: `changed` tells whether a mapped file was written or truncated in place
    since (its inode's size or modification time moved), which this code never does."""

    def __init__(self, cache_dir: Path, fallback: Path | None = None) -> None:
        self.directory = Path(cache_dir) / "tables"
        self.fallback = fallback_directory(Path(cache_dir)) if fallback is None else fallback
        self._mapped: dict[TableKey, _Mapped] = {}

    def changed(self, key: TableKey) -> bool:
        """Whether the file `key`'s table was mapped from has been written or truncated in
        place since it was verified: its mapping then shows what was written (or faults
        past the new end), so the table must not be served from it any more.  A file
        deleted or replaced (a new inode at the path) leaves the mapping intact: False.
        One `stat`, cheap enough for every request that reads a table."""
        mapped = self._mapped.get(key)
        if mapped is None:
            return False
        try:
            now = os.stat(mapped.path)
        except OSError:
            return False
        if (now.st_dev, now.st_ino) != (mapped.device, mapped.inode):
            return False
        return (now.st_size, now.st_mtime_ns) != (mapped.size, mapped.modified_ns)

    def forget(self, key: TableKey) -> None:
        """Stop watching the file of a table no longer served from its mapping."""
        self._mapped.pop(key, None)

    def path(self, key: TableKey) -> Path:
        return self.directory / f"{key.id}{SUFFIX}"

    def touch(self, key: TableKey) -> None:
        """Mark the file used now: its access time, which the on-demand disk bound trims by
        (oldest first).  The modification time is kept: it tells a file changed in place."""
        path = self.path(key)
        with contextlib.suppress(OSError):
            os.utime(path, ns=(time.time_ns(), os.stat(path).st_mtime_ns))

    def lock(self, key: TableKey) -> HostLock:
        return self._lock(f"{key.id}.lock")

    def _lock(self, name: str) -> HostLock:
        return HostLock(self.directory.parent / "locks" / name, self.fallback / "locks" / name)

    def trim(self, bound: int, keep: Collection[TableKey]) -> int:
        """Delete table files, least recently used first, until those not in `keep` (the
        built-in tables, never trimmed) hold at most `bound` bytes; returns how many.

        What is on disk decides, in the cache directory and the fallback one: the files of
        every worker of the host and of earlier runs, whether or not this process still
        knows their keys.  The workers trim under one lock, so that two never count the
        same files at once.  Temporary files of writers that died, and lock files nobody
        holds (their holder was killed), go too.  A trimmed file that a worker still maps
        stays readable there until it lets go of it."""
        lock = self._lock(TRIM_LOCK)
        try:
            lock.acquire()
        except OSError as exc:
            log.warning("cannot take the trim lock (%s); trimming without it", exc)
        try:
            removed = self._trim(bound, {self.path(key).name for key in keep})
            self._sweep_locks(skip=lock.path)
            return removed
        finally:
            lock.release()

    def _directories(self) -> tuple[Path, ...]:
        return (self.directory, self.fallback / "tables")

    def _trim(self, bound: int, keep: set[str]) -> int:
        files: list[tuple[int, int, str, str]] = []
        stale = time.time() - STALE_TEMPORARY_SECONDS
        for directory in self._directories():
            try:
                entries = list(os.scandir(directory))
            except OSError:
                continue
            for entry in entries:
                with contextlib.suppress(OSError):
                    info = entry.stat(follow_symlinks=False)
                    if not stat.S_ISREG(info.st_mode):
                        continue
                    if entry.name.startswith(".") and entry.name.endswith(".tmp"):
                        if info.st_mtime < stale:  # its writer died mid-write
                            os.unlink(entry.path)
                    elif entry.name.endswith(SUFFIX) and entry.name not in keep:
                        used = max(info.st_atime_ns, info.st_mtime_ns)
                        files.append((used, info.st_size, entry.name, entry.path))
        # oldest first; files used within the clock's resolution tie on the time (and then
        # the size), so the name decides
        files.sort()
        total = sum(size for _, size, _, _ in files)
        removed = 0
        for _, size, name, path in files:
            if total <= bound:
                break
            with contextlib.suppress(OSError):
                os.unlink(path)
                total -= size
                removed += 1
                log.info("trimmed on-demand table %s from the disk cache", name)
        return removed

    def _sweep_locks(self, skip: Path) -> None:
        """Delete the lock files nobody holds: a holder that was killed left its own."""
        for directory in (self.directory.parent / "locks", self.fallback / "locks"):
            with contextlib.suppress(OSError):
                for entry in os.scandir(directory):
                    path = Path(entry.path)
                    if entry.name.endswith(".lock") and path != skip:
                        with contextlib.suppress(OSError):
                            lock = HostLock(path)
                            if lock.try_acquire():
                                lock.release()

    def load(
        self, key: TableKey, shape: Shape | None = None, dtype: str | None = None
    ) -> FloatArray | None:
        """The verified table, or None if absent (from the cache directory, else from the
        fallback directory).

        A corrupt file is deleted (so the next load recomputes it) and raises CorruptTable
        for the caller to count; other OS errors propagate.
        """
        found = self._load(self.path(key), key, shape, dtype)
        if found is None:
            fallback = self.fallback / "tables" / self.path(key).name
            with contextlib.suppress(FileNotFoundError, NotADirectoryError):
                if stat.S_ISREG(os.lstat(fallback).st_mode):
                    found = self._load(fallback, key, shape, dtype)
        return found

    def _load(
        self, path: Path, key: TableKey, shape: Shape | None, dtype: str | None
    ) -> FloatArray | None:
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
            array = decode(key, mapped, shape, dtype)
        except CorruptTable:
            with contextlib.suppress(BufferError):
                mapped.close()
            self._discard(path, opened)
            raise
        # as opened: a change made after that moves its size or time, verified or not
        self._mapped[key] = _Mapped.of(path, opened)
        return array

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
        final = directory / self.path(key).name
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(blob)
                file.flush()
                # Read-only: a tool that would write over it in place (`cp`) is refused
                # (unless run by root) instead of changing what every worker maps.
                os.fchmod(file.fileno(), 0o400)
                os.fsync(file.fileno())
                written = os.fstat(file.fileno())
                # Map before the rename: the mapping is of exactly the inode we wrote.
                mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
            os.replace(tmp, final)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        self._fsync_directory(directory)
        array = decode(key, mapped)
        self._mapped[key] = _Mapped.of(final, written)
        return array

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
