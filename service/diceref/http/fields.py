"""Request fields every family's API shares, with their constraints and descriptions.

Constraints live in the types (`Meta`) so that they are enforced on decode and published in
the OpenAPI document from one place.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

Die = Annotated[int, Meta(ge=1, le=6, description="A die's face, 1 to 6")]
ThrowNumber = Annotated[
    int,
    Meta(ge=1, le=3, description="Which throw of the turn produced the dice (1, 2 or 3)"),
]
