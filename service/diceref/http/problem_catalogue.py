"""What the service's problems mean: every problem type, the description of each error
status in the OpenAPI document, and the `code` of each `errors[]` item.

The codes every family may give (a request that does not match the document, house rules,
players, CORS) are listed here; each family lists its own (`FamilyApi.error_codes`), and
`diceref.http.vocabulary.error_codes()` joins them into the catalogue the OpenAPI document
publishes (`x-error-codes`) and docs/contract.md prints.
"""

from __future__ import annotations

PROBLEM_DESCRIPTIONS = {
    400: "The request does not match this document (not JSON, a missing or unknown field, "
    "a value out of range); `errors` names each offending field.",
    404: "An unknown game (`unknown-game`, naming the `game` field) or route (`unknown-route`).",
    422: "The request matches this document but breaks a rule of the game (`rule-violation`: "
    "a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both "
    "sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); "
    "`errors` names the field and the rule.",
    408: "The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by "
    "default) of its headers; the connection is closed.",
    415: "The body is not declared as JSON: `Content-Type` must be `application/json` "
    "(optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body "
    "with no `Content-Type` is taken as JSON only if it parses.",
    413: "The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, "
    "64 KiB by default).",
    503: "The game's solved table is still loading (`table-loading`), or for house rules "
    "queued or being solved (`table-solving`, with `progress`): retry after `Retry-After` "
    "seconds (also in `retry_after`).",
    429: "Too many house-rules rulesets are waiting for a solve on this replica "
    "(`solve-queue-full`): retry after `Retry-After` seconds.",
}


# Every problem type the service answers with: URI suffix -> (status, title, when).  The
# OpenAPI document lists them (`x-problem-types`) and docs/contract.md prints them; a test
# checks that every `type` the app sends is one of them.
PROBLEM_TYPES: dict[str, tuple[int, str, str]] = {
    "invalid-request": (400, "Invalid request", "the request does not match the document"),
    "cors-rejected": (400, "CORS request refused", "a CORS preflight that is not allowed"),
    "unknown-game": (404, "Unknown game", "an operation names a game the service does not know"),
    "unknown-route": (404, "Unknown route", "no operation has this path"),
    "http-405": (405, "Method Not Allowed", "the path exists, not with this method"),
    "body-timeout": (408, "Request body too slow", "the body did not arrive in time"),
    "body-too-large": (413, "Request body too large", "the body is over the size limit"),
    "unsupported-media-type": (415, "Unsupported media type", "the body is not plain JSON"),
    "rule-violation": (422, "Breaks a rule of the game", "the request breaks a rule"),
    "invalid-rules": (422, "Rules not accepted", "a `rules` override refused (see `code`)"),
    "internal": (500, "Server error", "a fault of the service (logged), never bad input"),
    "solve-queue-full": (429, "Too many rulesets waiting", "the replica's solve queue is full"),
    "table-loading": (503, "Table not loaded yet", "a solved table the answer needs is loading"),
    "table-solving": (503, "Table being solved", "house rules' table queued or being solved"),
}

# The `code` of each `errors[]` item that any family may give: what was wrong, stable
# across releases.
SHARED_ERROR_CODES: dict[str, str] = {
    "empty_body": "the request body is empty",
    "not_json": "the request body is not JSON",
    "wrong_type": "a value of another JSON type than the document's",
    "missing_field": "a required field is missing",
    "unknown_field": "a field the document does not have",
    "unknown_value": "a value outside the field's enum",
    "out_of_range": "a number outside the field's bounds",
    "not_a_die": "a die that is not 1 to 6",
    "too_few": "a list shorter than the document allows",
    "too_many": "a list longer than the document allows",
    "too_long": "a text or map longer than the document allows",
    "too_short": "a text or map shorter than the document allows",
    "control_character": "a text with control characters",
    "too_deep": "a body nested deeper than the limit (32 arrays and objects)",
    "invalid": "any other mismatch with the document",
    "unknown_game": "a game the service does not know",
    "unknown_route": "a path no operation has",
    "body_timeout": "the body did not arrive in time",
    "unsupported_type": "a Content-Type other than application/json",
    "unsupported_encoding": "a Content-Encoding other than identity",
    "rule_violation": "a rule of the game (no finer code yet)",
    "wrong_dice_count": "not the number of dice the game throws",
    "throws_exceeded": "more throws than allowed",
    "no_players": "a game without players",
    "empty_name": "a player without a name",
    "duplicate_player": "a player named twice",
    "unknown_player": "a player who does not sit at this table",
    "game_over": "a turn or round after the game ended",
    "no_throw": "a turn without a throw",
    "cors_origin": "a CORS preflight from an origin not in DICEREF_CORS_ORIGINS",
    "cors_method": "a CORS preflight for a method other than GET, POST or OPTIONS",
    "cors_headers": "a CORS preflight asking for a request header not allowed",
    "unknown_parameter": "a `rules` name the game does not have",
    "unknown_choice": "a `rules` value outside the parameter's choices",
    "not_settable": "a parameter reported for information, which no request may set",
    "invalid_rule": "a `rules` or `ruleset` value that contradicts another, or that the game "
    "cannot play",
    "ruleset_limit": "rules or a custom ruleset beyond what the service solves (a scorecard: 5 "
    "dice, 1 to 15 boxes, a bounded table; Yardkle: a bounded policy table and target; its "
    "two-player table up to 240 levels to the target)",
}
