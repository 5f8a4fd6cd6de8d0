"""Examples of `/score`, `/holds`, `/distributions`, `/reviews` and `/scorecards/check` in
the OpenAPI document: a throw scored and coached, a final total forecast, a game reviewed,
sheets checked, and the problems of each (`tests/http/test_contract.py` replays every one
against the app)."""

from __future__ import annotations

from typing import Any

from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.http.examples import (
    Example,
    empty_list,
    invalid,
    invalid_rules,
    problem,
    queue_full,
    rule_violation,
    unknown_game,
)

Json = Any


def _boxes(**points: int) -> Json:
    return dict(points)


YAHTZEE_ALL_BUT_TWO = _boxes(
    ones=3,
    twos=6,
    threes=9,
    fours=12,
    fives=15,
    sixes=18,
    three_of_a_kind=24,
    four_of_a_kind=0,
    full_house=25,
    large_straight=40,
    yahtzee=0,
)
HOLDS_BODY = {
    "game": "yahtzee",
    "dice": [2, 3, 4, 6, 6],
    "throws_left": 0,
    "scorecard": {"filled": YAHTZEE_ALL_BUT_TWO},
}


def _score_options() -> Json:
    points = {"fours": 8, "sixes": 18, "three_of_a_kind": 26, "full_house": 25, "chance": 26}
    boxes = [
        "ones",
        "twos",
        "threes",
        "fours",
        "fives",
        "sixes",
        "three_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "yahtzee",
        "chance",
    ]
    names = {b.id: b.name for b in SCORECARD_GAMES["yahtzee"].boxes}
    return [
        {
            "box": b,
            "name": names[b],
            "points": points.get(b, 0),
            "bonus": 0,
            "upper_bonus": 0,
            "extra_bonus": 0,
        }
        for b in boxes
    ]


REVIEW_BODY = {
    "game": "yahtzee",
    "turns": [{"throws": [[2, 3, 3, 5, 6], [3, 3, 3, 4, 5]], "keeps": [[3, 3]], "box": "threes"}],
}
KEEP_33 = {"kind": "keep", "keep": [3, 3], "expected_total": 251.40544182696934}
KEEP_333 = {"kind": "keep", "keep": [3, 3, 3], "expected_total": 253.85781348267363}
THREES = {
    "kind": "box",
    "box": "threes",
    "name": "Threes",
    "points": 9,
    "bonus": 0,
    "upper_bonus": 0,
    "extra_bonus": 0,
    "expected_total": 248.72482167929266,
}
STOOD_LOSS = 253.85781348267363 - 248.72482167929266


def _best(option: Json) -> Json:
    return {**option, "best": True, "loss": 0.0}


def _decision(j: int, dice: list[int], chosen: Json, best: Json, loss: float) -> Json:
    return {
        "turn_index": 0,
        "decision_index": j,
        "throw": j + 1,
        "dice": dice,
        "throws_left": 2 - j,
        "chosen": {**chosen, "best": loss == 0.0, "loss": loss},
        "best_options": [_best(best)],
        "loss": loss,
    }


STOOD = _decision(1, [3, 3, 3, 4, 5], THREES, KEEP_333, STOOD_LOSS)
REVIEW = {
    "game": "yahtzee",
    "turns": [
        {
            "turn_index": 0,
            "box": "threes",
            "points": 9,
            "total": 9,
            "loss": STOOD_LOSS,
            "decisions": [_decision(0, [2, 3, 3, 5, 6], KEEP_33, KEEP_33, 0.0), STOOD],
        }
    ],
    "expected_loss": STOOD_LOSS,
    "decision_count": 2,
    "mean_loss": STOOD_LOSS / 2,
    "final_total": 9,
    "optimal_expected_score": 254.58772873449573,
    "complete": False,
    "luck": None,
    "costliest": [STOOD],
}


UPPER_IDS = ("ones", "twos", "threes", "fours", "fives", "sixes")
# A custom ruleset as small as one gets: the six upper boxes and a chance, bonus 50 at 60.
MINI_RULESET: Json = {
    "id": "mini",
    "name": "Mini scorecard",
    "dice_count": 5,
    "throws_per_turn": 3,
    "order": "free",
    "upper_bonus_rule": {"threshold": 60, "strictly_greater": False, "points": 50},
    "boxes": [
        *(
            {"id": box, "name": box.title(), "pattern": "face", "scoring": "face_sum", "face": f}
            for f, box in enumerate(UPPER_IDS, start=1)
        ),
        {"id": "chance", "name": "Chance", "pattern": "chance", "scoring": "sum_all"},
    ],
}
MINI_POINTS = {"twos": 4, "threes": 3, "fives": 5, "sixes": 6, "chance": 18}


def _mini_options() -> Json:
    names = {b["id"]: b["name"] for b in MINI_RULESET["boxes"]}
    return [
        {
            "box": b,
            "name": names[b],
            "points": MINI_POINTS.get(b, 0),
            "bonus": 0,
            "upper_bonus": 0,
            "extra_bonus": 0,
        }
        for b in names
    ]


# Yatzy in forced order (a house rule), its last box (Yatzy, 50) open: the final total is
# 237 or 287.
FORCED_LAST_TURN = {
    "game": "yatzy",
    "rules": {"order": "forced"},
    "scorecard": {
        "filled": _boxes(
            ones=3,
            twos=6,
            threes=9,
            fours=12,
            fives=15,
            sixes=18,
            one_pair=12,
            two_pairs=22,
            three_of_a_kind=18,
            four_of_a_kind=16,
            small_straight=15,
            large_straight=0,
            full_house=18,
            chance=23,
        )
    },
}
FORCED_ID = "79893942e4009b56"


def _last_turn(
    mean: float, sd: float, p95: int, chances: tuple[float, float], **more: Json
) -> Json:
    return {
        "game": "yatzy",
        "total": 237,
        "play": "expected_points",
        "mean": mean,
        "sd": sd,
        "min": 237,
        "max": 287,
        **{f"p{q}": 237 for q in (1, 5, 25, 50, 75)},
        "p95": p95,
        "p99": 287,
        "distribution": [
            {"total": 237, "probability": chances[0]},
            {"total": 287, "probability": chances[1]},
        ],
        **more,
        "ruleset_id": FORCED_ID,
    }


EXAMPLES: dict[str, list[Example]] = {
    "score": [
        Example(
            "unknown-game",
            "A game the service does not know",
            404,
            unknown_game("/score", "backgammon"),
            body={"game": "backgammon", "dice": [1, 2, 3, 4, 5]},
        ),
        Example(
            "empty-card",
            "A full house on an empty Yahtzee card",
            200,
            {
                "game": "yahtzee",
                "dice": [4, 4, 6, 6, 6],
                "options": _score_options(),
                "blocked": [],
                "total": 0,
            },
            body={"game": "yahtzee", "dice": [4, 4, 6, 6, 6]},
        ),
        Example(
            "custom-ruleset",
            "A custom ruleset (six upper boxes and a chance) instead of a built-in game",
            200,
            {
                "game": "mini",
                "dice": [2, 2, 3, 5, 6],
                "options": _mini_options(),
                "blocked": [],
                "total": 0,
                "ruleset_id": "dc1cddf017eee679",
            },
            body={"ruleset": MINI_RULESET, "dice": [2, 2, 3, 5, 6]},
        ),
        Example(
            "unknown-pattern",
            "A custom ruleset with a box pattern outside the vocabulary",
            422,
            rule_violation(
                "/score",
                "ruleset.boxes[6].pattern",
                "one of face, n_of_a_kind, pair, two_pairs, full_house, straight, chance, "
                "sum_over, got 'anything'",
                "unknown_pattern",
            ),
            body={
                "ruleset": {
                    **MINI_RULESET,
                    "boxes": [
                        *MINI_RULESET["boxes"][:6],
                        {"id": "chance", "pattern": "anything", "scoring": "sum_all"},
                    ],
                },
                "dice": [2, 2, 3, 5, 6],
            },
        ),
        Example(
            "die-out-of-range",
            "A die showing 7",
            400,
            invalid("/score", "dice[4]", "Expected `int` <= 6", "not_a_die"),
            body={"game": "yahtzee", "dice": [1, 2, 3, 4, 7]},
        ),
        Example(
            "impossible-box",
            "A scorecard no game can produce",
            422,
            rule_violation(
                "/score",
                "scorecard.filled.ones",
                "no throw can score 7 in 'ones'",
                "impossible_points",
            ),
            body={"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "scorecard": {"filled": {"ones": 7}}},
        ),
    ],
    "holds": [
        queue_full(
            "/holds",
            {
                "game": "yahtzee",
                "dice": [1, 2, 3, 4, 5],
                "throws_left": 2,
                "rules": {"joker": "none", "extra_bonus": 0},
            },
        ),
        Example(
            "unknown-game",
            "A game the service does not know",
            404,
            unknown_game("/holds", "backgammon"),
            body={"game": "backgammon", "dice": [1, 2, 3, 4, 5], "throws_left": 1},
        ),
        Example(
            "last-throw",
            "Two boxes left, no throw left: chance now beats scratching the straight",
            200,
            {
                "game": "yahtzee",
                "dice": [2, 3, 4, 6, 6],
                "throws_left": 0,
                "total": 187,
                "options": [
                    {
                        "kind": "box",
                        "box": "chance",
                        "name": "Chance",
                        "points": 21,
                        "bonus": 0,
                        "upper_bonus": 0,
                        "extra_bonus": 0,
                        "expected_total": 226.48074968943519,
                        "best": True,
                        "loss": 0.0,
                    },
                    {
                        "kind": "box",
                        "box": "small_straight",
                        "name": "Small straight",
                        "points": 0,
                        "bonus": 0,
                        "upper_bonus": 0,
                        "extra_bonus": 0,
                        "expected_total": 210.33333333333331,
                        "best": False,
                        "loss": 226.48074968943519 - 210.33333333333331,
                    },
                ],
            },
            body=HOLDS_BODY,
        ),
        Example(
            "throws-left-out-of-range",
            "Four throws left: more than any game's turn (four throws at most) allows",
            400,
            invalid("/holds", "throws_left", "Expected `int` <= 3", "out_of_range"),
            body={"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "throws_left": 4},
        ),
        Example(
            "too-many-throws-left",
            "Three throws left: a Yahtzee turn has three throws, the first one made",
            422,
            rule_violation(
                "/holds",
                "throws_left",
                "yahtzee allows 3 throw(s) a turn, so at most 2 can be left, not 3",
                "throws_exceeded",
            ),
            body={"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "throws_left": 3},
        ),
        Example(
            "throw-mismatch",
            "A throw number that contradicts the throws left",
            422,
            rule_violation(
                "/holds",
                "throw",
                "with 2 throw(s) left the dice come from throw 1, not 3",
                "throw_mismatch",
            ),
            body={"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "throws_left": 2, "throw": 3},
        ),
        Example(
            "table-loading",
            "The Yahtzee table is not loaded yet (5 s is the default DICEREF_RETRY_AFTER)",
            503,
            problem(
                503,
                "table-loading",
                "Table not loaded yet",
                "/holds",
                [],
                detail="the yahtzee table is loading; retry in 5 s",
                retry_after=5,
            ),
            body=HOLDS_BODY,
        ),
    ],
    "distributions": [
        queue_full("/distributions", {"game": "yahtzee", "rules": {"joker": "none"}}),
        Example(
            "unknown-game",
            "A game the service does not know",
            404,
            unknown_game("/distributions", "backgammon"),
            body={"game": "backgammon"},
        ),
        Example(
            "last-turn-target",
            "Yatzy in forced order, the last turn to come with only the Yatzy box open: 287 "
            "or 237 when playing to reach 260, and the chance of reaching it",
            200,
            _last_turn(
                239.3014321262849,
                10.477357323407034,
                237,
                (0.953971357474301, 0.04602864252569899),
                play="target",
                target=260,
                win_probability=0.04602861404418945,
            ),
            body={**FORCED_LAST_TURN, "target": 260},
        ),
        Example(
            "dice-thrown",
            "The same card, three sixes thrown with two throws left",
            200,
            _last_turn(
                241.66820987654333,
                14.547106598073203,
                287,
                (0.9066358024691363, 0.0933641975308642),
            ),
            body={**FORCED_LAST_TURN, "dice": [6, 6, 6, 2, 3], "throws_left": 2},
        ),
        Example(
            "negative-target",
            "A target below 0",
            400,
            invalid("/distributions", "target", "Expected `int` >= 0", "out_of_range"),
            body={"game": "yahtzee", "target": -1},
        ),
        Example(
            "dice-without-throws-left",
            "Dice without the throws still allowed after them",
            422,
            rule_violation(
                "/distributions",
                "throws_left",
                "the throws still allowed after the dice are required",
                "missing_field",
            ),
            body={"game": "yahtzee", "dice": [1, 2, 3, 4, 5]},
        ),
        Example(
            "table-solving",
            "House rules whose tables are not solved yet: the first request queues the solves "
            "(5 s is the default DICEREF_RETRY_AFTER)",
            503,
            problem(
                503,
                "table-solving",
                "Table being solved",
                "/distributions",
                [],
                detail=f"the table of these rules ({FORCED_ID}) is queued for a solve; "
                "retry in 5 s",
                retry_after=5,
                progress=0.0,
            ),
            body=FORCED_LAST_TURN,
        ),
    ],
    "reviews": [
        queue_full("/reviews", {**REVIEW_BODY, "rules": {"joker": "none", "extra_bonus": 0}}),
        Example(
            "unknown-game",
            "A game the service does not know",
            404,
            unknown_game("/reviews", "backgammon"),
            body={"game": "backgammon", "turns": []},
        ),
        Example(
            "one-turn",
            "A first turn: the pair of threes kept was best; standing on three threes with a "
            "throw left cost 5.1 points in expectation",
            200,
            REVIEW,
            body=REVIEW_BODY,
        ),
        Example(
            "not-five-dice",
            "A throw of four dice",
            400,
            invalid("/reviews", "turns[0].throws[0]", "expected 5 dice, got 4", "wrong_dice_count"),
            body={"game": "yahtzee", "turns": [{"throws": [[1, 2, 3, 4]], "box": "chance"}]},
        ),
        Example(
            "kept-die-changed",
            "A kept die that changed in the next throw",
            422,
            rule_violation(
                "/reviews",
                "turns[0].throws[1]",
                "throw 2 (2-3-4-4-5) lacks the kept 3: kept dice are not thrown again",
                "kept_die_changed",
            ),
            body={
                "game": "yahtzee",
                "turns": [
                    {
                        "throws": [[2, 3, 3, 5, 6], [2, 3, 4, 4, 5]],
                        "keeps": [[3, 3]],
                        "box": "chance",
                    }
                ],
            },
        ),
        Example(
            "table-loading",
            "The Yahtzee table is not loaded yet (5 s is the default DICEREF_RETRY_AFTER)",
            503,
            problem(
                503,
                "table-loading",
                "Table not loaded yet",
                "/reviews",
                [],
                detail="the yahtzee table is loading; retry in 5 s",
                retry_after=5,
            ),
            body=REVIEW_BODY,
        ),
    ],
    "scorecardsCheck": [
        Example(
            "unknown-game",
            "A game the service does not know",
            404,
            unknown_game("/scorecards/check", "backgammon"),
            body={"game": "backgammon", "sheets": [{"player": "Ann", "entries": []}]},
        ),
        Example(
            "rules-not-accepted",
            "House rules with an upper bonus of -5 points",
            422,
            invalid_rules(
                "/scorecards/check",
                "upper_bonus_points",
                "the value must be at least 0, got -5",
                "out_of_range",
            ),
            body={
                "game": "yahtzee",
                "sheets": [{"player": "Ann", "entries": []}],
                "rules": {"upper_bonus_points": -5},
            },
        ),
        Example(
            "two-sheets",
            "Two sheets at an event table, one with an impossible value",
            200,
            {
                "game": "yahtzee",
                "sheets": [
                    {
                        "player": "Ann",
                        "valid": True,
                        "problems": [],
                        "upper_subtotal": 18,
                        "upper_bonus": 0,
                        "extra_bonus": 0,
                        "total": 43,
                        "complete": False,
                        "rank": 1,
                    },
                    {
                        "player": "Bob",
                        "valid": False,
                        "problems": [
                            {
                                "field": "sheets[1].entries[0].points",
                                "box": "fours",
                                "reason": "impossible value: no throw can score 9 in 'fours'",
                            }
                        ],
                        "upper_subtotal": 9,
                        "upper_bonus": 0,
                        "extra_bonus": 0,
                        "total": 31,
                        "complete": False,
                        "rank": 2,
                    },
                ],
                "standings": [
                    {"rank": 1, "player": "Ann", "total": 43},
                    {"rank": 2, "player": "Bob", "total": 31},
                ],
            },
            body={
                "game": "yahtzee",
                "sheets": [
                    {
                        "player": "Ann",
                        "entries": [
                            {"box": "sixes", "points": 18, "dice": [6, 6, 6, 2, 3]},
                            {"box": "full_house", "points": 25},
                        ],
                        "claimed_total": 43,
                    },
                    {
                        "player": "Bob",
                        "entries": [{"box": "fours", "points": 9}, {"box": "chance", "points": 22}],
                    },
                ],
            },
        ),
        Example(
            "no-game",
            "Neither a built-in game nor a custom ruleset",
            422,
            rule_violation(
                "/scorecards/check",
                "game",
                "a built-in game or a custom ruleset is required",
                "missing_field",
            ),
            body={"sheets": [{"player": "Ann", "entries": []}]},
        ),
        empty_list(
            "no-sheet", "No sheet to check", "/scorecards/check", "sheets", {"game": "yahtzee"}
        ),
    ],
}
