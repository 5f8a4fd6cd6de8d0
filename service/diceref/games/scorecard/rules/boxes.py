"""Scorecard boxes described as data: a pattern the dice must show and a rule for the points.

Every scorecard game in the service is a list of these descriptions; nothing below knows a
game by name.  Keeping the vocabulary small (seven patterns, six point rules) is what lets a
new game be added by describing it, and lets the solver precompute each box's points for
all 252 throws as one array.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from diceref.core.dice import Dice, counts


class Section(StrEnum):
    UPPER = "upper"
    LOWER = "lower"


class Pattern(StrEnum):
    """What the dice must show for the box to score."""

    FACE = "face"  # any throw; the points depend on how many of `face` it shows
    N_OF_A_KIND = "n_of_a_kind"  # at least `n` dice of one face
    PAIR = "pair"
    TWO_PAIRS = "two_pairs"
    FULL_HOUSE = "full_house"  # three of one face and two of another
    STRAIGHT = "straight"  # the faces include one of `runs`
    CHANCE = "chance"  # anything
    SUM_OVER = "sum_over"  # the five dice total more than `over`


class Points(StrEnum):
    """How a qualifying throw is turned into the number written in the box."""

    FACE_SUM = "face_sum"  # count of `face` x face
    FACE_RELATIVE = "face_relative"  # (count of `face` - target) x face; may be negative
    NOTCHES = "notches"  # notches[0] for three of `face`, notches[1] for four or five
    SUM_ALL = "sum_all"  # all five dice
    SUM_FORMED = "sum_formed"  # only the dice forming the combination, best way
    FIXED = "fixed"  # `fixed` points


@dataclass(frozen=True)
class Box:
    """One box of a scorecard: identity, pattern, points; pure data plus pure functions."""

    id: str
    name: str
    section: Section
    pattern: Pattern
    points: Points
    face: int = 0
    n: int = 0
    runs: tuple[tuple[int, ...], ...] = ()
    fixed: int = 0
    over: int = 0
    target: int = 0
    notches: tuple[int, int] = (0, 0)
    first_throw_multiplier: int = 1
    premium: int = 0
    premium_doubled: bool = False
    two_pairs_distinct: bool = True  # False: four (or five) of a kind also counts as two pairs
    full_house_distinct: bool = True  # False: five of a kind also counts as a full house
    how: str = field(default="", compare=False)

    def formed(self, dice: Dice) -> int | None:
        """Points of the bare combination (before multiplier and premium), None if absent."""
        c = counts(dice)
        total = sum(dice)
        match self.pattern:
            case Pattern.FACE:
                k = c[self.face - 1]
                if self.points is Points.FACE_SUM:
                    return k * self.face
                if self.points is Points.FACE_RELATIVE:
                    return (k - self.target) * self.face
                # NOTCHES: fewer than three of the face is no move of the slide
                if k >= 4:
                    return self.notches[1]
                if k == 3:
                    return self.notches[0]
                return None
            case Pattern.N_OF_A_KIND:
                faces = [f for f in range(6, 0, -1) if c[f - 1] >= self.n]
                return self._value(total, self.n * faces[0]) if faces else None
            case Pattern.PAIR:
                faces = [f for f in range(6, 0, -1) if c[f - 1] >= 2]
                return self._value(total, 2 * faces[0]) if faces else None
            case Pattern.TWO_PAIRS:
                faces = [f for f in range(6, 0, -1) if c[f - 1] >= 2]
                if len(faces) >= 2:
                    return self._value(total, 2 * faces[0] + 2 * faces[1])
                quads = [f for f in range(6, 0, -1) if c[f - 1] >= 4]
                if quads and not self.two_pairs_distinct:
                    return self._value(total, 4 * quads[0])
                return None
            case Pattern.FULL_HOUSE:
                full = sorted(c)[-2:] == [2, 3] or (not self.full_house_distinct and 5 in c)
                return self._value(total, total) if full else None
            case Pattern.STRAIGHT:
                present = set(dice)
                runs = [r for r in self.runs if present.issuperset(r)]
                return self._value(total, max(sum(r) for r in runs)) if runs else None
            case Pattern.CHANCE:
                return self._value(total, total)
            case Pattern.SUM_OVER:
                return self._value(total, total) if total > self.over else None
        raise AssertionError(self.pattern)  # pragma: no cover - exhaustive match

    def _value(self, total: int, formed: int) -> int:
        if self.points is Points.FIXED:
            return self.fixed
        if self.points is Points.SUM_ALL:
            return total
        return formed

    def natural_points(self, dice: Dice, first_throw: bool) -> int:
        """What the box records for these dice under its own pattern (0: a scratch)."""
        base = self.formed(dice)
        if base is None:
            return 0
        multiplier = self.first_throw_multiplier if first_throw else 1
        return base * multiplier + self.premium * (multiplier if self.premium_doubled else 1)

    def joker_points(self, dice: Dice) -> int:
        """Full value under a Joker: the pattern is taken as met (fixed points or the sum)."""
        if self.section is Section.UPPER:
            return self.natural_points(dice, first_throw=False)
        if self.points is Points.FIXED:
            return self.fixed
        if self.points is Points.SUM_FORMED:
            # Only the dice forming the combination count, so a Joker is worth what those
            # dice would score: the box's own value where five of a kind already forms it,
            # else the dice the combination would use (a run's sum, two pairs of the face).
            formed = self.formed(dice)
            if formed is not None:
                return formed
            if self.pattern is Pattern.STRAIGHT:
                return max(sum(r) for r in self.runs)
            if self.pattern is Pattern.TWO_PAIRS:
                return 4 * dice[0]
        return sum(dice)

    @property
    def is_five_of_a_kind(self) -> bool:
        return self.pattern is Pattern.N_OF_A_KIND and self.n == 5


def upper(face: int, box_id: str, name: str, points: Points = Points.FACE_SUM, **kw: object) -> Box:
    """A box for one face (the upper section of every scorecard game)."""
    return Box(box_id, name, Section.UPPER, Pattern.FACE, points, face=face, **kw)  # type: ignore[arg-type]


SMALL_STRAIGHT_RUNS = ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6))
LARGE_STRAIGHT_RUNS = ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6))


_PATTERN_TEXT = {
    Pattern.PAIR: "two dice of one face",
    Pattern.TWO_PAIRS: "two dice of one face and two of another",
    Pattern.FULL_HOUSE: "three dice of one face and two of another",
    Pattern.CHANCE: "any dice",
}


def describe(box: Box) -> str:
    """How the box scores, in one sentence built from its description (for GET /games)."""
    if box.pattern is Pattern.FACE:
        if box.points is Points.FACE_SUM:
            return f"Sum of the dice showing {box.face}."
        if box.points is Points.FACE_RELATIVE:
            return (
                f"(number of dice showing {box.face} - {box.target}) x {box.face}; "
                "negative when fewer."
            )
        return (
            f"Three dice showing {box.face}: {box.notches[0]}; four or five: {box.notches[1]}; "
            "otherwise 0."
        )
    if box.pattern is Pattern.N_OF_A_KIND:
        need = f"at least {box.n} dice of one face" if box.n < 5 else "five dice of one face"
    elif box.pattern is Pattern.STRAIGHT:
        need = "one of " + ", ".join("-".join(map(str, r)) for r in box.runs)
    elif box.pattern is Pattern.SUM_OVER:
        need = f"five dice totalling more than {box.over}"
    else:
        need = _PATTERN_TEXT[box.pattern]
        if box.pattern is Pattern.TWO_PAIRS and not box.two_pairs_distinct:
            need += " (four of a kind counts)"
        if box.pattern is Pattern.FULL_HOUSE and not box.full_house_distinct:
            need += " (five of a kind counts)"
    points = {
        Points.FIXED: f"{box.fixed} points",
        Points.SUM_ALL: "the sum of all five dice",
        Points.SUM_FORMED: "the sum of the dice forming it (best way)",
    }.get(box.points, "")
    text = f"Needs {need}; scores {points}"
    if box.first_throw_multiplier != 1:
        text += f", x{box.first_throw_multiplier} when made on the turn's first throw"
    if box.premium:
        text += f", plus a premium of {box.premium}"
        text += " (doubled with it)" if box.premium_doubled else " (not doubled)"
    return text + "; otherwise 0."
