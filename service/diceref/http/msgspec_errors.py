"""msgspec's validation errors in the words of the problem shape: which field (its path
into the request, a missing or unknown field named itself), why (reworded where msgspec's
words would mislead a client or echo a huge value), and the stable `code`.
"""

from __future__ import annotations

import re

from litestar.exceptions import ValidationException

from diceref.games.families import ALL_GAMES
from diceref.http.fields import CONTROL_CHARACTERS_REASON
from diceref.http.problems import QUOTE_LIMIT, FieldError, quote

# msgspec's words for a value outside an enum: how an unknown `game` reaches us.
_UNKNOWN_GAME = re.compile(r"^Invalid enum value '(?P<value>.*)' - at `\$\.game`$", re.S)


_NAMED = re.compile(r"(?:missing required|contains unknown) field `([^`]+)`")
# msgspec's error message: the reason, then where (`- at `$.dice[4]``) when it knows.
MSGSPEC_MESSAGE = re.compile(r"^(?P<reason>.*?)(?: - at (?P<key>`key` in )?`\$(?P<path>[^`]*)`)?$")


def validation_errors(exc: ValidationException, dice: re.Pattern[str]) -> list[FieldError]:
    """Each item msgspec refused as a field, a reason and a code (`dice`: the fields whose
    items are dice, from `dice_fields`)."""
    errors: list[FieldError] = []
    extra = exc.extra if isinstance(exc.extra, list) else []
    for item in extra:
        if not isinstance(item, dict):
            continue
        message = str(item.get("message", exc.detail))
        match = MSGSPEC_MESSAGE.match(message)
        raw = match.group("reason") if match else message
        path = match.group("path") if match and match.group("path") else ""
        field = path.lstrip(".")
        named = _NAMED.search(raw)
        if named:  # a missing or unknown field: name the field itself, not its parent
            field = f"{field}.{named.group(1)}" if field else named.group(1)
        reason = _reworded(raw)
        if match and match.group("key"):  # a dict's key, not its value, is refused
            reason = f"a key: {reason}"
        field = field or str(item.get("key") or "body")
        code = item.get("code") or validation_code(field, raw, dice)
        errors.append(FieldError(field, reason, str(code)))
    if not errors:
        errors.append(FieldError("body", str(exc.detail), "invalid"))
    return errors


def dice_fields(names: set[str]) -> re.Pattern[str]:
    """Where a value out of range is a die that is not 1 to 6: an item of a list of dice
    named in `names` (`throws[]`: any item of `throws` is such a list)."""
    fields = "|".join(re.escape(n).replace(r"\[\]", r"\[\d+\]") for n in sorted(names))
    return re.compile(rf"(?:^|\.)(?:{fields})\[\d+\]$")


_CODES = (
    (re.compile(r"^the request body is empty"), "empty_body"),
    (
        re.compile(r"^(?:JSON is malformed|Input data was truncated|Expected `object`, got)"),
        "not_json",
    ),
    (re.compile(r"missing required field"), "missing_field"),
    (re.compile(r"contains unknown field"), "unknown_field"),
    (re.compile(r"^Invalid enum value"), "unknown_value"),
    (re.compile(r"^Expected `array` of length >="), "too_few"),
    (re.compile(r"^Expected `array` of length <="), "too_many"),
    (re.compile(r"^Expected `(?:str|object)` of length <="), "too_long"),
    (re.compile(r"^Expected `(?:str|object)` of length >="), "too_short"),
    (re.compile(r"^Expected `str` matching regex"), "control_character"),
    (re.compile(r"^Expected `(?:int|float|number)` [<>]=? "), "out_of_range"),
    (re.compile(r"^Expected `[^`]+`, got `"), "wrong_type"),
)


def validation_code(field: str, reason: str, dice: re.Pattern[str]) -> str:
    """The stable code of a request that does not match the document, read off msgspec's
    words (`Expected `int` <= 6` at `dice[4]` is `not_a_die`)."""
    for pattern, code in _CODES:
        if pattern.search(reason):
            if code == "out_of_range" and dice.search(field):
                return "not_a_die"
            return code
    return "invalid"


_QUOTED_VALUE = re.compile(
    r"^(?P<what>Invalid enum value|Object contains unknown field) ['`](?P<value>.*)['`]$", re.S
)


def _reworded(reason: str) -> str:
    """msgspec's reason as a client should read it: a refused pattern said in words, and a
    value it quotes (an unknown game) cut to a short prefix."""
    if reason.startswith("Expected `str` matching regex") and "x00-" in reason:
        return CONTROL_CHARACTERS_REASON
    quoted = _QUOTED_VALUE.match(reason)
    if quoted and len(quoted.group("value")) > QUOTE_LIMIT:
        return f"{quoted.group('what')} {quote(quoted.group('value'))}"
    return reason


def unknown_game_named(exc: ValidationException) -> str | None:
    """The game named, when the only thing wrong with a request is an unknown `game`."""
    extra = exc.extra if isinstance(exc.extra, list) else []
    if len(extra) != 1 or not isinstance(extra[0], dict):
        return None
    match = _UNKNOWN_GAME.match(str(extra[0].get("message", "")))
    if match is None or match.group("value") in ALL_GAMES:
        return None  # a known game of another family: the request does not match the document
    return match.group("value")
