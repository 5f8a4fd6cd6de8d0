"""The disk cache: atomic writes, read-only memory-mapped loads, corrupt files removed."""

from __future__ import annotations

import mmap
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from diceref.settings import Settings
from diceref.tables import CorruptTable, TableKey, encode
from diceref.tables.disk import DiskCache, HostLock

KEY = TableKey("value", "yahtzee", "feedbeef", "1")


def table(n: int = 1000, seed: int = 0) -> np.ndarray:
    values = np.random.default_rng(seed).random(n)
    values[::7] = np.nan
    return values


def backing_buffer(array: np.ndarray) -> object:
    base: object = array
    while isinstance(base, np.ndarray | memoryview):
        base = base.base if isinstance(base, np.ndarray) else base.obj
    return base


def test_save_then_load_is_a_read_only_memory_map(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path)
    saved = cache.save(KEY, encode(KEY, table()))
    loaded = cache.load(KEY)
    assert loaded is not None
    np.testing.assert_array_equal(loaded, table())
    for array in (saved, loaded):
        assert isinstance(backing_buffer(array), mmap.mmap)
        assert not array.flags.writeable
        with pytest.raises(ValueError):
            array[0] = 1.0
    assert cache.path(KEY) == tmp_path / "tables" / f"{KEY.id}.dtbl"


def test_missing_file_is_a_miss(tmp_path: Path) -> None:
    assert DiskCache(tmp_path).load(KEY) is None


def test_save_leaves_no_temporary_files(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path)
    cache.save(KEY, encode(KEY, table()))
    cache.save(KEY, encode(KEY, table(seed=1)))
    assert sorted(p.name for p in cache.directory.iterdir()) == [f"{KEY.id}.dtbl"]


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_interrupted_save_keeps_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    cache = DiskCache(tmp_path)
    cache.save(KEY, encode(KEY, table(seed=1)))

    def crash(*args: object) -> None:
        raise OSError("disk pulled out")

    monkeypatch.setattr(os, failing, crash)
    with pytest.raises(OSError, match="pulled"):
        cache.save(KEY, encode(KEY, table(seed=2)))
    monkeypatch.undo()
    loaded = cache.load(KEY)
    assert loaded is not None
    np.testing.assert_array_equal(loaded, table(seed=1))
    assert [p.name for p in cache.directory.iterdir()] == [f"{KEY.id}.dtbl"]


def test_a_mapped_table_survives_its_file_being_replaced(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path)
    cache.save(KEY, encode(KEY, table(seed=1)))
    old = cache.load(KEY)
    cache.save(KEY, encode(KEY, table(seed=2)))
    assert old is not None
    np.testing.assert_array_equal(old, table(seed=1))
    new = cache.load(KEY)
    assert new is not None
    np.testing.assert_array_equal(new, table(seed=2))


def _damage(path: Path, how: str) -> None:
    blob = bytearray(path.read_bytes())
    if how == "flip":
        blob[-100] ^= 0x01
    elif how == "truncate":
        del blob[-8:]
    elif how == "empty":
        blob.clear()
    elif how == "other-key":
        other = TableKey("value", "yahtzee", "feedbeef", "2")
        blob = bytearray(encode(other, table()))
    path.chmod(0o600)  # table files are read-only
    path.write_bytes(bytes(blob))


@pytest.mark.parametrize("how", ["flip", "truncate", "empty", "other-key"])
def test_corrupt_file_is_deleted_and_then_a_miss(tmp_path: Path, how: str) -> None:
    cache = DiskCache(tmp_path)
    cache.save(KEY, encode(KEY, table()))
    _damage(cache.path(KEY), how)
    with pytest.raises(CorruptTable):
        cache.load(KEY)
    assert not cache.path(KEY).exists()
    assert cache.load(KEY) is None


def test_file_of_unexpected_shape_is_corrupt(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path)
    cache.save(KEY, encode(KEY, table(1000)))
    with pytest.raises(CorruptTable, match="shape"):
        cache.load(KEY, (999,))
    assert not cache.path(KEY).exists()


def test_discard_spares_a_file_another_process_just_replaced(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path)
    cache.save(KEY, encode(KEY, table(seed=1)))
    stale = os.stat(cache.path(KEY))
    cache.save(KEY, encode(KEY, table(seed=2)))  # a new inode under the same name
    DiskCache._discard(cache.path(KEY), stale)
    assert cache.path(KEY).exists()


def test_cache_dir_comes_from_the_environment(tmp_path: Path) -> None:
    settings = Settings.from_env({"DICEREF_CACHE_DIR": str(tmp_path)}).tables
    assert settings.cache_dir == tmp_path
    assert settings.redis_url is None
    default = Settings.from_env({}).tables
    assert default.cache_dir.name == "diceref"


HOLDER = """
import sys, time
from pathlib import Path
from diceref.tables.disk import HostLock
lock = HostLock(Path(sys.argv[1]))
assert lock.try_acquire()
print("held", flush=True)
time.sleep(60)
"""


def test_host_lock_is_exclusive_and_dies_with_its_holder(tmp_path: Path) -> None:
    path = DiskCache(tmp_path).lock(KEY).path
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        mine = HostLock(path)
        assert not mine.try_acquire() and not mine.held
        holder.kill()  # no clean-up of any kind: the kernel drops the flock
        holder.wait(10)
        assert mine.try_acquire() and mine.held
        other = HostLock(path)
        assert not other.try_acquire()  # exclusive within one process too
        mine.release()
        assert other.try_acquire()
        other.release()
    finally:
        holder.kill()
        holder.wait(10)
    assert path.parent.name == "locks" and not list(DiskCache(tmp_path).directory.glob("*"))
