"""Request fields every family's API shares, with their constraints and descriptions.

Constraints live in the types (`Meta`) so that they are enforced on decode and published in
the OpenAPI document from one place.
"""

from __future__ import annotations

from typing import Annotated, Any

from msgspec import Meta

Die = Annotated[int, Meta(ge=1, le=6, description="A die's face, 1 to 6")]
ThrowNumber = Annotated[
    int,
    Meta(
        ge=1,
        le=4,
        description="Which throw of the turn produced the dice (1 to the game's `throws_per_turn`)",
    ),
]

# Free text a client names things with.  Bounded, so that no answer (a problem quoting it,
# a sheet's problems naming a box) grows with what was sent, and free of control
# characters (C0, DEL and C1: NUL included), which would only ever be a client's bug or an
# attack on whatever displays or logs the name.  A refusal is a 400 naming the field.
NO_CONTROL_CHARACTERS = r"^[^\x00-\x1f\x7f-\x9f]*$"
CONTROL_CHARACTERS_REASON = "control characters (U+0000-U+001F, U+007F-U+009F) are not allowed"
PlayerName = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=100,
        pattern=NO_CONTROL_CHARACTERS,
        description="A player's name: 1 to 100 characters, no control characters",
    ),
]
BoxId = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=40,
        pattern=NO_CONTROL_CHARACTERS,
        description="A box's id, as listed by `GET /games/{game}` (at most 40 characters)",
    ),
]

RuleName = Annotated[str, Meta(min_length=1, max_length=40, pattern=NO_CONTROL_CHARACTERS)]
# A house rule's value is checked against its parameter (type, choices, range) by the rules
# layer, which answers a 422 naming `rules.<name>`: so any JSON value decodes here, and a
# wrong type is refused with the parameter's own words rather than a generic 400.
Rules = Annotated[
    dict[RuleName, Any],
    Meta(
        max_length=40,
        description="House rules: parameter overrides by name, as `GET /games/{game}` lists "
        "them under `parameters`, each value of the type and range listed there",
    ),
]

RulesetId = Annotated[
    str,
    Meta(description="Content hash of the effective rules (present when `rules` was sent)"),
]
