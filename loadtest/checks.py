"""What the load test expects of each answer, from diceref's own rules (no locust import here,
so the test suite can check the checks).

Requests come from a pool of positions reached by playing random legal games; each answer is
compared with what the rules say locally.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass
from itertools import product
from typing import Any

from diceref.core.dice import canonical
from diceref.games.chicago.rules.ruleset import CHICAGO, Call
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.scorecard import (
    Scorecard,
    card_total,
    extra_bonus_for,
    is_complete,
    legal_options,
    validate_scorecard,
)
from diceref.games.yardkle.rules.scoring import set_asides

GAMES = tuple(
    g.strip()
    for g in os.environ.get("LOADTEST_GAMES", ",".join(SCORECARD_GAMES)).split(",")
    if g.strip()
)
MAX_SCORES = {"yahtzee": 1575, "yardzee": 1575, "dice-poker": 1835, "russian-poker": 510,
              "chute-5": 99}  # fmt: skip
ALL_GAME_IDS = [*SCORECARD_GAMES, "chicago", "yardkle"]


class WrongAnswer(Exception):
    """The service answered, but not what the rules say."""


@dataclass(frozen=True)
class Position:
    game: str
    card: Scorecard
    dice: tuple[int, ...]

    def card_json(self) -> dict[str, Any]:
        return {"filled": dict(self.card.boxes), "extra_bonus": self.card.extra_bonus}


def positions(seed: int, games: tuple[str, ...] = GAMES, per_game: int = 60) -> list[Position]:
    """Cards reached by playing random legal turns: valid by construction (and checked)."""
    rng = random.Random(seed)
    found = []
    for game in games:
        ruleset = SCORECARD_GAMES[game]
        for _ in range(per_game):
            card = Scorecard()
            for _ in range(rng.randrange(len(ruleset.boxes))):
                dice = tuple(rng.randint(1, 6) for _ in range(5))
                option = rng.choice(legal_options(ruleset, card, dice, 3))
                extra = extra_bonus_for(ruleset, card.boxes, dice)
                boxes = {**card.boxes, option.box: option.points}
                card = Scorecard(boxes, card.extra_bonus + extra)
            if is_complete(ruleset, card.boxes):
                continue
            validate_scorecard(ruleset, card)
            found.append(Position(game, card, tuple(rng.randint(1, 6) for _ in range(5))))
    return found


def _boxes(position: Position, throw: int) -> list[tuple[str, int, int]]:
    ruleset = SCORECARD_GAMES[position.game]
    return sorted(
        (o.box, o.points, o.bonus)
        for o in legal_options(ruleset, position.card, list(position.dice), throw)
    )


def _distinct_keeps(dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    counts = Counter(dice)
    faces = sorted(counts)
    return {
        tuple(f for f, n in zip(faces, taken, strict=True) for _ in range(n))
        for taken in product(*(range(counts[f] + 1) for f in faces))
    }


def check_score(position: Position, throw: int, body: dict[str, Any]) -> None:
    """Exactly the legal boxes, with the rules' points and bonuses, and the card's total."""
    ruleset = SCORECARD_GAMES[position.game]
    got = sorted((o["box"], o["points"], o["bonus"]) for o in body["options"])
    if got != _boxes(position, throw):
        raise WrongAnswer(f"/score boxes {got} differ from the rules")
    if body["total"] != card_total(ruleset, position.card) or body["game"] != position.game:
        raise WrongAnswer(f"/score total {body['total']} or game {body['game']} wrong")


def check_holds(position: Position, throws_left: int, body: dict[str, Any]) -> None:
    """Sorted best first; the legal boxes as /score gives them; every distinct keep once."""
    ruleset = SCORECARD_GAMES[position.game]
    options = body["options"]
    values = [o["expected_total"] for o in options]
    if values != sorted(values, reverse=True):
        raise WrongAnswer("/holds options are not sorted by expected_total")
    boxes = sorted((o["box"], o["points"], o["bonus"]) for o in options if o["kind"] == "box")
    if boxes != _boxes(position, 3 - throws_left):
        raise WrongAnswer(f"/holds boxes {boxes} differ from the rules")
    keeps = [tuple(o["keep"]) for o in options if o["kind"] == "keep"]
    expected_keeps = _distinct_keeps(canonical(position.dice)) if throws_left else set()
    if len(keeps) != len(set(keeps)) or set(keeps) != expected_keeps:
        raise WrongAnswer(f"/holds keeps {sorted(keeps)} are not every distinct keep once")
    if body["total"] != card_total(ruleset, position.card):
        raise WrongAnswer(f"/holds total {body['total']} wrong")


def check_chicago_throw(dice: list[int], body: dict[str, Any]) -> None:
    want = {c.value: CHICAGO.value(canonical(dice), c) for c in Call}
    if body["scores"] != want or body["dice"] != sorted(dice):
        raise WrongAnswer(f"/chicago/throws scores {body['scores']} != {want}")


def check_chicago_holds(body: dict[str, Any]) -> None:
    """The starter (no call) gets a ranking per call: high most expected first, low least."""
    if [r["call"] for r in body["rankings"]] != ["high", "low"]:
        raise WrongAnswer("/chicago/holds: the starter gets one ranking per call")
    for ranking in body["rankings"]:
        values = [o["expected_points"] for o in ranking["options"]]
        if not values or values != sorted(values, reverse=ranking["call"] == "high"):
            raise WrongAnswer("/chicago/holds options not ranked by expectation")


def check_yardkle_throw(dice: list[int], body: dict[str, Any]) -> None:
    expected = [list(s.dice) for s in set_asides(dice)]
    got = [s["dice"] for s in body["set_asides"]]
    if got != expected or body["yardkle"] != (not expected):
        raise WrongAnswer(f"/yardkle/throws set-asides {got} != {expected}")


def check_yardkle_holds(dice: list[int], body: dict[str, Any]) -> None:
    expected = sorted(list(s.dice) for s in set_asides(dice))
    options = body["options"]
    if sorted(o["set_aside"] for o in options) != expected:
        raise WrongAnswer("/yardkle/holds set-asides differ from the rules")
    values = [o["expected_points"] for o in options]
    if values != sorted(values, reverse=True):
        raise WrongAnswer("/yardkle/holds options not ranked")
    if options and (body["best_option"]["expected_points"] != values[0] or not options[0]["best"]):
        raise WrongAnswer("/yardkle/holds best is not the first option")


def check_games(body: list[dict[str, Any]]) -> None:
    if [g["id"] for g in body] != ALL_GAME_IDS:
        raise WrongAnswer("/games does not list every game in order")


def check_game(game: str, body: dict[str, Any]) -> None:
    if body["id"] != game:
        raise WrongAnswer(f"/games/{game} describes {body['id']}")
    if body.get("tables") == "loading":  # answered at once, before the tables are loaded
        if body["max_score"] is not None:
            raise WrongAnswer(f"/games/{game} gives max_score while its tables load")
    elif game in MAX_SCORES and body["max_score"] != MAX_SCORES[game]:
        raise WrongAnswer(f"/games/{game} max_score {body['max_score']}")
