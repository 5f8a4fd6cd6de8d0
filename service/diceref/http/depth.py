"""The nesting limit of a request body, checked on the raw bytes before it is decoded.

A `rules` or `ruleset` value is free-form JSON until the rules read it, and decoding,
copying or hashing a document a thousand levels deep recurses past the interpreter's limit
(a `RecursionError`, a 500).  No document the service takes nests deeper than a few levels
(the deepest published example: 8), so a body nested deeper than `MAX_DEPTH` arrays and
objects is refused with a 400 naming the limit, before any of that work.
"""

from __future__ import annotations

import re

from diceref.http.problems import FieldError, Problem

MAX_DEPTH = 32
"""The most arrays and objects a request body may nest, one inside the other."""

# A JSON string (skipped: brackets inside it do not nest), or one bracket.
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_OPENING = frozenset(b"[{")


def too_deep(body: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether `body` nests more than `limit` arrays and objects.  A body with at most
    `limit` opening brackets in all cannot (two counts in C: the usual request stops there);
    any other is scanned once."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return False
    depth = 0
    for token in _TOKENS.finditer(body):
        first = token.group()[0]
        if first in _OPENING:
            depth += 1
            if depth > limit:
                return True
        elif first != 0x22:  # a closing bracket (a string opens with '"')
            depth -= 1
    return False


def check_depth(body: bytes) -> None:
    """Refuse a body nested deeper than `MAX_DEPTH` with a 400 naming the limit."""
    if too_deep(body):
        reason = (
            f"nested deeper than {MAX_DEPTH} levels of arrays and objects, the most a request "
            "body may nest"
        )
        raise Problem(
            400,
            "invalid-request",
            "Invalid request",
            f"body: {reason}",
            [FieldError("body", reason, "too_deep")],
        )
