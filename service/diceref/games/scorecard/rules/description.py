"""A scorecard ruleset as the document `GET /games/{game}` publishes, and back.

A client fetches a built-in game, changes it and sends it back as a request's `ruleset`:
`ruleset_from_description` rebuilds the `Ruleset`, and `box_fields` is what the document
says of each box, so the two are one vocabulary (a built-in game sent back unchanged has the
same `rules_hash`).  A field where it would change nothing is refused, not carried; the
limits are the solver's (docs/rules/house-rules.md, "Limits").  Every refusal is a
`RuleViolation` naming the field by its path in the request, a reason and a stable code.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from diceref.core.errors import RuleViolation
from diceref.core.game import Parameter
from diceref.games.scorecard.rules.boxes import Box, Pattern, Points, Section
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import (
    MAX_BONUS_THRESHOLD,
    MAX_POINTS,
    MAX_THROWS,
    MIN_THROWS,
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

DICE = 5
MAX_BOXES = 15
UPPER_FACES = (1, 2, 3, 4, 5, 6)
MAX_RUNS = 20
# A custom table may hold at most this many states (64 MiB of float64): twice the largest
# built-in game's (dice-poker, 4.3 million), which a threshold far above what the upper
# boxes can score, or notches worth thousands, would otherwise multiply without need.
MAX_STATES = 1 << 23
ID_PATTERN = re.compile(r"[a-z0-9_][a-z0-9_-]{0,39}")  # a tables key's `game` (tables/key.py)
NO_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
CUSTOM_SOURCE = "A custom ruleset sent with the request"

# What a document may carry beside the rules: figures and prose the service computes.  A
# client sends back what it fetched, so these are accepted and ignored.
OUTPUT_ONLY = frozenset(
    {"max_score", "optimal_expected_score", "tables", "parameters", "summary", "source"}
)
BOX_OUTPUT_ONLY = frozenset({"how", "max_points"})
TOP_FIELDS = frozenset(
    {
        "id",
        "name",
        "family",
        "dice_count",
        "throws_per_turn",
        "min_players",
        "max_players",
        "face_labels",
        "boxes",
        "upper_bonus_rule",
        "five_of_a_kind",
        "series_order",
        "order",
    }
)

# The patterns and scoring rules as the document names them, and the fields each takes
# (document name -> `Box` attribute).
FACE_SCORING = (Points.FACE_SUM, Points.FACE_RELATIVE, Points.NOTCHES)
PATTERN_FIELDS: dict[Pattern, tuple[str, ...]] = {
    Pattern.FACE: ("face",),
    Pattern.N_OF_A_KIND: ("of_a_kind_count",),
    Pattern.PAIR: (),
    Pattern.TWO_PAIRS: ("two_pairs_distinct",),
    Pattern.FULL_HOUSE: ("full_house_distinct",),
    Pattern.STRAIGHT: ("runs",),
    Pattern.CHANCE: (),
    Pattern.SUM_OVER: ("total_over",),
}
SCORING_FIELDS: dict[Points, tuple[str, ...]] = {
    Points.FACE_SUM: (),
    Points.FACE_RELATIVE: ("target_count",),
    Points.NOTCHES: ("notches",),
    Points.SUM_ALL: (),
    Points.SUM_FORMED: (),
    Points.FIXED: ("fixed_points",),
}
# Optional on every lower box, shown only when they change a score.
MODIFIERS = ("first_throw_multiplier", "premium", "premium_doubled")
ATTRIBUTE = {
    "face": "face",
    "of_a_kind_count": "n",
    "runs": "runs",
    "fixed_points": "fixed",
    "total_over": "over",
    "target_count": "target",
    "notches": "notches",
    "first_throw_multiplier": "first_throw_multiplier",
    "premium": "premium",
    "premium_doubled": "premium_doubled",
    "two_pairs_distinct": "two_pairs_distinct",
    "full_house_distinct": "full_house_distinct",
}
# Fields with a default: a document may leave them out.
OPTIONAL = frozenset(
    {"two_pairs_distinct", "full_house_distinct", "first_throw_multiplier", "premium"}
    | {"premium_doubled"}
)
BOUNDS: dict[str, tuple[int, int]] = {
    "face": (1, 6),
    "of_a_kind_count": (1, DICE),
    "fixed_points": (0, MAX_POINTS),
    "total_over": (0, 6 * DICE - 1),
    "target_count": (0, DICE),
    "first_throw_multiplier": (1, 10),
    "premium": (0, MAX_POINTS),
}
BOX_FIELDS = frozenset({"id", "name", "section", "pattern", "scoring", *ATTRIBUTE})
_DEFAULT = Box("", "", Section.LOWER, Pattern.CHANCE, Points.SUM_ALL)


def _document_value(box: Box, field: str) -> Any:
    value = getattr(box, ATTRIBUTE[field])
    if field == "runs":
        return [list(run) for run in value]
    if field == "notches":
        return list(value)
    return value


def box_fields(box: Box) -> dict[str, Any]:
    """The structured fields the document shows for `box`: those its pattern and scoring
    take, and the modifiers that differ from their default."""
    names = [*PATTERN_FIELDS[box.pattern], *SCORING_FIELDS[box.points]]
    names += [m for m in MODIFIERS if getattr(box, m) != getattr(_DEFAULT, m)]
    return {name: _document_value(box, name) for name in names}


# --- reading a document -------------------------------------------------------------------


def _kind_name(kind: type) -> str:
    return {bool: "a boolean", int: "an integer", str: "a string", list: "a list"}.get(
        kind, "an object"
    )


def _typed(value: object, kind: type, where: str) -> Any:
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        raise RuleViolation(where, f"{_kind_name(kind)}, got {_short(value)}", "wrong_type")
    return value


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def _integer(value: object, where: str, low: int, high: int) -> int:
    number: int = _typed(value, int, where)
    if not low <= number <= high:
        raise RuleViolation(where, f"{low} to {high}, got {number}", "out_of_range")
    return number


def _text(value: object, where: str, limit: int = 100) -> str:
    text: str = _typed(value, str, where)
    if not 1 <= len(text) <= limit:
        raise RuleViolation(where, f"1 to {limit} characters, got {len(text)}", "out_of_range")
    if NO_CONTROL.search(text):
        raise RuleViolation(where, "control characters are not allowed", "control_character")
    return text


def _mapping(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise RuleViolation(where, f"an object, got {_short(value)}", "wrong_type")
    return value


def _fields(
    doc: Mapping[str, Any], where: str, known: frozenset[str], ignored: frozenset[str]
) -> None:
    for key in doc:
        if key not in known and key not in ignored:
            raise RuleViolation(
                f"{where}.{key}", f"a ruleset has no field '{key}'", "unknown_field"
            )


def _required(doc: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in doc or doc[key] is None:
        raise RuleViolation(f"{where}.{key}", "required", "missing_field")
    return doc[key]


Vocabulary = type[Pattern] | type[Points] | type[Order] | type[Joker] | type[Section]


def _choice(value: object, kind: Vocabulary, where: str, code: str = "unknown_value") -> Any:
    text = _typed(value, str, where)
    try:
        return kind(text)
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise RuleViolation(where, f"one of {allowed}, got {_short(text)}", code) from None


def _runs(value: object, where: str) -> tuple[tuple[int, ...], ...]:
    runs = _typed(value, list, where)
    if not 1 <= len(runs) <= MAX_RUNS:
        raise RuleViolation(where, f"1 to {MAX_RUNS} runs, got {len(runs)}", "out_of_range")
    out = []
    for i, run in enumerate(runs):
        at = f"{where}[{i}]"
        faces = _typed(run, list, at)
        if not 1 <= len(faces) <= DICE:
            raise RuleViolation(at, f"1 to {DICE} faces, got {len(faces)}", "out_of_range")
        got = tuple(_integer(f, f"{at}[{j}]", 1, 6) for j, f in enumerate(faces))
        if any(a >= b for a, b in itertools.pairwise(got)):
            raise RuleViolation(at, "a run lists different faces in ascending order", "invalid_run")
        out.append(got)
    return tuple(out)


def _notches(value: object, where: str) -> tuple[int, int]:
    items = _typed(value, list, where)
    if len(items) != 2:
        raise RuleViolation(
            where, f"two points (three of the face, four or five), got {len(items)}", "out_of_range"
        )
    low, high = (_integer(v, f"{where}[{i}]", 0, MAX_POINTS) for i, v in enumerate(items))
    return (low, high)


def _field_value(name: str, value: object, where: str) -> Any:
    if name == "runs":
        return _runs(value, where)
    if name == "notches":
        return _notches(value, where)
    if name in ("premium_doubled", "two_pairs_distinct", "full_house_distinct"):
        return _typed(value, bool, where)
    low, high = BOUNDS[name]
    return _integer(value, where, low, high)


def _box(doc: object, where: str) -> Box:
    box = _mapping(doc, where)
    _fields(box, where, BOX_FIELDS, BOX_OUTPUT_ONLY)
    box_id = _text(_required(box, "id", where), f"{where}.id", 40)
    name = box_id if box.get("name") is None else _text(box["name"], f"{where}.name")
    pattern: Pattern = _choice(
        _required(box, "pattern", where), Pattern, f"{where}.pattern", "unknown_pattern"
    )
    scoring: Points = _choice(
        _required(box, "scoring", where), Points, f"{where}.scoring", "unknown_scoring"
    )
    if (pattern is Pattern.FACE) != (scoring in FACE_SCORING):
        takes = (
            "face_sum, face_relative or notches"
            if pattern is Pattern.FACE
            else "sum_all, sum_formed or fixed"
        )
        raise RuleViolation(
            f"{where}.scoring",
            f"a '{pattern.value}' box scores by {takes}, not '{scoring.value}'",
            "scoring_mismatch",
        )
    section = Section.UPPER if pattern is Pattern.FACE else Section.LOWER
    if box.get("section") is not None:
        said: Section = _choice(box["section"], Section, f"{where}.section")
        if said is not section:
            raise RuleViolation(
                f"{where}.section",
                f"a '{pattern.value}' box belongs to the {section.value} section (the upper "
                "section is the boxes that count one face)",
                "wrong_section",
            )
    takes_fields = {*PATTERN_FIELDS[pattern], *SCORING_FIELDS[scoring]}
    if section is Section.LOWER:
        takes_fields |= set(MODIFIERS)
    values: dict[str, Any] = {}
    for field in ATTRIBUTE:
        at = f"{where}.{field}"
        if field not in takes_fields:
            if field in box and box[field] is not None:
                given = _field_value(field, box[field], at)
                default = getattr(_DEFAULT, ATTRIBUTE[field])
                if given != default:
                    raise RuleViolation(
                        at,
                        f"a '{pattern.value}' box scored by '{scoring.value}' takes no {field}",
                        "not_applicable",
                    )
            continue
        if box.get(field) is None:
            if field not in OPTIONAL:
                raise RuleViolation(
                    at,
                    f"a '{pattern.value}' box scored by '{scoring.value}' needs it",
                    "missing_field",
                )
            continue
        values[ATTRIBUTE[field]] = _field_value(field, box[field], at)
    return Box(box_id, name, section, pattern, scoring, **values)


def _boxes(value: object, where: str) -> tuple[Box, ...]:
    docs = _typed(value, list, where)
    if not 1 <= len(docs) <= MAX_BOXES:
        raise RuleViolation(
            where,
            f"1 to {MAX_BOXES} boxes (what the solver handles), got {len(docs)}",
            "ruleset_limit",
        )
    boxes: list[Box] = []
    seen: dict[str, int] = {}
    for i, doc in enumerate(docs):
        box = _box(doc, f"{where}[{i}]")
        if box.id in seen:
            raise RuleViolation(
                f"{where}[{i}].id", f"box '{box.id}' is also boxes[{seen[box.id]}]", "duplicate_box"
            )
        seen[box.id] = i
        boxes.append(box)
    faces = tuple(b.face for b in boxes if b.pattern is Pattern.FACE)
    leading = tuple(b.face for b in boxes[: len(UPPER_FACES)])
    if faces != UPPER_FACES or leading != UPPER_FACES:
        raise RuleViolation(
            where,
            "the upper section must be six 'face' boxes first on the card, ones to sixes in "
            f"that order (the solver's state space assumes it); got faces {list(faces)}",
            "upper_section",
        )
    return tuple(boxes)


def _upper_bonus(value: object, where: str) -> UpperBonus:
    doc = _mapping(value, where)
    _fields(doc, where, frozenset({"threshold", "strictly_greater", "points"}), frozenset())
    return UpperBonus(
        _integer(_required(doc, "threshold", where), f"{where}.threshold", 0, MAX_BONUS_THRESHOLD),
        _integer(_required(doc, "points", where), f"{where}.points", 0, MAX_POINTS),
        _typed(doc.get("strictly_greater", False), bool, f"{where}.strictly_greater"),
    )


FIVE_FIELDS = frozenset(
    {"box", "extra_bonus", "joker", "joker_when_scratched", "matching_upper_forced"}
)


def _five_of_a_kind(
    value: object, where: str, boxes: tuple[Box, ...], order: Order, root: str
) -> tuple[FiveOfAKindRule | None, FiveOfAKindRule | None]:
    """(the rule in force, None when it cannot change a score; the rule as reported)."""
    if value is None:
        return None, None
    doc = _mapping(value, where)
    _fields(doc, where, FIVE_FIELDS, frozenset())
    box_id = _text(_required(doc, "box", where), f"{where}.box", 40)
    by_id = {b.id: b for b in boxes}
    if box_id not in by_id:
        raise RuleViolation(f"{where}.box", f"the ruleset has no box '{box_id}'", "unknown_box")
    joker: Joker = _choice(_required(doc, "joker", where), Joker, f"{where}.joker")
    rule = without_inert_readings(  # as the built-in games' builders fold them
        FiveOfAKindRule(
            box_id,
            _integer(_required(doc, "extra_bonus", where), f"{where}.extra_bonus", 0, MAX_POINTS),
            joker,
            _typed(doc.get("joker_when_scratched", False), bool, f"{where}.joker_when_scratched"),
            _typed(doc.get("matching_upper_forced", True), bool, f"{where}.matching_upper_forced"),
        )
    )
    if rule.joker is Joker.NONE and rule.extra_bonus == 0:
        return None, rule  # as the built-in games: a rule that changes no score is none
    box = by_id[box_id]
    if not (box.is_five_of_a_kind and box.points is Points.FIXED and box.fixed > 0):
        raise RuleViolation(
            f"{where}.box",
            f"'{box_id}' is not a five-of-a-kind box scoring fixed points, so 'holds its top "
            "value' (what the Joker and the extra bonus depend on) is undefined",
            "five_of_a_kind_box",
        )
    if order is Order.FORCED and joker is not Joker.NONE:
        raise RuleViolation(
            f"{root}.order",
            f"forced order leaves no choice of box, which a Joker ('{joker.value}') is; set "
            "five_of_a_kind.joker to none",
            "invalid_rule",
        )
    return rule, rule


def table_states(ruleset: Ruleset) -> int:
    """States of the ruleset's value table: `StateSpace.size` (the same folding of the upper
    subtotal, read off the same points table; a test holds the two equal)."""
    table = points_table(ruleset)
    target = ruleset.upper_bonus.target
    low = min(0, sum(table.upper_min.values()))
    if min(table.upper_min.values()) >= 0:
        high = target
    else:
        high = max(target, sum(table.upper_max.values()))
    flags = 1 if ruleset.five_of_a_kind is None else 2
    return (1 << len(ruleset.boxes)) * (high - low + 1) * flags


def ruleset_from_description(doc: Mapping[str, Any], where: str = "ruleset") -> Ruleset:
    """The `Ruleset` a `GET /games/{game}`-shaped document describes, checked against the
    vocabulary and the solver's limits; the output-only fields are ignored.  Raises
    `RuleViolation` naming the field (`ruleset.boxes[3].pattern`)."""
    doc = _mapping(doc, where)
    _fields(doc, where, TOP_FIELDS, OUTPUT_ONLY)
    ruleset_id = _typed(_required(doc, "id", where), str, f"{where}.id")
    if ID_PATTERN.fullmatch(ruleset_id) is None:
        raise RuleViolation(
            f"{where}.id",
            f"lower-case letters, digits, '_' and '-' (at most 40), got {_short(ruleset_id)}",
            "invalid_id",
        )
    name = _text(_required(doc, "name", where), f"{where}.name")
    family = doc.get("family", "scorecard")
    if family != "scorecard":
        raise RuleViolation(
            f"{where}.family",
            f"a custom ruleset is a scorecard game, got {_short(family)}",
            "unknown_value",
        )
    dice = _typed(_required(doc, "dice_count", where), int, f"{where}.dice_count")
    if dice != DICE:
        raise RuleViolation(
            f"{where}.dice_count", f"scorecard games throw {DICE} dice, got {dice}", "ruleset_limit"
        )
    throws = _integer(
        _required(doc, "throws_per_turn", where), f"{where}.throws_per_turn", MIN_THROWS, MAX_THROWS
    )
    min_players = _integer(doc.get("min_players", 1), f"{where}.min_players", 1, 100)
    max_players = doc.get("max_players")
    if max_players is not None:
        max_players = _integer(max_players, f"{where}.max_players", min_players, 1000)
    labels: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")
    if doc.get("face_labels") is not None:
        given = _typed(doc["face_labels"], list, f"{where}.face_labels")
        if len(given) != 6:
            raise RuleViolation(
                f"{where}.face_labels", f"six labels, got {len(given)}", "out_of_range"
            )
        labels = tuple(_text(v, f"{where}.face_labels[{i}]", 10) for i, v in enumerate(given))
    order: Order = _choice(_required(doc, "order", where), Order, f"{where}.order")
    if doc.get("series_order") is not None:
        series = _typed(doc["series_order"], bool, f"{where}.series_order")
        if series != (order is Order.SERIES):
            raise RuleViolation(
                f"{where}.series_order",
                f"series_order {str(series).lower()} contradicts order '{order.value}'",
                "invalid_rule",
            )
    boxes = _boxes(_required(doc, "boxes", where), f"{where}.boxes")
    bonus = _upper_bonus(_required(doc, "upper_bonus_rule", where), f"{where}.upper_bonus_rule")
    five, reported = _five_of_a_kind(
        doc.get("five_of_a_kind"), f"{where}.five_of_a_kind", boxes, order, where
    )
    parameters: list[Parameter] = [*upper_bonus_parameters(bonus, "upper section")]
    if reported is not None:
        parameters += five_of_a_kind_parameters(
            reported,
            "The Joker on the five-of-a-kind box: 'forced', 'free_choice' or 'none'.",
            "With a Joker: does a 0 in the five-of-a-kind box still trigger it?",
            scratched_reading=False,
        )
    parameters += play_parameters(
        throws, order, f"Which open boxes a turn may fill: {order.value}."
    )
    ruleset = Ruleset(
        id=ruleset_id,
        name=name,
        family="scorecard",
        dice=DICE,
        throws_per_turn=throws,
        min_players=min_players,
        max_players=max_players,
        source=CUSTOM_SOURCE,
        summary=f"A custom scorecard of {len(boxes)} boxes; upper bonus {bonus.points} at "
        f"{bonus.target}; order {order.value}; {throws} throws a turn.",
        # Reported for what they are, not settable: a custom ruleset changes by its document.
        parameters=tuple(replace(p, settable=False) for p in parameters),
        face_labels=labels,
        boxes=boxes,
        upper_bonus=bonus,
        five_of_a_kind=five,
        order=order,
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
