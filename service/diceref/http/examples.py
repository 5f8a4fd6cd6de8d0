"""Request and response examples for the operations of the OpenAPI document: the type and
the problem bodies they share.  Each family lists its operations' examples beside its
routes (`games/<family>/api/examples.py`), the shared operations' are in
`http/routes/examples.py`; `all_examples` in `http/openapi.py` collects them.

Each example is a real exchange: `tests/http/test_contract.py` sends every request to the
app (with the solved tables loaded, or none for the 503) and checks that the answer is
exactly the response written here.  An example is chosen small: it documents the shapes,
the tests document the rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from diceref.http.problems import PROBLEM_BASE

Json = Any
# The `X-Request-ID` the examples' requests send (tests/http/test_contract.py), hence the
# `request_id` of every problem example.
EXAMPLE_REQUEST_ID = "7d3f1c2a9b8e4f60a1b2c3d4e5f60718"


@dataclass(frozen=True)
class Example:
    name: str
    summary: str
    status: int
    response: Json
    body: Json = None
    path: dict[str, str] | None = None

    def request_text(self) -> str:
        """How the response was obtained, for the response example's description."""
        if self.body is not None:
            return f"The answer to the request body `{json.dumps(self.body)}`."
        if self.path:
            params = ", ".join(f"{k} = `{v}`" for k, v in self.path.items())
            return f"The answer for {params}."
        return ""


def problem(
    status: int,
    kind: str,
    title: str,
    instance: str,
    errors: list[tuple[str, str, str]],
    **extra: Json,
) -> Json:
    """A problem body; `errors` as (field, reason, code)."""
    detail = extra.pop("detail", "; ".join(f"{field}: {reason}" for field, reason, _ in errors))
    problem = {"type": PROBLEM_BASE + kind, "title": title, "status": status, "detail": detail}
    problem["instance"] = instance
    if errors:  # empty lists and absent values are left out, as the service encodes them
        problem["errors"] = [{"field": f, "reason": r, "code": c} for f, r, c in errors]
    return {**problem, **extra, "request_id": EXAMPLE_REQUEST_ID}


def invalid(instance: str, field: str, reason: str, code: str) -> Json:
    return problem(400, "invalid-request", "Invalid request", instance, [(field, reason, code)])


def empty_list(
    name: str, summary: str, instance: str, field: str, body: Json | None = None
) -> Example:
    """The 400 of a request whose `field`, a list that needs an item, is empty."""
    reason = "Expected `array` of length >= 1"
    return Example(
        name,
        summary,
        400,
        invalid(instance, field, reason, "too_few"),
        body={**(body or {}), field: []},
    )


def rule_violation(instance: str, field: str, reason: str, code: str) -> Json:
    errors = [(field, reason, code)]
    return problem(422, "rule-violation", "Breaks a rule of the game", instance, errors)


def invalid_rules(instance: str, name: str, reason: str, code: str) -> Json:
    """A refused `rules` override, naming `rules.<name>`."""
    errors = [(f"rules.{name}", reason, code)]
    return problem(422, "invalid-rules", "Rules not accepted", instance, errors)


def queue_full(instance: str, body: Json) -> Example:
    """The 429 of an operation that needs a house-rules table while the solve queue is full
    (the tests replay it on an app queueing one ruleset, its solver busy)."""
    return Example(
        "queue-full",
        "More house rules waiting for a solve than this replica queues (here 1)",
        429,
        problem(
            429,
            "solve-queue-full",
            "Too many rulesets waiting",
            instance,
            [],
            detail="1 rulesets are waiting for a solve on this replica (DICEREF_SOLVE_QUEUE); "
            "retry in 5 s",
            retry_after=5,
        ),
        body=body,
    )


def unknown_game(instance: str, game: str) -> Json:
    what = f"unknown game '{game}'; see GET /games"
    return problem(404, "unknown-game", "Unknown game", instance, [("game", what, "unknown_game")])
