"""A list of dice of the wrong length, refused by the request document, in the domain's
words: `expected 5 dice, got 4` (code `wrong_dice_count`), as the rules say it, rather than
msgspec's `Expected `array` of length >= 5` (a bare `too_few`).

The bounds stay in the types (`Meta(min_length=..., max_length=...)`), so they are enforced
on decode and published in the OpenAPI document; only the error is reworded.  A list is a
list of dice when its items are the die type (integers 1 to 6).
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
import msgspec.inspect as mi

from diceref.core.dice import wrong_dice_count

_LENGTH = re.compile(r"^Expected `array` of length [<>]= \d+ - at `\$(?P<path>[^`]*)`$")
_STEP = re.compile(r"\.(?P<name>[^.\[]+)|\[(?P<index>\d+)\]|\[\.\.\.\]")


def dice_count_error(message: str, body: bytes, data_type: Any) -> tuple[str, str] | None:
    """(field, reason) when `message` is msgspec's refusal of a list of dice's length in
    `body`, a request of `data_type`; None otherwise (also for a body that is not whole
    JSON: the typed decoder may refuse a value before it reaches the truncation)."""
    match = _LENGTH.match(message)
    if match is None:
        return None
    try:
        document = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return None
    path = match.group("path")
    node: mi.Type | None = mi.type_info(data_type)
    value = document
    for step in _STEP.finditer(path):
        node = _unwrapped(node)
        name, index = step.group("name"), step.group("index")
        if name is not None and isinstance(node, mi.StructType) and isinstance(value, dict):
            node = next((f.type for f in node.fields if f.encode_name == name), None)
            value = value.get(name)
        elif index is not None and isinstance(node, mi.ListType) and isinstance(value, list):
            node, value = node.item_type, value[int(index)]
        else:
            return None
    node = _unwrapped(node)
    if not (isinstance(node, mi.ListType) and _is_die(node.item_type) and isinstance(value, list)):
        return None
    reason = wrong_dice_count(node.min_length, node.max_length, len(value))
    return path.lstrip("."), reason


def _unwrapped(node: mi.Type | None) -> mi.Type | None:
    """The type under its metadata, and the one non-null member of an optional."""
    while True:
        if isinstance(node, mi.Metadata):
            node = node.type
        elif isinstance(node, mi.UnionType):
            members = [t for t in node.types if not isinstance(t, mi.NoneType)]
            if len(members) != 1:
                return node
            node = members[0]
        else:
            return node


def _is_die(node: mi.Type) -> bool:
    die = _unwrapped(node)
    return isinstance(die, mi.IntType) and die.ge == 1 and die.le == 6
