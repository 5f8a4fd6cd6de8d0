"""The table format: exact round trips, and no damaged or foreign blob ever decodes."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from diceref.tables import CorruptTable, TableKey, decode, encode
from diceref.tables.codec import ALIGN, MAGIC, read_header

KEY = TableKey("value", "dice-poker", "0123abcd", "1")
OTHER = TableKey("value", "dice-poker", "0123abcd", "2")


def sample() -> np.ndarray:
    return np.array([0.0, -0.0, 1.5, np.nan, np.inf, -np.inf, 1e-300, 245.87])


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.tobytes() == np.ascontiguousarray(b, dtype="<f8").tobytes()


def test_round_trip_is_bit_exact_including_nan_and_signed_zero() -> None:
    array = sample()
    out = decode(KEY, encode(KEY, array))
    assert same_bits(out, array)
    assert out.dtype == np.dtype("<f8")


def test_decoded_array_is_read_only() -> None:
    out = decode(KEY, encode(KEY, sample()))
    with pytest.raises(ValueError):
        out[0] = 1.0


def test_payload_is_64_byte_aligned_and_blob_has_no_slack() -> None:
    blob = encode(KEY, sample())
    header = read_header(KEY, blob)
    assert header.payload_offset % ALIGN == 0
    assert len(blob) == header.payload_offset + 8 * sample().size
    assert blob.startswith(MAGIC)


@settings(max_examples=60, deadline=None)
@given(
    hnp.arrays(
        dtype=st.sampled_from([np.float64, np.float32, np.int64, np.dtype(">f8")]),
        shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=7),
    )
)
def test_round_trip_any_shape(array: np.ndarray) -> None:
    out = decode(KEY, encode(KEY, array))
    assert same_bits(out, array.astype("<f8"))


def test_every_single_bit_flip_is_detected() -> None:
    blob = encode(KEY, sample())
    for i in range(len(blob)):
        for bit in range(8):
            damaged = bytearray(blob)
            damaged[i] ^= 1 << bit
            with pytest.raises(CorruptTable):
                decode(KEY, bytes(damaged))


def test_flipped_payload_byte_is_a_checksum_error() -> None:
    blob = bytearray(encode(KEY, sample()))
    blob[-3] ^= 0x40
    with pytest.raises(CorruptTable, match="checksum"):
        decode(KEY, bytes(blob))


def test_wrong_key_is_rejected() -> None:
    with pytest.raises(CorruptTable, match="holds table"):
        decode(OTHER, encode(KEY, sample()))


@pytest.mark.parametrize("keep", [0, 5, 16, 40, -1, -8])
def test_truncated_blob_is_rejected(keep: int) -> None:
    blob = encode(KEY, sample())
    with pytest.raises(CorruptTable):
        decode(KEY, blob[:keep])


def test_trailing_bytes_are_rejected() -> None:
    with pytest.raises(CorruptTable, match="truncated"):
        decode(KEY, encode(KEY, sample()) + b"\0" * 8)


def test_unexpected_shape_is_rejected() -> None:
    blob = encode(KEY, sample().reshape(2, 4))
    assert decode(KEY, blob, (2, 4)).shape == (2, 4)
    with pytest.raises(CorruptTable, match="shape"):
        decode(KEY, blob, (8,))


def _forged(fields: dict[str, object], payload: bytes, version: int = 1) -> bytes:
    """A blob with a self-consistent layout but whatever header we like."""
    header = json.dumps(fields).encode()
    head = struct.pack("<8sII", MAGIC, version, len(header)) + header
    return head + b"\0" * (-len(head) % ALIGN) + payload


def _fields(**changes: object) -> dict[str, object]:
    real = read_header(KEY, encode(KEY, sample()))
    fields: dict[str, object] = {
        "key": KEY.id,
        "dtype": "<f8",
        "shape": [8],
        "payload_bytes": 64,
        "sha256": real.sha256,
    }
    fields.update(changes)
    return fields


def test_forged_header_round_trips_when_honest() -> None:
    assert same_bits(decode(KEY, _forged(_fields(), sample().tobytes())), sample())


@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ({"shape": [9]}, "do not fit"),  # header shape disagrees with its payload size
        ({"shape": [9], "payload_bytes": 72}, "truncated"),  # and with the blob
        ({"dtype": "<i8"}, "dtype"),  # no table is stored as integers
        ({"dtype": ["<f8"]}, "dtype"),
        ({"dtype": "<f4"}, "do not fit"),  # a float32 table of 8 values is 32 bytes
        ({"shape": "8"}, "malformed"),
        ({"shape": [True] * 1, "payload_bytes": 8}, "malformed"),
        ({"sha256": "0" * 64}, "checksum"),
    ],
)
def test_forged_headers_are_rejected(changes: dict[str, object], match: str) -> None:
    with pytest.raises(CorruptTable, match=match):
        decode(KEY, _forged(_fields(**changes), sample().tobytes()))


def test_missing_header_field_and_bad_json_are_rejected() -> None:
    fields = _fields()
    del fields["sha256"]
    with pytest.raises(CorruptTable, match="unreadable"):
        decode(KEY, _forged(fields, sample().tobytes()))
    blob = bytearray(encode(KEY, sample()))
    blob[16] = ord("[")
    with pytest.raises(CorruptTable, match="unreadable"):
        decode(KEY, bytes(blob))


def test_other_format_version_and_magic_are_rejected() -> None:
    with pytest.raises(CorruptTable, match="version"):
        decode(KEY, _forged(_fields(), sample().tobytes(), version=2))
    with pytest.raises(CorruptTable, match="magic"):
        decode(KEY, b"\x93NUMPY" + encode(KEY, sample())[6:])


@pytest.mark.parametrize(
    "parts",
    [
        ("value", "dice-poker", "abc", "1"),
        ("value", "a_b", "0f", "2.1"),
    ],
)
def test_key_id_is_safe_and_stable(parts: tuple[str, str, str, str]) -> None:
    key = TableKey(*parts)
    assert key.id == f"{parts[0]}-{parts[1]}-{parts[2]}-v{parts[3]}"
    assert "/" not in key.id and ":" not in key.id


@pytest.mark.parametrize(
    "parts",
    [
        ("val-ue", "yahtzee", "abc", "1"),  # a dash in kind would make ids ambiguous
        ("value", "../etc", "abc", "1"),
        ("value", "Yahtzee", "abc", "1"),  # case-insensitive file systems
        ("value", "yahtzee", "ab-c", "1"),
        ("value", "yahtzee", "abc", ""),
        ("value", "-yahtzee", "abc", "1"),
    ],
)
def test_unsafe_key_parts_are_refused(parts: tuple[str, str, str, str]) -> None:
    with pytest.raises(ValueError):
        TableKey(*parts)


def test_a_float32_table_round_trips_as_float32_and_its_dtype_is_checked() -> None:
    array = np.array([0.0, 0.25, 1.0, np.nan, 3e38], dtype=np.float32)
    blob = encode(KEY, array, "<f4")
    header = read_header(KEY, blob)
    assert header.dtype == "<f4" and header.payload_bytes == 4 * array.size
    out = decode(KEY, blob, (None,), "<f4")
    assert out.dtype == np.float32 and out.tobytes() == array.tobytes()
    with pytest.raises(CorruptTable, match="dtype"):
        decode(KEY, blob, dtype="<f8")  # a table of the wrong dtype is never served
    with pytest.raises(CorruptTable, match="dtype"):
        decode(KEY, encode(KEY, array), dtype="<f4")


def test_a_shape_with_a_free_axis_checks_the_other_axes_only() -> None:
    blob = encode(KEY, np.zeros((3, 4)))
    assert decode(KEY, blob, (None, 4)).shape == (3, 4)
    assert decode(KEY, blob, (3, None)).shape == (3, 4)
    with pytest.raises(CorruptTable, match="shape"):
        decode(KEY, blob, (None,))
    with pytest.raises(CorruptTable, match="shape"):
        decode(KEY, blob, (None, 5))


def test_an_old_float64_file_still_reads_with_the_default_dtype() -> None:
    """Files written before float32 tables existed name "<f8", which stays the default."""
    blob = encode(KEY, sample())
    assert b'"dtype":"<f8"' in blob[:200]
    assert same_bits(decode(KEY, blob, (8,)), sample())
