"""The one-line summary of a scorecard game under house rules, read off its `Ruleset`.

A built-in game's summary is prose written with its rulebook; under house rules that prose
would describe rules the request did not ask for (`joker: none` and still "forced Joker").
So a variant's summary is derived from the compiled ruleset itself: the box count, the
upper bonus, the five-of-a-kind rule, the throws and the order, and then every other
reported parameter whose value differs from the built-in game's (by name and value).
"""

from __future__ import annotations

from diceref.core.game import ParameterValue
from diceref.games.scorecard.rules.ruleset import DEFAULT_THROWS, Joker, Order, Ruleset

JOKERS = {Joker.FORCED: "forced Joker", Joker.FREE_CHOICE: "free-choice Joker", Joker.NONE: ""}
ORDERS = {
    Order.FREE: "",
    Order.SERIES: "upper boxes first (series order)",
    Order.FORCED: "boxes filled in scorecard order",
}
# The parameters the clauses above already say.
SAID = frozenset(
    {
        "upper_bonus_threshold",
        "upper_bonus_points",
        "upper_bonus_strictly_greater",
        "extra_bonus",
        "joker",
        "throws_per_turn",
        "order",
    }
)

WHERE_A_JOKER_GOES = frozenset({"joker_when_scratched", "matching_upper_forced"})


def house_summary(ruleset: Ruleset, base: Ruleset) -> str:
    """`ruleset` (a variant of the built-in `base`) in one line, from its rule objects."""
    bonus = ruleset.upper_bonus
    compare = "above" if bonus.strictly_greater else "at"
    clauses = [
        f"{len(ruleset.boxes)} boxes",
        f"upper bonus {bonus.points} {compare} {bonus.threshold}"
        if bonus.points
        else "no upper bonus",
    ]
    five = ruleset.five_of_a_kind
    said = SAID
    if five is not None:
        name = ruleset.box_name[five.box]
        extra = f"{five.extra_bonus} per extra {name}" if five.extra_bonus else "no extra bonus"
        clauses += [extra, JOKERS[five.joker] or "no Joker"]
    else:  # no extra bonus and no Joker (the rule is dropped when both are off)
        clauses += ["no extra bonus", "no Joker"]
    if five is None or five.joker is Joker.NONE:
        said |= WHERE_A_JOKER_GOES  # inert without a Joker
    throws = ruleset.throws_per_turn
    if throws != DEFAULT_THROWS:
        clauses.append(f"{throws} throw{'' if throws == 1 else 's'} a turn")
    if ORDERS[ruleset.order]:
        clauses.append(ORDERS[ruleset.order])
    built_in = {p.name: p.value for p in base.parameters}
    clauses += [
        f"{p.name} {_value(p.value)}"
        for p in ruleset.parameters
        if p.name not in said and p.name in built_in and p.value != built_in[p.name]
    ]
    return f"{base.name} under house rules: {'; '.join(clauses)}."


def _value(value: ParameterValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "/".join(str(v) for v in value)
    return str(value)
