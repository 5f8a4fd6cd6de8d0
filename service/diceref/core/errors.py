"""The one error type of the rules layer: input that no legal game can produce.

It carries a JSON-path-like `field` and a human `reason`; the API turns it into a 422
problem+json, checkers turn it into a listed problem.  No rule module imports the API.
"""

from __future__ import annotations


class RuleViolation(ValueError):
    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason
