"""Examples of the `/yardkle/` operations in the OpenAPI document: set-asides of a throw,
turns and games refereed, the coach with and without a score to reach, a game reviewed
(`tests/http/test_contract.py` replays every one against the app)."""

from __future__ import annotations

from typing import Any

from diceref.games.yardkle.rules.ruleset import YardkleRules
from diceref.http.examples import (
    Example,
    empty_list,
    invalid,
    invalid_rules,
    problem,
    queue_full,
    rule_violation,
)

Json = Any


def _single(face: int, points: int) -> Json:
    name = {1: "single_1", 5: "single_5"}[face]
    return {"combination": name, "name": f"Single {face}", "dice": [face], "points": points}


def _singles(faces: list[int], dice_left_count: int, hot_dice: bool = False) -> Json:
    """A set-aside of single 1s and 5s, worth 100 and 50 each."""
    split = [_single(face, 100 if face == 1 else 50) for face in faces]
    return {
        "dice": faces,
        "points": sum(s["points"] for s in split),
        "split": split,
        "dice_left_count": dice_left_count,
        "hot_dice": hot_dice,
    }


THOUSAND = YardkleRules(three_ones=1000)

YARDKLE_TURN_THROWS = [
    {"dice": [1, 5, 2, 3, 3, 3], "set_aside": [1, 3, 3, 3]},
    {"dice": [5, 4], "set_aside": [5]},
]

REVIEW_TURN = {
    "throws": [
        {"dice": [1, 5, 2, 3, 3, 4], "set_aside": [1, 5]},
        {"dice": [5, 2, 2, 6], "set_aside": [5]},
        {"dice": [1, 3, 4], "set_aside": [1]},
    ],
    "end": "bank",
    "banked_total": 1000,
}
FIRST_LOSS = 370.0621401390541 - 295.4284727623822


def table_solving(instance: str, body: Json) -> Example:
    """The 503 of an operation under house rules whose table is not solved yet (three 1s
    at 1,000): the first request queues the solve."""
    return Example(
        "table-solving",
        "House rules whose table is not solved yet: the first request queues the solve "
        "(5 s is the default DICEREF_RETRY_AFTER)",
        503,
        problem(
            503,
            "table-solving",
            "Table being solved",
            instance,
            [],
            detail=f"the table of these rules ({THOUSAND.rules_hash}) is queued for a "
            "solve; retry in 5 s",
            retry_after=5,
            progress=0.0,
        ),
        body=body,
    )


def _choice(set_aside: list[int], decision: str, expected_points: float) -> Json:
    return {"set_aside": set_aside, "decision": decision, "expected_points": expected_points}


def _reviewed(j: int, dice: list[int], in_hand: int, chosen: Json, best: Json, loss: float) -> Json:
    return {
        "turn_index": 0,
        "decision_index": j,
        "throw": j + 1,
        "dice": dice,
        "turn_points": in_hand,
        "chosen": chosen,
        "best_options": [best],
        "loss": loss,
    }


KEPT_1_5 = _reviewed(
    0,
    [1, 2, 3, 3, 4, 5],
    0,
    _choice([1, 5], "throw_on", 295.4284727623822),
    _choice([1], "throw_on", 370.0621401390541),
    FIRST_LOSS,
)
THEN_5 = _choice([5], "throw_on", 254.31645653995704)
THEN_BANK = _choice([1], "bank", 300.0)
REVIEW = {
    "turns": [
        {
            "turn_index": 0,
            "end": "bank",
            "points": 300,
            "optimal_expected_points": 542.0632439992709,
            "loss": FIRST_LOSS,
            "luck": 300 - 542.0632439992709 + FIRST_LOSS,
            "decisions": [
                KEPT_1_5,
                _reviewed(1, [2, 2, 5, 6], 150, THEN_5, THEN_5, 0.0),
                _reviewed(2, [1, 3, 4], 200, THEN_BANK, THEN_BANK, 0.0),
            ],
        }
    ],
    "expected_loss": FIRST_LOSS,
    "decision_count": 3,
    "mean_loss": FIRST_LOSS / 3,
    "points": 300,
    "optimal_expected_points": 542.0632439992709,
    "luck": 300 - 542.0632439992709 + FIRST_LOSS,
    "costliest": [KEPT_1_5],
}


EXAMPLES: dict[str, list[Example]] = {
    "yardkleThrows": [
        Example(
            "three-dice",
            "A 1, a 2 and a 5",
            200,
            {
                "dice": [1, 2, 5],
                "yardkle": False,
                "max_points": 150,
                "set_asides": [
                    _singles([1, 5], dice_left_count=1),
                    _singles([1], dice_left_count=2),
                    _singles([5], dice_left_count=2),
                ],
            },
            body={"dice": [1, 5, 2]},
        ),
        Example(
            "no-dice",
            "A throw without dice",
            400,
            invalid("/yardkle/throws", "dice", "expected 1 to 6 dice, got 0", "wrong_dice_count"),
            body={"dice": []},
        ),
        Example(
            "house-rules",
            "House rules: three 1s are worth 1,000",
            200,
            {
                "dice": [1, 1, 1],
                "yardkle": False,
                "max_points": 1000,
                "set_asides": [
                    {
                        "dice": [1, 1, 1],
                        "points": 1000,
                        "split": [
                            {
                                "combination": "three_1s",
                                "name": "Three 1s",
                                "dice": [1, 1, 1],
                                "points": 1000,
                            }
                        ],
                        "dice_left_count": 6,
                        "hot_dice": True,
                    },
                    _singles([1, 1], dice_left_count=1),
                    _singles([1], dice_left_count=2),
                ],
                "ruleset_id": THOUSAND.rules_hash,
            },
            body={"dice": [1, 1, 1], "rules": {"three_ones": 1000}},
        ),
        Example(
            "rules-not-accepted",
            "House rules where single 1s score nothing",
            422,
            invalid_rules(
                "/yardkle/throws",
                "single_one",
                "the value must be at least 1, got 0",
                "out_of_range",
            ),
            body={"dice": [1, 5], "rules": {"single_one": 0}},
        ),
    ],
    "yardkleTurns": [
        Example(
            "bank-on-the-pad",
            "Two throws, then bank, already on the pad",
            200,
            {
                "end": "bank",
                "turn_points": 450,
                "points": 450,
                "banked_total": 1500,
                "new_total": 1950,
                "on_pad": True,
                "entry_rule": {"applied": False, "threshold": 500, "met": True},
                "throws": [
                    {
                        "dice": [1, 2, 3, 3, 3, 5],
                        "set_aside": [1, 3, 3, 3],
                        "points": 400,
                        "split": [
                            {
                                "combination": "three_3s",
                                "name": "Three 3s",
                                "dice": [3, 3, 3],
                                "points": 300,
                            },
                            _single(1, 100),
                        ],
                        "running_total": 400,
                        "dice_left_count": 2,
                        "hot_dice": False,
                        "yardkle": False,
                    },
                    {
                        "dice": [4, 5],
                        "set_aside": [5],
                        "points": 50,
                        "split": [_single(5, 50)],
                        "running_total": 450,
                        "dice_left_count": 1,
                        "hot_dice": False,
                        "yardkle": False,
                    },
                ],
            },
            body={"throws": YARDKLE_TURN_THROWS, "end": "bank", "banked_total": 1500},
        ),
        Example(
            "unknown-end",
            "A turn ending neither in bank nor in yardkle",
            400,
            invalid("/yardkle/turns", "end", "Invalid enum value 'stop'", "unknown_value"),
            body={"throws": YARDKLE_TURN_THROWS, "end": "stop"},
        ),
        Example(
            "entry-rule",
            "Banking 450 before getting on the pad",
            422,
            rule_violation(
                "/yardkle/turns",
                "end",
                "banking 450 after throw 2 before getting on the pad: the first score must be "
                "at least 500 in one turn (entry rule); keep throwing",
                "entry_minimum",
            ),
            body={"throws": YARDKLE_TURN_THROWS, "end": "bank"},
        ),
    ],
    "yardkleGames": [
        Example(
            "two-turns",
            "Ann gets on the pad with 600, Bob throws a Yardkle",
            200,
            {
                "finished": False,
                "winners": [],
                "next_player": "Ann",
                "reached": None,
                "last_turns": [],
                "last_turns_due": [],
                "standings": [
                    {
                        "rank": 1,
                        "player": "Ann",
                        "total": 600,
                        "on_pad": True,
                        "turn_count": 1,
                        "last_turn": False,
                        "need": None,
                    },
                    {
                        "rank": 2,
                        "player": "Bob",
                        "total": 0,
                        "on_pad": False,
                        "turn_count": 1,
                        "last_turn": False,
                        "need": None,
                    },
                ],
                "turns": [
                    {
                        "turn_index": 0,
                        "player": "Ann",
                        "end": "bank",
                        "turn_points": 600,
                        "points": 600,
                        "total": 600,
                        "last_turn": False,
                    },
                    {
                        "turn_index": 1,
                        "player": "Bob",
                        "end": "yardkle",
                        "turn_points": 0,
                        "points": 0,
                        "total": 0,
                        "last_turn": False,
                    },
                ],
            },
            body={
                "players": ["Ann", "Bob"],
                "turns": [
                    {
                        "player": "Ann",
                        "throws": [{"dice": [5, 5, 5, 1, 2, 3], "set_aside": [1, 5, 5, 5]}],
                        "end": "bank",
                    },
                    {"player": "Bob", "throws": [{"dice": [2, 3, 4, 6, 6, 2]}], "end": "yardkle"},
                ],
            },
        ),
        empty_list("no-players", "A game without players", "/yardkle/games", "players"),
        Example(
            "out-of-turn",
            "Bob throws first though Ann is listed first",
            422,
            rule_violation(
                "/yardkle/games",
                "turns[0].player",
                "out of turn: turn 1 is Ann's (players throw in the order listed), not Bob's",
                "out_of_turn",
            ),
            body={
                "players": ["Ann", "Bob"],
                "turns": [
                    {"player": "Bob", "throws": [{"dice": [2, 3, 4, 6, 6, 2]}], "end": "yardkle"}
                ],
            },
        ),
    ],
    "yardkleHolds": [
        queue_full(
            "/yardkle/holds",
            {"dice": [1, 5, 2, 3, 4, 6], "on_pad": True, "rules": {"three_ones": 1000}},
        ),
        Example(
            "bank-or-throw",
            "Four dice with 300 set aside, on the pad",
            200,
            {
                "dice": [1, 2, 3, 5],
                "turn_points": 300,
                "on_pad": True,
                "yardkle": False,
                "options": [
                    {
                        "rank": 1,
                        "set_aside": [1, 5],
                        "points": 150,
                        "split": [_single(1, 100), _single(5, 50)],
                        "turn_points": 450,
                        "dice_left_count": 2,
                        "hot_dice": False,
                        "bank_allowed": True,
                        "bank_expected_points": 450.0,
                        "throw_on_expected_points": 351.57269307849333,
                        "decision": "bank",
                        "expected_points": 450.0,
                        "win_probability": None,
                        "best": True,
                        "loss": 0.0,
                    },
                    {
                        "rank": 2,
                        "set_aside": [1],
                        "points": 100,
                        "split": [_single(1, 100)],
                        "turn_points": 400,
                        "dice_left_count": 3,
                        "hot_dice": False,
                        "bank_allowed": True,
                        "bank_expected_points": 400.0,
                        "throw_on_expected_points": 397.76403455997246,
                        "decision": "bank",
                        "expected_points": 400.0,
                        "win_probability": None,
                        "best": False,
                        "loss": 50.0,
                    },
                    {
                        "rank": 3,
                        "set_aside": [5],
                        "points": 50,
                        "split": [_single(5, 50)],
                        "turn_points": 350,
                        "dice_left_count": 3,
                        "hot_dice": False,
                        "bank_allowed": True,
                        "bank_expected_points": 350.0,
                        "throw_on_expected_points": 361.8884640831575,
                        "decision": "throw_on",
                        "expected_points": 361.8884640831575,
                        "win_probability": None,
                        "best": False,
                        "loss": 450.0 - 361.8884640831575,
                    },
                ],
                "best_option": {
                    "set_aside": [1, 5],
                    "decision": "bank",
                    "expected_points": 450.0,
                    "win_probability": None,
                },
            },
            body={"dice": [1, 5, 2, 3], "on_pad": True, "turn_points": 300},
        ),
        Example(
            "need-to-pass",
            "A last turn that needs 2,000: with 400 in hand the race throws on (expected "
            "points would bank)",
            200,
            {
                "dice": [1, 2, 3, 4],
                "turn_points": 300,
                "on_pad": True,
                "yardkle": False,
                "options": [
                    {
                        "rank": 1,
                        "set_aside": [1],
                        "points": 100,
                        "split": [_single(1, 100)],
                        "turn_points": 400,
                        "dice_left_count": 3,
                        "hot_dice": False,
                        "bank_allowed": True,
                        "bank_expected_points": 400.0,
                        "throw_on_expected_points": 397.76403455997246,
                        "decision": "throw_on",
                        "expected_points": 400.0,
                        "win_probability": 0.04436092455505815,
                        "best": True,
                        "loss": 0.0,
                    }
                ],
                "best_option": {
                    "set_aside": [1],
                    "decision": "throw_on",
                    "expected_points": 400.0,
                    "win_probability": 0.04436092455505815,
                },
            },
            body={"dice": [1, 2, 3, 4], "on_pad": True, "turn_points": 300, "need": 2000},
        ),
        Example(
            "seven-dice",
            "Seven dice: Yardkle has six",
            400,
            invalid("/yardkle/holds", "dice", "expected 1 to 6 dice, got 7", "wrong_dice_count"),
            body={"dice": [1, 1, 1, 1, 1, 1, 1], "on_pad": True},
        ),
        Example(
            "not-a-multiple-of-50",
            "Turn points that no set-aside can add up to",
            422,
            rule_violation(
                "/yardkle/holds",
                "turn_points",
                "every score is a non-negative multiple of 50",
                "impossible_turn_points",
            ),
            body={"dice": [1, 5, 2, 3], "on_pad": True, "turn_points": 333},
        ),
        table_solving(
            "/yardkle/holds",
            {"dice": [1, 1, 1, 2, 3, 4], "on_pad": True, "rules": {"three_ones": 1000}},
        ),
    ],
    "yardkleReviews": [
        queue_full("/yardkle/reviews", {"turns": [REVIEW_TURN], "rules": {"three_ones": 1000}}),
        table_solving("/yardkle/reviews", {"turns": [REVIEW_TURN], "rules": {"three_ones": 1000}}),
        Example(
            "one-turn",
            "Setting aside 1 and 5 from the first throw cost 75 points in expectation (keep the "
            "1 alone and throw five dice)",
            200,
            REVIEW,
            body={"turns": [REVIEW_TURN]},
        ),
        Example(
            "seven-dice",
            "Seven dice: Yardkle has six",
            400,
            invalid(
                "/yardkle/reviews",
                "turns[0].throws[0].dice",
                "expected 1 to 6 dice, got 7",
                "wrong_dice_count",
            ),
            body={"turns": [{"throws": [{"dice": [1, 1, 1, 1, 1, 1, 1]}], "end": "bank"}]},
        ),
        Example(
            "pad-mismatch",
            "On the pad with nothing banked",
            422,
            rule_violation(
                "/yardkle/reviews",
                "turns[0].on_pad",
                "a banked total of 0 means the player is not on the pad",
                "pad_mismatch",
            ),
            body={"turns": [{**REVIEW_TURN, "banked_total": 0, "on_pad": True}]},
        ),
    ],
}
