"""The table file format, shared by the disk cache and Redis (docs/tables.md, "Binary format").

A magic, a version and a JSON header (key, dtype, shape, payload length, SHA-256), then the
float64 (or float32) payload on a 64-byte boundary, so that a disk file can be memory-mapped
and viewed as an array in place.  Every header field is checked against the caller's key, the blob's
real length and the payload's real SHA-256: a blob that fails any check raises
`CorruptTable` and is never turned into an array.
"""

from __future__ import annotations

import hashlib
import json
import math
import mmap
import struct
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import FloatArray
from diceref.tables.key import TableKey

Blob = bytes | bytearray | memoryview | mmap.mmap

MAGIC = b"DICETBL\0"
FORMAT_VERSION = 1
DTYPE = "<f8"  # what a table is unless its spec says otherwise
DTYPES = {"<f8": 8, "<f4": 4}  # the dtypes a table may have, and their sizes in bytes
ALIGN = 64
MAX_HEADER_BYTES = 64 * 1024  # a header is ~200 bytes; anything bigger is garbage
_PREFIX = struct.Struct("<8sII")


# A table's expected shape: None for an axis whose length only the stored header knows
# (a table whose size comes out of its solve).
Shape = tuple[int | None, ...]


def fits(found: tuple[int, ...], shape: Shape) -> bool:
    """Whether an array's shape is the expected one (any length on a None axis)."""
    return len(found) == len(shape) and all(
        s is None or s == f for f, s in zip(found, shape, strict=True)
    )


def stored_dtype(array: npt.ArrayLike) -> str:
    """The dtype a table held in memory is stored with (it has its spec's: float32 stays
    float32, anything else is float64)."""
    return "<f4" if np.asarray(array).dtype == np.float32 else DTYPE


class CorruptTable(ValueError):
    """A stored table that must not be served: wrong magic, key, shape, size or checksum."""


@dataclass(frozen=True)
class Header:
    key_id: str
    dtype: str
    shape: tuple[int, ...]
    payload_offset: int
    payload_bytes: int
    sha256: str


def _aligned(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


def encode(key: TableKey, array: npt.ArrayLike, dtype: str = DTYPE) -> bytes:
    """The stored form of `array` under `key` (a copy as `dtype`, one of `DTYPES`, C order,
    little-endian)."""
    if dtype not in DTYPES:
        raise ValueError(f"a table is stored as one of {', '.join(DTYPES)}, not {dtype!r}")
    data = np.asarray(array, dtype=dtype, order="C")
    payload = data.tobytes()  # one copy of the table: negligible next to a solve
    header = json.dumps(
        {
            "key": key.id,
            "dtype": dtype,
            "shape": list(data.shape),
            "payload_bytes": len(payload),
            "sha256": hashlib.sha256(payload).hexdigest(),
        },
        sort_keys=True,
        separators=(",", ":"),
    ).encode()
    head = _PREFIX.pack(MAGIC, FORMAT_VERSION, len(header)) + header
    padding = b"\0" * (_aligned(len(head)) - len(head))
    return b"".join((head, padding, payload))


def read_header(
    key: TableKey, blob: Blob, shape: Shape | None = None, dtype: str | None = None
) -> Header:
    """Check everything but the checksum: cheap, and enough to reject a wrong table early.
    `shape` and `dtype`, when given, are what the table must have."""
    with memoryview(blob) as view:
        view = view.cast("B")
        if view.nbytes < _PREFIX.size:
            raise CorruptTable(f"{key}: {view.nbytes} bytes is too short for a table")
        magic, version, header_len = _PREFIX.unpack_from(view)
        if magic != MAGIC:
            raise CorruptTable(f"{key}: not a diceref table (magic {bytes(magic)!r})")
        if version != FORMAT_VERSION:
            raise CorruptTable(f"{key}: format version {version}, expected {FORMAT_VERSION}")
        if header_len > MAX_HEADER_BYTES or _PREFIX.size + header_len > view.nbytes:
            raise CorruptTable(f"{key}: header length {header_len} does not fit the blob")
        raw = bytes(view[_PREFIX.size : _PREFIX.size + header_len])
        offset = _aligned(_PREFIX.size + header_len)
        padding = bytes(view[_PREFIX.size + header_len : offset])
        total = view.nbytes
    if padding.strip(b"\0"):
        raise CorruptTable(f"{key}: damaged padding")  # so that no flipped byte goes unseen
    try:
        fields: Any = json.loads(raw)
        key_id, found_dtype, shape_list = fields["key"], fields["dtype"], fields["shape"]
        payload_bytes, digest = fields["payload_bytes"], fields["sha256"]
    except (ValueError, TypeError, KeyError) as exc:
        raise CorruptTable(f"{key}: unreadable header ({exc})") from exc
    if key_id != key.id:
        raise CorruptTable(f"{key}: blob holds table {key_id!r}")
    if (
        not isinstance(found_dtype, str)
        or found_dtype not in DTYPES
        or (dtype is not None and found_dtype != dtype)
    ):
        expected = dtype or " or ".join(map(repr, DTYPES))
        raise CorruptTable(f"{key}: dtype {found_dtype!r}, expected {expected}")
    if not (
        isinstance(shape_list, list)
        and all(type(n) is int and n >= 0 for n in shape_list)
        and type(payload_bytes) is int
        and isinstance(digest, str)
    ):
        raise CorruptTable(f"{key}: malformed header {fields!r}")
    found = tuple(shape_list)
    if shape is not None and not fits(found, shape):
        raise CorruptTable(f"{key}: shape {found}, expected {tuple(shape)}")
    if payload_bytes != math.prod(found) * DTYPES[found_dtype]:
        raise CorruptTable(f"{key}: {payload_bytes} payload bytes do not fit shape {found}")
    if offset + payload_bytes != total:
        raise CorruptTable(
            f"{key}: blob is {total} bytes, header says {offset + payload_bytes} (truncated?)"
        )
    return Header(key_id, found_dtype, found, offset, payload_bytes, digest)


def decode(
    key: TableKey, blob: Blob, shape: Shape | None = None, dtype: str | None = None
) -> FloatArray:
    """A read-only array viewing `blob` in place (no copy), after every check has passed
    (float64, or float32 as the header says: typed FloatArray either way).

    `blob` may be bytes or a read-only mmap: the array keeps it alive.
    """
    header = read_header(key, blob, shape, dtype)
    with memoryview(blob) as view:
        payload = view.cast("B")[header.payload_offset :]
        digest = hashlib.sha256(payload).hexdigest()
        payload.release()
    if digest != header.sha256:
        raise CorruptTable(f"{key}: checksum mismatch (payload damaged)")
    size = DTYPES[header.dtype]
    array: FloatArray = np.frombuffer(
        blob, dtype=header.dtype, count=header.payload_bytes // size, offset=header.payload_offset
    ).reshape(header.shape)
    array.flags.writeable = False
    return array
