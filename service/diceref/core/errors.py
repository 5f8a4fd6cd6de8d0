"""The one error type of the rules layer: input that no legal game can produce.

It carries a JSON-path-like `field`, a human `reason` and a stable `code`; the API turns
it into a 422 problem+json, checkers turn it into a listed problem.  No rule module imports
the API.
"""

from __future__ import annotations


class RuleViolation(ValueError):
    """`code` is the rule broken, stable and machine-readable (`unknown_box`, `box_filled`,
    `throws_exceeded`, ...), so that a client can translate the reason or branch on it."""

    def __init__(self, field: str, reason: str, code: str = "rule_violation") -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason
        self.code = code
