"""Which ruleset a scorecard request plays: a built-in `game` (with its `rules`), or a
custom `ruleset` sent whole.

Every scorecard operation (and `POST /rulesets`) asks `ruleset_of`, so the exclusivity of
`game` and `ruleset` and the cache of custom rulesets are one piece of code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from diceref.core.cache import per_ruleset
from diceref.core.errors import RuleViolation
from diceref.games.family import VARIANT_CACHE_SIZE
from diceref.games.scorecard import FAMILY
from diceref.games.scorecard.rules.description import compile_document
from diceref.games.scorecard.rules.document import RulesetDocument
from diceref.games.scorecard.rules.ruleset import Ruleset

_ENCODER = msgspec.json.Encoder()


def ruleset_of(
    game: str | None, rules: dict[str, Any] | None, ruleset: RulesetDocument | None
) -> tuple[Ruleset, bool]:
    """The request's ruleset, and whether its answer names it (`ruleset_id`: a request
    that chose its rules).  Exactly one of `game` and `ruleset`; `rules` only with a game.
    A refusal is a 422 naming the field (`RuleViolation`, or `RuleParameterError` for
    `rules.<name>`)."""
    if ruleset is not None:
        if game is not None:
            raise RuleViolation(
                "ruleset", "send either a built-in game or a ruleset, not both", "exclusive_fields"
            )
        if rules is not None:
            raise RuleViolation(
                "rules",
                "rules override a built-in game's parameters; change the ruleset itself",
                "exclusive_fields",
            )
        return custom_ruleset(ruleset), True
    if game is None:
        raise RuleViolation(
            "game", "a built-in game or a custom ruleset is required", "missing_field"
        )
    built = FAMILY.with_rules(game, rules)
    assert isinstance(built, Ruleset)
    return built, rules is not None


def custom_ruleset(doc: RulesetDocument) -> Ruleset:
    """`doc` as a checked `Ruleset`, compiled once per distinct document (a frontend sends
    the same one on every throw): the cache is keyed by the document's JSON encoding, as
    lists make the Struct itself unhashable."""
    return _compiled(_Sent(_ENCODER.encode(doc), doc))


@dataclass(frozen=True)
class _Sent:
    """A document as the cache holds it: equal and hashed by its encoding."""

    encoded: bytes
    doc: RulesetDocument = field(compare=False)


@per_ruleset(VARIANT_CACHE_SIZE)
def _compiled(sent: _Sent) -> Ruleset:
    return compile_document(sent.doc)
