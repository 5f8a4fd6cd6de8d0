"""Yardkle scoring: what a throw offers to set aside, and what each set-aside is worth.

A set-aside is any multiset of the thrown dice in which every die belongs to a combination
of the table; it is worth its best split into combinations (the `best_valuation` reading).
The best split of every multiset of up to six dice is found once, by exhaustive search over
the combinations as data, and kept per ruleset: a throw's set-asides, the turn referee and
the solver are then all lookups in the same `Valuations`, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import product

from diceref.core.cache import per_ruleset
from diceref.core.dice import FACES, Dice, canonical, counts, multisets, wrong_dice_count
from diceref.core.errors import RuleViolation
from diceref.games.yardkle.rules.ruleset import (
    DEFAULT_RULES,
    RULESETS_KEPT,
    Combination,
    YardkleRules,
)

__all__ = [
    "DEFAULT_RULES",
    "Part",
    "SetAside",
    "Valuation",
    "YardkleRules",
    "is_yardkle",
    "missing_dice",
    "placements",
    "set_asides",
    "validate_throw",
    "valuation",
]

Counts = tuple[int, ...]


@dataclass(frozen=True)
class Part:
    """One combination of a split: which, the dice forming it, and its points."""

    combination: Combination
    dice: Dice

    @property
    def points(self) -> int:
        return self.combination.points


@dataclass(frozen=True)
class Valuation:
    """A multiset of dice scored completely: its best points and the split that gives them."""

    dice: Dice
    points: int
    parts: tuple[Part, ...]


@dataclass(frozen=True)
class SetAside:
    """A legal set-aside from a throw: the dice kept and how they score."""

    dice: Dice
    points: int
    parts: tuple[Part, ...]


def placements(combo: Combination, c: Counts) -> Iterator[Counts]:
    """Every way `combo` can take dice out of counts `c`, as the counts it uses."""

    def place(g: int, used: list[int], low: int) -> Iterator[Counts]:
        if g == len(combo.groups):
            yield tuple(used)
            return
        size = combo.groups[g]
        # Equal consecutive group sizes are interchangeable: take faces in order once.
        start = low if g and combo.groups[g - 1] == size else 1
        for face in combo.faces:
            if face < start:
                continue
            if combo.distinct_faces and used[face - 1]:
                continue
            if c[face - 1] - used[face - 1] < size:
                continue
            used[face - 1] += size
            yield from place(g + 1, used, face)
            used[face - 1] -= size

    yield from place(0, [0] * 6, 1)


def _best_splits(rules: YardkleRules) -> dict[Counts, tuple[int, tuple[tuple[int, Counts], ...]]]:
    """Best (points, split) of every multiset of up to `rules.dice` dice that scores fully.

    A split is a tuple of (combination index, counts it uses).  Multisets are visited by size,
    so every strict sub-multiset is settled before it is needed.  Equal points prefer the split
    with fewer combinations (three 1s over three single 1s), then the earliest listed, so the
    split reported is deterministic.
    """
    combos = rules.combinations
    best: dict[Counts, tuple[int, tuple[tuple[int, Counts], ...]]] = {(0,) * 6: (0, ())}
    for size in range(1, rules.dice + 1):
        for dice in multisets(size):
            c = counts(dice)
            found: tuple[int, tuple[tuple[int, Counts], ...]] | None = None
            for i, combo in enumerate(combos):
                if combo.size > size:
                    continue
                for used in placements(combo, c):
                    rest = tuple(a - b for a, b in zip(c, used, strict=True))
                    tail = best.get(rest)
                    if tail is None:
                        continue
                    points = combo.points + tail[0]
                    split = ((i, used), *tail[1])
                    if found is None or (points, -len(split)) > (found[0], -len(found[1])):
                        found = (points, split)
            if found is not None:
                best[c] = found
    return best


def _dice_of(c: Counts) -> Dice:
    return tuple(f for f in FACES for _ in range(c[f - 1]))


@per_ruleset(RULESETS_KEPT)
def _valuations(rules: YardkleRules) -> dict[Counts, Valuation]:
    combos = rules.combinations
    out: dict[Counts, Valuation] = {}
    for c, (points, split) in _best_splits(rules).items():
        if not any(c):
            continue
        parts = tuple(Part(combos[i], _dice_of(used)) for i, used in split)
        parts = tuple(sorted(parts, key=lambda p: (-p.points, p.dice)))
        out[c] = Valuation(_dice_of(c), points, parts)
    return out


def valuation(dice: Sequence[int], rules: YardkleRules = DEFAULT_RULES) -> Valuation | None:
    """The best split of these dice into combinations, None unless every die scores."""
    return _valuations(rules).get(counts(canonical(dice)))


@per_ruleset(RULESETS_KEPT)
def _set_asides_of(rules: YardkleRules) -> dict[Dice, tuple[SetAside, ...]]:
    """The set-asides of every throw of the rules' dice (923 throws for six): built
    together, so that the entry the budget counts is the whole of what is kept."""
    table = _valuations(rules)
    return {
        throw: _set_asides(throw, table) for n in range(1, rules.dice + 1) for throw in multisets(n)
    }


def _set_asides(throw: Dice, table: dict[Counts, Valuation]) -> tuple[SetAside, ...]:
    c = counts(throw)
    found: list[SetAside] = []
    for sub in product(*(range(k + 1) for k in c)):
        v = table.get(sub)
        if v is not None:
            found.append(SetAside(v.dice, v.points, v.parts))
    found.sort(key=lambda s: (-s.points, len(s.dice), s.dice))
    return tuple(found)


def set_asides(dice: Sequence[int], rules: YardkleRules = DEFAULT_RULES) -> tuple[SetAside, ...]:
    """Every legal set-aside of a throw, best points first (empty: the throw is a Yardkle)."""
    throw = canonical(dice)
    found = _set_asides_of(rules).get(throw)
    return _set_asides(throw, _valuations(rules)) if found is None else found


def is_yardkle(dice: Sequence[int], rules: YardkleRules = DEFAULT_RULES) -> bool:
    return not set_asides(dice, rules)


def validate_throw(dice: Sequence[int], where: str, rules: YardkleRules = DEFAULT_RULES) -> None:
    if not 1 <= len(dice) <= rules.dice:
        reason = wrong_dice_count(1, rules.dice, len(dice))
        raise RuleViolation(where, reason, "wrong_dice_count")
    for i, d in enumerate(dice):
        if d not in FACES:
            raise RuleViolation(f"{where}[{i}]", f"a die shows 1 to 6, got {d}", "not_a_die")


def missing_dice(thrown: Sequence[int], kept: Sequence[int]) -> Dice:
    """Dice in `kept` beyond what `thrown` shows (empty when `kept` is a sub-multiset)."""
    have = counts(canonical(thrown))
    want = counts(canonical(kept))
    extra = tuple(max(0, w - h) for w, h in zip(want, have, strict=True))
    return _dice_of(extra)
