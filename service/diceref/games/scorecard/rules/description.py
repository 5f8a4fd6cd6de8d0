"""From a ruleset document to the `Ruleset` the rest of the code reads: decode, check,
compile.  A request's `ruleset` and every built-in game (`games.py`) take this one path, so
a built-in game sent back unchanged is the same ruleset (the same `rules_hash`, tables and
answers).  The limits are the solver's (docs/rules/house-rules.md, "Limits").  Every
refusal is a `RuleViolation` naming the field by its path in the request
(`ruleset.boxes[3].pattern`), a reason and a stable code.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import msgspec

from diceref.core.errors import RuleViolation
from diceref.core.game import Parameter
from diceref.games.scorecard.rules.boxes import Box, Pattern, Points
from diceref.games.scorecard.rules.document import (
    BOX_OUTPUT_ONLY,
    BOX_VOCABULARY,
    DICE,
    OUTPUT_ONLY,
    FaceBox,
    FiveOfAKindDocument,
    RulesetDocument,
    StraightBox,
)
from diceref.games.scorecard.rules.points import upper_extremes
from diceref.games.scorecard.rules.ruleset import (
    FiveOfAKindRule,
    Joker,
    Order,
    Ruleset,
    UpperBonus,
    five_of_a_kind_parameters,
    play_parameters,
    upper_bonus_parameters,
    without_inert_readings,
)

MAX_BOXES = 15
UPPER_FACES = (1, 2, 3, 4, 5, 6)
# A custom table may hold at most this many states (64 MiB of float64): twice the largest
# built-in game's (dice-poker, 4.3 million), which a threshold far above what the upper
# boxes can score, or notches worth thousands, would otherwise multiply without need.
MAX_STATES = 1 << 23
ID_PATTERN = re.compile(r"[a-z0-9_][a-z0-9_-]{0,39}")  # a tables key's `game` (tables/key.py)
NO_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
CUSTOM_SOURCE = "A custom ruleset sent with the request"
DEFAULT_LABELS = ("1", "2", "3", "4", "5", "6")
# The scoring rules each kind of box takes, as a refusal says them.
FACE_SCORING = "face_sum, face_relative or notches"
LOWER_SCORING = "sum_all, sum_formed or fixed"


# --- decoding: msgspec checks the types, its refusals get the service's codes ---------------

_AT = re.compile(r"^(?P<reason>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_QUOTED = re.compile(r"`(?P<name>[^`]+)`$")
_BOX_PATH = re.compile(r"^\.boxes\[\d+\]$")
_CODES = (
    (re.compile(r"^Expected `(?:int|float)` [<>]=? "), "out_of_range"),
    (re.compile(r"^Expected `(?:array|str)` of length"), "out_of_range"),
    (re.compile(r"^Invalid enum value"), "unknown_value"),
)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def _at(raw: Any, path: str) -> Any:
    """The value at a msgspec path (`.boxes[3].scoring`) of the raw document, or None."""
    node = raw
    for key, index in re.findall(r"\.(\w+)|\[(\d+)\]", path):
        try:
            node = node[key] if key else node[int(index)]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _translated(error: msgspec.ValidationError, raw: Any, where: str) -> RuleViolation:
    match = _AT.match(str(error))
    assert match is not None  # the pattern matches any text
    reason, path = match["reason"], match["path"] or ""
    field = where + path
    name = _QUOTED.search(reason)
    if reason.startswith("Object missing required field") and name:
        return RuleViolation(f"{field}.{name['name']}", "required", "missing_field")
    if reason.startswith("Object contains unknown field") and name:
        key = name["name"]
        if _BOX_PATH.match(path) and key in BOX_VOCABULARY:
            box = _at(raw, path)
            return RuleViolation(
                f"{field}.{key}",
                f"a '{box.get('pattern')}' box scored by '{box.get('scoring')}' takes no {key}",
                "not_applicable",
            )
        return RuleViolation(f"{field}.{key}", f"a ruleset has no field '{key}'", "unknown_field")
    if _BOX_PATH.match(path.removesuffix(".pattern")) and reason.startswith("Invalid value"):
        allowed = ", ".join(p.value for p in Pattern)
        got = _short(_at(raw, path))
        return RuleViolation(field, f"one of {allowed}, got {got}", "unknown_pattern")
    if _BOX_PATH.match(path.removesuffix(".scoring")) and reason.startswith("Invalid enum"):
        box, scoring = _at(raw, path.removesuffix(".scoring")), _at(raw, path)
        if scoring not in {p.value for p in Points}:
            allowed = ", ".join(p.value for p in Points)
            return RuleViolation(
                field, f"one of {allowed}, got {_short(scoring)}", "unknown_scoring"
            )
        pattern = box.get("pattern")
        takes = FACE_SCORING if pattern == Pattern.FACE else LOWER_SCORING
        return RuleViolation(
            field,
            f"a '{pattern}' box scores by {takes}, not '{scoring}'",
            "scoring_mismatch",
        )
    code = next((c for pattern, c in _CODES if pattern.search(reason)), "wrong_type")
    return RuleViolation(field, reason, code)


def document_refusal(
    error: msgspec.ValidationError, raw: object, where: str = "ruleset"
) -> RuleViolation | None:
    """A request's `ruleset` (`raw`, as JSON data) that msgspec refused while decoding the
    request: `error` with its path into the document (`$.boxes[3].face`) in the service's
    words and codes, a 422 like every refusal of this module.  None for a value of the wrong
    JSON type, which stays the 400 any field's is."""
    refused = _translated(error, raw, where)
    return None if refused.code == "wrong_type" else refused


def decode_document(raw: object, where: str = "ruleset") -> RulesetDocument:
    """`raw` (JSON data) as a typed document; the output-only fields are dropped."""
    if not isinstance(raw, Mapping):
        raise RuleViolation(where, f"an object, got {_short(raw)}", "wrong_type")
    data = {k: v for k, v in raw.items() if k not in OUTPUT_ONLY}
    if isinstance(data.get("boxes"), list):
        data["boxes"] = [
            {k: v for k, v in box.items() if k not in BOX_OUTPUT_ONLY}
            if isinstance(box, Mapping)
            else box
            for box in data["boxes"]
        ]
    try:
        return msgspec.convert(data, RulesetDocument)
    except msgspec.ValidationError as error:
        raise _translated(error, data, where) from None


# --- checking: the rules between fields ------------------------------------------------------


def _text(value: str, where: str, limit: int = 100) -> str:
    if not 1 <= len(value) <= limit:
        raise RuleViolation(where, f"1 to {limit} characters, got {len(value)}", "out_of_range")
    if NO_CONTROL.search(value):
        raise RuleViolation(where, "control characters are not allowed", "control_character")
    return value


def _not_applicable(box: Any, field: str, where: str) -> RuleViolation:
    pattern, scoring = type(box).__struct_config__.tag, box.scoring
    return RuleViolation(
        f"{where}.{field}",
        f"a '{pattern}' box scored by '{scoring}' takes no {field}",
        "not_applicable",
    )


def _needs(box: Any, field: str, where: str) -> RuleViolation:
    pattern, scoring = type(box).__struct_config__.tag, box.scoring
    return RuleViolation(
        f"{where}.{field}", f"a '{pattern}' box scored by '{scoring}' needs it", "missing_field"
    )


# A scoring rule's own field: needed with that rule, refused with any other.
SCORING_FIELD = {"face_relative": "target_count", "notches": "notches", "fixed": "fixed_points"}


def _box(box: Any, where: str) -> Box:
    _text(box.id, f"{where}.id", 40)
    name = box.id if isinstance(box.name, msgspec.UnsetType) else box.name
    _text(name, f"{where}.name")
    for scoring, field in SCORING_FIELD.items():
        if field not in box.__struct_fields__:
            continue
        given = not isinstance(getattr(box, field), msgspec.UnsetType)
        if given and box.scoring != scoring:
            raise _not_applicable(box, field, where)
        if not given and box.scoring == scoring:
            raise _needs(box, field, where)
    if isinstance(box, StraightBox):
        for i, run in enumerate(box.runs):
            if any(a >= b for a, b in itertools.pairwise(run)):
                raise RuleViolation(
                    f"{where}.runs[{i}]",
                    "a run lists different faces in ascending order",
                    "invalid_run",
                )
    compiled: Box = box.compile(name)
    if not isinstance(box.section, msgspec.UnsetType) and box.section is not compiled.section:
        raise RuleViolation(
            f"{where}.section",
            f"a '{compiled.pattern.value}' box belongs to the {compiled.section.value} section "
            "(the upper section is the boxes that count one face)",
            "wrong_section",
        )
    return compiled


def _boxes(doc: RulesetDocument, where: str) -> tuple[Box, ...]:
    if not 1 <= len(doc.boxes) <= MAX_BOXES:
        raise RuleViolation(
            where,
            f"1 to {MAX_BOXES} boxes (what the solver handles), got {len(doc.boxes)}",
            "ruleset_limit",
        )
    boxes: list[Box] = []
    seen: dict[str, int] = {}
    for i, given in enumerate(doc.boxes):
        box = _box(given, f"{where}[{i}]")
        if box.id in seen:
            raise RuleViolation(
                f"{where}[{i}].id", f"box '{box.id}' is also boxes[{seen[box.id]}]", "duplicate_box"
            )
        seen[box.id] = i
        boxes.append(box)
    faces = tuple(b.face for b in doc.boxes if isinstance(b, FaceBox))
    leading = tuple(b.face if isinstance(b, FaceBox) else 0 for b in doc.boxes[:6])
    if faces != UPPER_FACES or leading != UPPER_FACES:
        raise RuleViolation(
            where,
            "the upper section must be six 'face' boxes first on the card, ones to sixes in "
            f"that order (the solver's state space assumes it); got faces {list(faces)}",
            "upper_section",
        )
    return tuple(boxes)


def _five_of_a_kind(
    given: FiveOfAKindDocument | None, where: str, boxes: tuple[Box, ...], order: Order, root: str
) -> tuple[FiveOfAKindRule | None, FiveOfAKindRule | None]:
    """(the rule in force, None when it cannot change a score; the rule as reported)."""
    if given is None:
        return None, None
    _text(given.box, f"{where}.box", 40)
    by_id = {b.id: b for b in boxes}
    if given.box not in by_id:
        raise RuleViolation(f"{where}.box", f"the ruleset has no box '{given.box}'", "unknown_box")
    rule = without_inert_readings(
        FiveOfAKindRule(
            given.box,
            given.extra_bonus,
            given.joker,
            given.joker_when_scratched,
            given.matching_upper_forced,
        )
    )
    if rule.joker is Joker.NONE and rule.extra_bonus == 0:
        return None, rule  # a rule that changes no score is none
    box = by_id[given.box]
    if not (box.is_five_of_a_kind and box.points is Points.FIXED and box.fixed > 0):
        raise RuleViolation(
            f"{where}.box",
            f"'{given.box}' is not a five-of-a-kind box scoring fixed points, so 'holds its top "
            "value' (what the Joker and the extra bonus depend on) is undefined",
            "five_of_a_kind_box",
        )
    if order is Order.FORCED and rule.joker is not Joker.NONE:
        raise RuleViolation(
            f"{root}.order",
            f"forced order leaves no choice of box, which a Joker ('{rule.joker.value}') is; set "
            "five_of_a_kind.joker to none",
            "invalid_rule",
        )
    return rule, rule


def table_states(ruleset: Ruleset) -> int:
    """States of the ruleset's value table: `StateSpace.size` (the same folding of the upper
    subtotal, read off the upper boxes' extremes; a test holds the two equal).  Those need
    six throws per upper box, not the points table, so compiling a game stays cheap."""
    upper_min, upper_max = upper_extremes(ruleset)
    target = ruleset.upper_bonus.target
    low = min(0, sum(upper_min.values()))
    # No upper box below 0: the subtotal is capped at the target, as `StateSpace` caps it.
    high = target if min(upper_min.values()) >= 0 else max(target, sum(upper_max.values()))
    flags = 1 if ruleset.five_of_a_kind is None else 2
    return (1 << len(ruleset.boxes)) * (high - low + 1) * flags


@dataclass(frozen=True)
class About:
    """What a built-in game says beside its rules: where they come from, a summary, and its
    parameters (a custom ruleset reports its own, not settable)."""

    source: str
    summary: str
    parameters: tuple[Parameter, ...]


def compile_document(
    doc: RulesetDocument, where: str = "ruleset", about: About | None = None
) -> Ruleset:
    """The `Ruleset` the document describes, checked against the solver's limits."""
    if ID_PATTERN.fullmatch(doc.id) is None:
        raise RuleViolation(
            f"{where}.id",
            f"lower-case letters, digits, '_' and '-' (at most 40), got {_short(doc.id)}",
            "invalid_id",
        )
    _text(doc.name, f"{where}.name")
    if doc.dice_count != DICE:
        raise RuleViolation(
            f"{where}.dice_count",
            f"scorecard games throw {DICE} dice, got {doc.dice_count}",
            "ruleset_limit",
        )
    if doc.max_players is not None and not doc.min_players <= doc.max_players <= 1000:
        raise RuleViolation(
            f"{where}.max_players",
            f"{doc.min_players} to 1000, got {doc.max_players}",
            "out_of_range",
        )
    labels: tuple[str, ...] = DEFAULT_LABELS
    if doc.face_labels is not None:
        if len(doc.face_labels) != 6:
            raise RuleViolation(
                f"{where}.face_labels", f"six labels, got {len(doc.face_labels)}", "out_of_range"
            )
        labels = tuple(
            _text(v, f"{where}.face_labels[{i}]", 10) for i, v in enumerate(doc.face_labels)
        )
    if doc.series_order is not None and doc.series_order != (doc.order is Order.SERIES):
        raise RuleViolation(
            f"{where}.series_order",
            f"series_order {str(doc.series_order).lower()} contradicts order '{doc.order.value}'",
            "invalid_rule",
        )
    boxes = _boxes(doc, f"{where}.boxes")
    given = doc.upper_bonus_rule
    bonus = UpperBonus(given.threshold, given.points, given.strictly_greater)
    five, reported = _five_of_a_kind(
        doc.five_of_a_kind, f"{where}.five_of_a_kind", boxes, doc.order, where
    )
    throws = doc.throws_per_turn
    if about is None:
        about = About(
            CUSTOM_SOURCE,
            f"A custom scorecard of {len(boxes)} boxes; upper bonus {bonus.points} at "
            f"{bonus.target}; order {doc.order.value}; {throws} throws a turn.",
            _custom_parameters(bonus, reported, doc),
        )
    ruleset = Ruleset(
        id=doc.id,
        name=doc.name,
        family="scorecard",
        dice=DICE,
        throws_per_turn=throws,
        min_players=doc.min_players,
        max_players=doc.max_players,
        source=about.source,
        summary=about.summary,
        parameters=about.parameters,
        face_labels=labels,
        boxes=boxes,
        upper_bonus=bonus,
        five_of_a_kind=five,
        order=doc.order,
        document=doc,
    )
    states = table_states(ruleset)
    if states > MAX_STATES:
        raise RuleViolation(
            f"{where}.upper_bonus_rule.threshold",
            f"the ruleset's table would hold {states:,} states, over the {MAX_STATES:,} the "
            "service solves: lower the threshold (or the upper boxes' points)",
            "ruleset_limit",
        )
    return ruleset


def _custom_parameters(
    bonus: UpperBonus, five: FiveOfAKindRule | None, doc: RulesetDocument
) -> tuple[Parameter, ...]:
    """A custom ruleset's rules as parameters, reported for what they are and not settable:
    a custom ruleset changes by its document."""
    parameters: list[Parameter] = [*upper_bonus_parameters(bonus, "upper section")]
    if five is not None:
        parameters += five_of_a_kind_parameters(
            five,
            "The Joker on the five-of-a-kind box: 'forced', 'free_choice' or 'none'.",
            "With a Joker: does a 0 in the five-of-a-kind box still trigger it?",
            scratched_reading=False,
        )
    parameters += play_parameters(
        doc.throws_per_turn, doc.order, f"Which open boxes a turn may fill: {doc.order.value}."
    )
    return tuple(replace(p, settable=False) for p in parameters)


def ruleset_from_description(raw: object, where: str = "ruleset") -> Ruleset:
    """The `Ruleset` a `GET /games/{game}`-shaped document (JSON data) describes: decoded,
    checked and compiled.  Raises `RuleViolation` naming the field."""
    return compile_document(decode_document(raw, where), where)
