"""Request and response examples for every operation of the OpenAPI document.

Each example is a real exchange: `tests/test_contract.py` sends every request to the app
(with the solved tables loaded, or none for the 503) and checks that the answer is exactly
the response written here.  Two responses are the handlers' own answers rather than
literals (`GET /games` and `GET /games/chicago`), so a new game or reading cannot make them
stale.  An example is chosen small: it documents the shapes, the tests document the rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import msgspec

from diceref.http.problems import PROBLEM_BASE
from diceref.http.routes.games import game_rules, list_games

Json = Any


@dataclass(frozen=True)
class Example:
    name: str
    summary: str
    status: int
    response: Json
    body: Json = None
    path: dict[str, str] | None = None

    def request_text(self) -> str:
        """How the response was obtained, for the response example's description."""
        if self.body is not None:
            return f"The answer to the request body `{json.dumps(self.body)}`."
        if self.path:
            params = ", ".join(f"{k} = `{v}`" for k, v in self.path.items())
            return f"The answer for {params}."
        return ""


def _problem(
    status: int, kind: str, title: str, instance: str, errors: list[tuple[str, str]], **extra: Json
) -> Json:
    detail = extra.pop("detail", "; ".join(f"{field}: {reason}" for field, reason in errors))
    problem = {"type": PROBLEM_BASE + kind, "title": title, "status": status, "detail": detail}
    problem["instance"] = instance
    if errors:  # empty lists and absent values are left out, as the service encodes them
        problem["errors"] = [{"field": f, "reason": r} for f, r in errors]
    return {**problem, **extra}


def invalid(instance: str, field: str, reason: str) -> Json:
    return _problem(400, "invalid-request", "Invalid request", instance, [(field, reason)])


def rule_violation(instance: str, field: str, reason: str) -> Json:
    return _problem(422, "rule-violation", "Breaks a rule of the game", instance, [(field, reason)])


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
    "scorecard": {"boxes": YAHTZEE_ALL_BUT_TWO},
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
    return [{"box": b, "points": points.get(b, 0), "bonus": 0} for b in boxes]


def _single(face: int, points: int) -> Json:
    name = {1: "single_1", 5: "single_5"}[face]
    return {"combination": name, "name": f"Single {face}", "dice": [face], "points": points}


def _chicago_hold(keep: list[int], rethrow: int, p: str, pf: float, e: str, ef: float) -> Json:
    return {
        "keep": keep,
        "conversion": None,
        "set_aside": 0,
        "rethrow": rethrow,
        "probability": pf,
        "probability_exact": p,
        "expected_score": ef,
        "expected_score_exact": e,
    }


CHICAGO_ROUND_PLAYERS = [
    {"name": "Ann", "lives": 4, "throws": [{"dice": [2, 3, 4], "call": "high"}]},
    {"name": "Bob", "lives": 4, "throws": [{"dice": [1, 2, 2]}]},
]
CHICAGO_ROUND_RULING = {
    "call": "high",
    "throw_limit": 1,
    "players": [
        {
            "name": "Ann",
            "lives": 4,
            "throws": 1,
            "dice": [2, 3, 4],
            "score": 9,
            "special": None,
            "lives_lost": 1,
            "lives_after": 3,
            "out": False,
        },
        {
            "name": "Bob",
            "lives": 4,
            "throws": 1,
            "dice": [1, 2, 2],
            "score": 104,
            "special": None,
            "lives_lost": 0,
            "lives_after": 4,
            "out": False,
        },
    ],
    "events": [
        {
            "kind": "worst_score",
            "player": "Ann",
            "victim": None,
            "losers": ["Ann"],
            "knocked_out": [],
            "throw": None,
            "score": 9,
        }
    ],
    "knocked_out": [],
    "ended_by": "worst_score",
    "next_starter": "Ann",
    "game_over": False,
    "winner": None,
}

YARDKLE_TURN_THROWS = [
    {"dice": [1, 5, 2, 3, 3, 3], "set_aside": [1, 3, 3, 3]},
    {"dice": [5, 4], "set_aside": [5]},
]

EXAMPLES: dict[str, list[Example]] = {
    "healthz": [Example("ok", "The process answers", 200, {"status": "ok"})],
    "listGames": [
        Example(
            "all",
            "Every game, scorecard games with their boxes",
            200,
            msgspec.to_builtins(list_games.fn()),
        )
    ],
    "getGame": [
        Example(
            "chicago",
            "Chicago's rules and readings",
            200,
            msgspec.to_builtins(game_rules("chicago")),
            path={"game": "chicago"},
        ),
        Example(
            "unknown-game",
            "A game the service does not know",
            404,
            _problem(
                404,
                "not-found",
                "Not found",
                "/games/backgammon",
                [("game", "unknown game 'backgammon'; see GET /games")],
                detail="unknown game 'backgammon'; see GET /games",
            ),
            path={"game": "backgammon"},
        ),
    ],
    "score": [
        Example(
            "empty-card",
            "A full house on an empty Yahtzee card",
            200,
            {"game": "yahtzee", "dice": [4, 4, 6, 6, 6], "options": _score_options(), "total": 0},
            body={"game": "yahtzee", "dice": [4, 4, 6, 6, 6]},
        ),
        Example(
            "die-out-of-range",
            "A die showing 7",
            400,
            invalid("/score", "dice[4]", "Expected `int` <= 6"),
            body={"game": "yahtzee", "dice": [1, 2, 3, 4, 7]},
        ),
        Example(
            "impossible-box",
            "A scorecard no game can produce",
            422,
            rule_violation("/score", "scorecard.boxes.ones", "no throw can score 7 in 'ones'"),
            body={"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "scorecard": {"boxes": {"ones": 7}}},
        ),
    ],
    "holds": [
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
                        "points": 21,
                        "bonus": 0,
                        "expected_total": 226.48074968943519,
                    },
                    {
                        "kind": "box",
                        "box": "small_straight",
                        "points": 0,
                        "bonus": 0,
                        "expected_total": 210.33333333333331,
                    },
                ],
            },
            body=HOLDS_BODY,
        ),
        Example(
            "too-many-throws-left",
            "Three throws left: a turn has three throws, the first one made",
            400,
            invalid("/holds", "throws_left", "Expected `int` <= 2"),
            body={"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "throws_left": 3},
        ),
        Example(
            "throw-mismatch",
            "A throw number that contradicts the throws left",
            422,
            rule_violation(
                "/holds", "throw", "with 2 throw(s) left the dice come from throw 1, not 3"
            ),
            body={"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "throws_left": 2, "throw": 3},
        ),
        Example(
            "table-loading",
            "The Yahtzee table is not loaded yet (5 s is the default DICEREF_RETRY_AFTER)",
            503,
            _problem(
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
    "checkScorecards": [
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
                "ranking": [
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
            "no-sheet",
            "No sheet to check",
            400,
            invalid("/scorecards/check", "sheets", "Expected `array` of length >= 1"),
            body={"game": "yahtzee", "sheets": []},
        ),
    ],
    "chicagoThrow": [
        Example(
            "first-throw",
            "Two 1s and a 5 on the first throw",
            200,
            {
                "dice": [1, 1, 5],
                "scores": {"high": 205, "low": 7},
                "special": None,
                "throws_left": 2,
                "conversions": [],
            },
            body={"dice": [1, 1, 5], "throw": 1},
        ),
        Example(
            "two-dice",
            "Two dice instead of three",
            400,
            invalid("/chicago/throws", "dice", "Expected `array` of length >= 3"),
            body={"dice": [1, 1]},
        ),
        Example(
            "throw-past-limit",
            "A third throw when two are allowed",
            422,
            rule_violation("/chicago/throws", "throw", "throw 3 of 2 allowed cannot happen"),
            body={"dice": [1, 6, 5], "throw": 3, "throws_allowed": 2},
        ),
    ],
    "chicagoRound": [
        Example(
            "worst-score",
            "The starter calls high and scores worst",
            200,
            CHICAGO_ROUND_RULING,
            body={"players": CHICAGO_ROUND_PLAYERS},
        ),
        Example(
            "no-player",
            "A round without players",
            400,
            invalid("/chicago/rounds", "players", "Expected `array` of length >= 1"),
            body={"players": []},
        ),
        Example(
            "too-many-throws",
            "A player throws more often than the starter",
            422,
            rule_violation(
                "/chicago/rounds",
                "players[1].throws[1]",
                "Bob: throw 2 of 1 allowed: no player may throw more times than the starter",
            ),
            body={
                "players": [
                    CHICAGO_ROUND_PLAYERS[0],
                    {
                        "name": "Bob",
                        "lives": 4,
                        "throws": [{"dice": [1, 2, 2]}, {"dice": [1, 2, 3]}],
                    },
                ]
            },
        ),
    ],
    "chicagoGame": [
        Example(
            "first-round",
            "A two-player game after its first round",
            200,
            {
                "players": ["Ann", "Bob"],
                "starting_lives": 4,
                "rounds": [CHICAGO_ROUND_RULING],
                "standings": [
                    {"place": 1, "name": "Bob", "lives": 4, "out_in_round": None},
                    {"place": 2, "name": "Ann", "lives": 3, "out_in_round": None},
                ],
                "next_starter": "Ann",
                "game_over": False,
                "winner": None,
            },
            body={
                "players": ["Ann", "Bob"],
                "rounds": [
                    {
                        "players": [
                            {k: p[k] for k in ("name", "throws")} for p in CHICAGO_ROUND_PLAYERS
                        ]
                    }
                ],
            },
        ),
        Example(
            "no-rounds-field",
            "The rounds are missing",
            400,
            invalid("/chicago/games", "rounds", "Object missing required field `rounds`"),
            body={"players": ["Ann", "Bob"]},
        ),
        Example(
            "wrong-starter",
            "The second round does not start with the player the first round named",
            422,
            rule_violation(
                "/chicago/games",
                "rounds[1].players[0].name",
                "round 2 is started by Bob, but the ruling of round 1 named Ann: the worst score "
                "starts the next round",
            ),
            body={
                "players": ["Ann", "Bob"],
                "rounds": [
                    {
                        "players": [
                            {k: p[k] for k in ("name", "throws")} for p in CHICAGO_ROUND_PLAYERS
                        ]
                    },
                    {
                        "players": [
                            {"name": "Bob", "throws": [{"dice": [2, 3, 4], "call": "high"}]},
                            {"name": "Ann", "throws": [{"dice": [1, 2, 2]}]},
                        ]
                    },
                ],
            },
        ),
    ],
    "chicagoHolds": [
        Example(
            "beat-ten-low",
            "Two 1s and a 6 under low, one throw left, 10 to beat",
            200,
            {
                "dice": [1, 1, 6],
                "throws_left": 1,
                "set_aside": 0,
                "call": "low",
                "target": 10,
                "rankings": [
                    {
                        "call": "low",
                        "options": [
                            _chicago_hold([1, 1], 1, "1", 1.0, "11/2", 5.5),
                            _chicago_hold([1, 1, 6], 0, "1", 1.0, "8", 8.0),
                            _chicago_hold([1], 2, "13/18", 0.7222222222222222, "8", 8.0),
                            _chicago_hold([], 3, "3/8", 0.375, "21/2", 10.5),
                            _chicago_hold([1, 6], 1, "1/3", 0.3333333333333333, "21/2", 10.5),
                            _chicago_hold([6], 2, "1/12", 0.08333333333333333, "13", 13.0),
                        ],
                    }
                ],
            },
            body={"dice": [1, 1, 6], "throws_left": 1, "call": "low", "target": 10},
        ),
        Example(
            "three-throws-left",
            "Three throws left after a throw",
            400,
            invalid("/chicago/holds", "throws_left", "Expected `int` <= 2"),
            body={"dice": [1, 1, 6], "throws_left": 3},
        ),
        Example(
            "set-aside-without-ones",
            "Set-aside 1s that the dice do not show",
            422,
            rule_violation(
                "/chicago/holds", "set_aside", "2 set-aside 1s, but the dice show fewer 1s"
            ),
            body={"dice": [2, 4, 6], "throws_left": 1, "set_aside": 2, "call": "high"},
        ),
    ],
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
                    {
                        "dice": [1, 5],
                        "points": 150,
                        "split": [_single(1, 100), _single(5, 50)],
                        "dice_left": 1,
                        "hot_dice": False,
                    },
                    {
                        "dice": [1],
                        "points": 100,
                        "split": [_single(1, 100)],
                        "dice_left": 2,
                        "hot_dice": False,
                    },
                    {
                        "dice": [5],
                        "points": 50,
                        "split": [_single(5, 50)],
                        "dice_left": 2,
                        "hot_dice": False,
                    },
                ],
            },
            body={"dice": [1, 5, 2]},
        ),
        Example(
            "no-dice",
            "A throw without dice",
            400,
            invalid("/yardkle/throws", "dice", "Expected `array` of length >= 1"),
            body={"dice": []},
        ),
    ],
    "yardkleTurn": [
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
                        "dice_left": 2,
                        "hot_dice": False,
                        "yardkle": False,
                    },
                    {
                        "dice": [4, 5],
                        "set_aside": [5],
                        "points": 50,
                        "split": [_single(5, 50)],
                        "running_total": 450,
                        "dice_left": 1,
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
            invalid("/yardkle/turns", "end", "Invalid enum value 'stop'"),
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
            ),
            body={"throws": YARDKLE_TURN_THROWS, "end": "bank"},
        ),
    ],
    "yardkleGame": [
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
                    {"rank": 1, "player": "Ann", "total": 600, "on_pad": True, "turns": 1},
                    {"rank": 2, "player": "Bob", "total": 0, "on_pad": False, "turns": 1},
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
        Example(
            "no-players",
            "A game without players",
            400,
            invalid("/yardkle/games", "players", "Expected `array` of length >= 1"),
            body={"players": []},
        ),
        Example(
            "out-of-turn",
            "Bob throws first though Ann is listed first",
            422,
            rule_violation(
                "/yardkle/games",
                "turns[0].player",
                "out of turn: turn 1 is Ann's (players throw in the order listed), not Bob's",
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
                        "dice_left": 2,
                        "hot_dice": False,
                        "bank_allowed": True,
                        "bank": 450.0,
                        "throw_on": 351.57269307849333,
                        "decision": "bank",
                        "expected_points": 450.0,
                    },
                    {
                        "rank": 2,
                        "set_aside": [1],
                        "points": 100,
                        "split": [_single(1, 100)],
                        "turn_points": 400,
                        "dice_left": 3,
                        "hot_dice": False,
                        "bank_allowed": True,
                        "bank": 400.0,
                        "throw_on": 397.76403455997246,
                        "decision": "bank",
                        "expected_points": 400.0,
                    },
                    {
                        "rank": 3,
                        "set_aside": [5],
                        "points": 50,
                        "split": [_single(5, 50)],
                        "turn_points": 350,
                        "dice_left": 3,
                        "hot_dice": False,
                        "bank_allowed": True,
                        "bank": 350.0,
                        "throw_on": 361.8884640831575,
                        "decision": "throw_on",
                        "expected_points": 361.8884640831575,
                    },
                ],
                "best": {"set_aside": [1, 5], "decision": "bank", "expected_points": 450.0},
            },
            body={"dice": [1, 5, 2, 3], "on_pad": True, "turn_points": 300},
        ),
        Example(
            "seven-dice",
            "Seven dice: Yardkle has six",
            400,
            invalid("/yardkle/holds", "dice", "Expected `array` of length <= 6"),
            body={"dice": [1, 1, 1, 1, 1, 1, 1], "on_pad": True},
        ),
        Example(
            "not-a-multiple-of-50",
            "Turn points that no set-aside can add up to",
            422,
            rule_violation(
                "/yardkle/holds", "turn_points", "every score is a non-negative multiple of 50"
            ),
            body={"dice": [1, 5, 2, 3], "on_pad": True, "turn_points": 333},
        ),
    ],
}
