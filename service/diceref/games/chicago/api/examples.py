"""Examples of the Chicago operations in the OpenAPI document, each a real exchange that
`tests/http/test_contract.py` replays against the app."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from diceref.http.examples import Example, empty_list, invalid, rule_violation

Json = Any


def _chicago_hold(
    keep: list[int], rethrow: int, p: str, pf: float, e: str, ef: float, best: bool = False
) -> Json:
    """One option of a ranking whose best win probability is 1 (the loss is against it)."""
    return {
        "keep": keep,
        "conversion": None,
        "set_aside_count": 0,
        "rethrow_count": rethrow,
        "win_probability": pf,
        "win_probability_exact": p,
        "expected_points": ef,
        "expected_points_exact": e,
        "best": best,
        "loss": float(1 - Fraction(p)),
    }


CHICAGO_ROUND_PLAYERS = [
    {"player": "Ann", "lives": 4, "throws": [{"dice": [2, 3, 4], "call": "high"}]},
    {"player": "Bob", "lives": 4, "throws": [{"dice": [1, 2, 2]}]},
]
CHICAGO_ROUND_RULING = {
    "call": "high",
    "throw_limit": 1,
    "turns": [
        {
            "player": "Ann",
            "lives": 4,
            "throw_count": 1,
            "dice": [2, 3, 4],
            "score": 9,
            "special": None,
            "lives_lost": 1,
            "lives_after": 3,
            "out": False,
        },
        {
            "player": "Bob",
            "lives": 4,
            "throw_count": 1,
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

EXAMPLES: dict[str, list[Example]] = {
    "chicagoThrows": [
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
            invalid("/chicago/throws", "dice", "expected 3 dice, got 2", "wrong_dice_count"),
            body={"dice": [1, 1]},
        ),
        Example(
            "throw-past-limit",
            "A third throw when two are allowed",
            422,
            rule_violation(
                "/chicago/throws", "throw", "throw 3 of 2 allowed cannot happen", "throws_exceeded"
            ),
            body={"dice": [1, 6, 5], "throw": 3, "throws_allowed": 2},
        ),
    ],
    "chicagoRounds": [
        Example(
            "worst-score",
            "The starter calls high and scores worst",
            200,
            CHICAGO_ROUND_RULING,
            body={"turns": CHICAGO_ROUND_PLAYERS},
        ),
        empty_list("no-player", "A round without players", "/chicago/rounds", "turns"),
        Example(
            "too-many-throws",
            "A player throws more often than the starter",
            422,
            rule_violation(
                "/chicago/rounds",
                "turns[1].throws[1]",
                "Bob: throw 2 of 1 allowed: no player may throw more times than the starter",
                "throws_exceeded",
            ),
            body={
                "turns": [
                    CHICAGO_ROUND_PLAYERS[0],
                    {
                        "player": "Bob",
                        "lives": 4,
                        "throws": [{"dice": [1, 2, 2]}, {"dice": [1, 2, 3]}],
                    },
                ]
            },
        ),
    ],
    "chicagoGames": [
        Example(
            "first-round",
            "A two-player game after its first round",
            200,
            {
                "players": ["Ann", "Bob"],
                "starting_lives": 4,
                "rounds": [CHICAGO_ROUND_RULING],
                "standings": [
                    {"rank": 1, "player": "Bob", "lives": 4, "out_in_round": None},
                    {"rank": 2, "player": "Ann", "lives": 3, "out_in_round": None},
                ],
                "next_starter": "Ann",
                "game_over": False,
                "winner": None,
            },
            body={
                "players": ["Ann", "Bob"],
                "rounds": [
                    {
                        "turns": [
                            {k: p[k] for k in ("player", "throws")} for p in CHICAGO_ROUND_PLAYERS
                        ]
                    }
                ],
            },
        ),
        Example(
            "no-rounds-field",
            "The rounds are missing",
            400,
            invalid(
                "/chicago/games",
                "rounds",
                "Object missing required field `rounds`",
                "missing_field",
            ),
            body={"players": ["Ann", "Bob"]},
        ),
        Example(
            "wrong-starter",
            "The second round does not start with the player the first round named",
            422,
            rule_violation(
                "/chicago/games",
                "rounds[1].turns[0].player",
                "round 2 is started by Bob, but the ruling of round 1 named Ann: the worst score "
                "starts the next round",
                "wrong_starter",
            ),
            body={
                "players": ["Ann", "Bob"],
                "rounds": [
                    {
                        "turns": [
                            {k: p[k] for k in ("player", "throws")} for p in CHICAGO_ROUND_PLAYERS
                        ]
                    },
                    {
                        "turns": [
                            {"player": "Bob", "throws": [{"dice": [2, 3, 4], "call": "high"}]},
                            {"player": "Ann", "throws": [{"dice": [1, 2, 2]}]},
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
                "set_aside_count": 0,
                "call": "low",
                "target": 10,
                "rankings": [
                    {
                        "call": "low",
                        "options": [
                            _chicago_hold([1, 1], 1, "1", 1.0, "11/2", 5.5, best=True),
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
            invalid("/chicago/holds", "throws_left", "Expected `int` <= 2", "out_of_range"),
            body={"dice": [1, 1, 6], "throws_left": 3},
        ),
        Example(
            "set-aside-without-ones",
            "Set-aside 1s that the dice do not show",
            422,
            rule_violation(
                "/chicago/holds",
                "set_aside_count",
                "2 set-aside 1s, but the dice show fewer 1s",
                "set_aside_without_ones",
            ),
            body={"dice": [2, 4, 6], "throws_left": 1, "set_aside_count": 2, "call": "high"},
        ),
    ],
}
