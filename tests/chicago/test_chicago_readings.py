"""Every Chicago reading as a house rule: the same record ruled under the reading and under
its alternative gives the different outcome the rule implies, and the coach's moves stay
exactly the moves the referee accepts under each of them."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from typing import Any

import pytest
from chicago_records import Json, one, post, throw, turn
from litestar.testing import TestClient

from conftest import make_test_app
from diceref.core.dice import sub_multisets
from diceref.games.chicago import FAMILY
from diceref.games.chicago.rules.moves import legal_moves, move_error
from diceref.games.chicago.rules.ruleset import Call, ChicagoRules, Conversion
from diceref.games.chicago.solver.coach import advise

app = make_test_app()

THROWS = list(combinations_with_replacement(range(1, 7), 3))


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(app) as c:
        yield c


def codes(problem: Json) -> list[tuple[str, str]]:
    return [(e["field"], e["code"]) for e in problem["errors"]]


def with_rules(body: Json, **rules: object) -> Json:
    return body | {"rules": rules}


def lives_after(ruling: Json) -> dict[str, int]:
    return {p["player"]: p["lives_after"] for p in ruling["turns"]}


# --- throw_limit ----------------------------------------------------------------------------

FREE_THROWS: Json = {
    "turns": [
        one("Ann", [2, 3, 4], lives=3, call="high"),
        turn(
            "Bob",
            throw([2, 2, 3], kept=[]),
            throw([1, 2, 4], kept=[1]),
            throw([1, 1, 5]),
            lives=3,
        ),
        one("Cy", [3, 4, 5], lives=3),
    ]
}


def test_throw_limit_free_lets_later_players_throw_three_times(client: TestClient[Any]) -> None:
    """Ann stands on her first throw. As written Bob may throw once only; under 'free' his
    three throws stand, his 205 beats Ann, and Ann's 9 is the worst of the round."""
    problem = post(client, "/chicago/rounds", FREE_THROWS, 422)
    assert codes(problem) == [("turns[1].throws[1]", "throws_exceeded")]
    assert "than the starter" in problem["errors"][0]["reason"]
    ruling = post(client, "/chicago/rounds", with_rules(FREE_THROWS, throw_limit="free"))
    assert ruling["throw_limit"] == 3
    assert [(p["player"], p["throw_count"], p["score"]) for p in ruling["turns"]] == [
        ("Ann", 1, 9),
        ("Bob", 3, 205),
        ("Cy", 1, 12),
    ]
    assert ruling["events"][-1]["player"] == "Ann"
    four = FREE_THROWS["turns"][1] | {
        "throws": [
            *FREE_THROWS["turns"][1]["throws"][:2],
            throw([1, 1, 5], kept=[1, 1]),
            throw([1, 1, 2]),
        ]
    }
    too_many = {"turns": [FREE_THROWS["turns"][0], four, FREE_THROWS["turns"][2]]}
    problem = post(client, "/chicago/rounds", with_rules(too_many, throw_limit="free"), 422)
    assert codes(problem) == [("turns[1].throws[3]", "throws_exceeded")]


# --- sixes_counted_as_they_lie --------------------------------------------------------------

KEPT_SIX: Json = {
    "turns": [
        turn(
            "Ann",
            throw([6, 2, 3], kept=[6]),
            throw([6, 6, 4], conversion="two_sixes", kept=[1, 4]),
            throw([1, 4, 5], call="high"),
            lives=4,
        ),
        one("Bob", [2, 2, 2], lives=4),
    ]
}


def test_only_the_sixes_just_thrown_count(client: TestClient[Any]) -> None:
    """Ann keeps a 6 and throws a second one: as they lie that is two 6s to convert; with
    only the sixes just thrown counting it is one, and the conversion is refused."""
    ruling = post(client, "/chicago/rounds", KEPT_SIX)
    assert ruling["turns"][0]["score"] == 109
    problem = post(
        client, "/chicago/rounds", with_rules(KEPT_SIX, sixes_counted_as_they_lie=False), 422
    )
    assert codes(problem) == [("turns[0].throws[1].conversion", "conversion_without_sixes")]
    assert "the throw brought 1" in problem["errors"][0]["reason"]
    fresh = {
        "turns": [
            turn(
                "Ann",
                throw([6, 6, 3], conversion="two_sixes", kept=[1, 3]),
                throw([1, 3, 5], call="high"),
                lives=4,
            ),
            one("Bob", [2, 2, 2], lives=4),
        ]
    }
    both = post(client, "/chicago/rounds", with_rules(fresh, sixes_counted_as_they_lie=False))
    assert both["turns"][0]["score"] == 108


def test_throws_and_holds_look_at_the_kept_dice(client: TestClient[Any]) -> None:
    """6-6-4 on throw 2 with a 6 kept: a conversion as they lie, none when only the throw's
    own sixes count; the coach then offers no conversion either, and every move it offers
    is one the referee takes."""
    body: Json = {"dice": [6, 6, 4], "throw": 2, "kept": [6]}
    rules = {"sixes_counted_as_they_lie": False}
    assert len(post(client, "/chicago/throws", body)["conversions"]) == 1
    assert post(client, "/chicago/throws", body | {"rules": rules})["conversions"] == []
    holds: Json = {"dice": [6, 6, 4], "throws_left": 1, "call": "low", "target": 9, "kept": [6]}
    as_they_lie = post(client, "/chicago/holds", holds)["rankings"][0]["options"]
    assert as_they_lie[0]["conversion"] == "two_sixes"
    thrown = post(client, "/chicago/holds", holds | {"rules": rules})["rankings"][0]["options"]
    assert {o["conversion"] for o in thrown} == {None}
    assert thrown[0]["keep"] == [] and thrown[0]["win_probability_exact"] == "7/27"
    assert as_they_lie[0]["win_probability_exact"] == "7/12"
    for option in thrown:
        kept = option["keep"]
        record = {
            "turns": [
                turn(
                    "Ann",
                    throw([6, 2, 3], kept=[6]),
                    throw([6, 6, 4], kept=kept),
                    throw(sorted([*kept, *[2] * (3 - len(kept))]), call="low"),
                    lives=4,
                )
                if len(kept) < 3
                else turn("Ann", throw([6, 2, 3], kept=[6]), throw([6, 6, 4], call="low"), lives=4),
                one("Bob", [2, 2, 2], lives=4),
            ],
            "rules": rules,
        }
        post(client, "/chicago/rounds", record)
    problem = post(client, "/chicago/holds", holds | {"throws_left": 2}, 422)
    assert codes(problem) == [("kept", "kept_before_first_throw")]
    problem = post(client, "/chicago/holds", holds | {"kept": [5]}, 422)
    assert codes(problem) == [("dice", "kept_dice_changed")]


# --- chicago_ends_round and starter_chicago_call --------------------------------------------

CHICAGO_MID: Json = {
    "turns": [
        one("Ann", [2, 3, 4], lives=3, call="high"),
        one("Bob", [1, 1, 1], lives=3),
        one("Cy", [2, 2, 3], lives=3),
    ]
}


def test_a_chicago_that_does_not_end_the_round(client: TestClient[Any]) -> None:
    """Bob's 1-1-1 costs Ann and Cy a life. As written the round ends there and Cy may not
    throw; with `chicago_ends_round: false` Cy throws 7, the worst score, and loses again."""
    problem = post(client, "/chicago/rounds", CHICAGO_MID, 422)
    assert codes(problem) == [("turns[2].throws[0]", "throw_after_round_end")]
    ruling = post(client, "/chicago/rounds", with_rules(CHICAGO_MID, chicago_ends_round=False))
    assert [e["kind"] for e in ruling["events"]] == ["chicago", "worst_score"]
    assert ruling["events"][1]["player"] == "Cy" and ruling["events"][1]["score"] == 7
    assert lives_after(ruling) == {"Ann": 2, "Bob": 3, "Cy": 1}
    assert ruling["ended_by"] == "worst_score" and ruling["next_starter"] == "Cy"
    assert ruling["turns"][1]["score"] == 300


def test_a_starter_chicago_that_goes_on_needs_a_call(client: TestClient[Any]) -> None:
    """When the round goes on after a Chicago, the starter who threw it calls, and the
    others play to that call."""
    body: Json = {
        "turns": [one("Ann", [1, 1, 1], lives=4), one("Bob", [2, 3, 4], lives=4)],
        "rules": {"chicago_ends_round": False},
    }
    problem = post(client, "/chicago/rounds", body, 422)
    assert codes(problem) == [("turns[0].throws[0].call", "missing_call")]
    called = body | {
        "turns": [one("Ann", [1, 1, 1], lives=4, call="low"), one("Bob", [2, 3, 4], lives=4)]
    }
    ruling = post(client, "/chicago/rounds", called)
    assert ruling["call"] == "low" and ruling["turns"][0]["score"] == 3
    assert lives_after(ruling) == {"Ann": 4, "Bob": 2}  # the Chicago, then Bob's 9 on low
    assert [e["kind"] for e in ruling["events"]] == ["chicago", "worst_score"]


def test_the_starter_calls_after_a_chicago(client: TestClient[Any]) -> None:
    """`starter_chicago_call: call`: a starter's Chicago that ends the round still carries
    the call, and the ruling shows it and the score; without it the call is missing. As
    written a call there is refused."""
    called: Json = {"turns": [one("Ann", [1, 1, 1], lives=4, call="high"), turn("Bob", lives=4)]}
    problem = post(client, "/chicago/rounds", called, 422)
    assert codes(problem) == [("turns[0].throws[0].call", "call_after_chicago")]
    ruling = post(client, "/chicago/rounds", with_rules(called, starter_chicago_call="call"))
    assert ruling["call"] == "high" and ruling["turns"][0]["score"] == 300
    assert ruling["ended_by"] == "chicago" and lives_after(ruling) == {"Ann": 4, "Bob": 3}
    silent = {"turns": [one("Ann", [1, 1, 1], lives=4), turn("Bob", lives=4)]}
    assert post(client, "/chicago/rounds", silent)["call"] is None
    problem = post(client, "/chicago/rounds", with_rules(silent, starter_chicago_call="call"), 422)
    assert codes(problem) == [("turns[0].throws[0].call", "missing_call")]


# --- next_starter_after_chicago ------------------------------------------------------------

CHICAGO_ENDS: Json = {
    "turns": [
        one("Ann", [2, 3, 4], lives=3, call="high"),
        one("Bob", [1, 1, 1], lives=3),
        turn("Cy", lives=3),
    ]
}


@pytest.mark.parametrize(
    ("choice", "starter"), [("lot", None), ("thrower", "Bob"), ("next_in_turn", "Cy")]
)
def test_who_starts_after_a_chicago(
    client: TestClient[Any], choice: str, starter: str | None
) -> None:
    body = with_rules(CHICAGO_ENDS, next_starter_after_chicago=choice)
    assert post(client, "/chicago/rounds", body)["next_starter"] == starter


def test_the_chicago_thrower_starts_the_next_round_of_a_game(client: TestClient[Any]) -> None:
    """In a game under 'thrower' the round after Bob's Chicago must start with Bob; by lot
    Cy may start it."""
    rounds: list[Json] = [
        {"turns": [one("Ann", [2, 3, 4], call="high"), one("Bob", [1, 1, 1]), turn("Cy")]},
        {
            "turns": [
                one("Cy", [2, 3, 4], call="high"),
                one("Ann", [3, 3, 3]),
                one("Bob", [4, 4, 4]),
            ]
        },
    ]
    body: Json = {"players": ["Ann", "Bob", "Cy"], "rounds": rounds}
    assert post(client, "/chicago/games", body)["rounds"][1]["events"][-1]["player"] == "Ann"
    problem = post(
        client, "/chicago/games", with_rules(body, next_starter_after_chicago="thrower"), 422
    )
    assert codes(problem) == [("rounds[1].turns[0].player", "wrong_starter")]
    assert "the thrower of the Chicago starts" in problem["errors"][0]["reason"]
    bob_first = body | {
        "rounds": [
            rounds[0],
            {
                "turns": [
                    one("Bob", [2, 2, 3], call="high"),
                    one("Cy", [3, 3, 3]),
                    one("Ann", [4, 4, 4]),
                ]
            },
        ]
    }
    out = post(
        client, "/chicago/games", with_rules(bob_first, next_starter_after_chicago="thrower")
    )
    assert out["next_starter"] == "Bob" and out["rounds"][0]["next_starter"] == "Bob"


# --- one_six_five_victim --------------------------------------------------------------------


def test_the_one_six_five_victim_is_the_next_player(client: TestClient[Any]) -> None:
    """Under 'next_in_turn' Cy's 1-6-5 costs Ann (round the table) a life, named or not; a
    different name is refused. As written Cy must name someone."""
    body: Json = {
        "turns": [
            one("Ann", [2, 3, 4], lives=3, call="low"),
            one("Bob", [2, 2, 3], lives=3),
            one("Cy", [1, 6, 5], lives=3),
        ]
    }
    problem = post(client, "/chicago/rounds", body, 422)
    assert codes(problem) == [("turns[2].throws[0].victim", "missing_victim")]
    rules = {"one_six_five_victim": "next_in_turn"}
    ruling = post(client, "/chicago/rounds", body | {"rules": rules})
    assert ruling["events"][0] == {
        "kind": "one_six_five",
        "player": "Cy",
        "victim": "Ann",
        "losers": ["Ann"],
        "knocked_out": [],
        "throw": 1,
        "score": None,
    }
    named = body | {"turns": [*body["turns"][:2], one("Cy", [1, 6, 5], lives=3, victim="Ann")]}
    assert post(client, "/chicago/rounds", named | {"rules": rules})["events"][0]["victim"] == "Ann"
    wrong = body | {"turns": [*body["turns"][:2], one("Cy", [1, 6, 5], lives=3, victim="Bob")]}
    assert post(client, "/chicago/rounds", wrong)["events"][0]["victim"] == "Bob"
    problem = post(client, "/chicago/rounds", wrong | {"rules": rules}, 422)
    assert codes(problem) == [("turns[2].throws[0].victim", "invalid_victim")]
    assert "goes to Ann" in problem["errors"][0]["reason"]


def test_the_next_player_skips_players_who_are_out(client: TestClient[Any]) -> None:
    """Ann's 1-6-5 takes Bob's last life (Bob is next after her); Cy's then goes round the
    table to Ann."""
    body: Json = {
        "players_at_start": 3,
        "turns": [
            one("Ann", [1, 6, 5], lives=2, call="high"),
            turn("Bob", lives=1),
            one("Cy", [1, 6, 5], lives=2),
        ],
        "rules": {"one_six_five_victim": "next_in_turn"},
    }
    ruling = post(client, "/chicago/rounds", body)
    assert [(e["player"], e["victim"]) for e in ruling["events"][:2]] == [
        ("Ann", "Bob"),
        ("Cy", "Ann"),
    ]
    assert ruling["turns"][1]["out"] is True and ruling["knocked_out"] == ["Bob"]


# --- specials_on_final_dice -----------------------------------------------------------------

THROWN_ON: Json = {
    "turns": [
        turn("Ann", throw([2, 3, 4], kept=[]), throw([2, 2, 3], call="low"), lives=3),
        turn("Bob", throw([1, 6, 5], kept=[1, 5], victim="Cy"), throw([1, 5, 2]), lives=3),
        one("Cy", [3, 4, 4], lives=3),
    ]
}


def test_a_one_six_five_counts_as_it_lies(client: TestClient[Any]) -> None:
    """Bob throws 1-6-5, names Cy, and throws on. As written the 1-6-5 is given up (a
    victim named there is refused); counted as it lies Cy loses the life, and Bob's 8 still
    takes part in the worst score (Cy's 11 loses)."""
    problem = post(client, "/chicago/rounds", THROWN_ON, 422)
    assert codes(problem) == [("turns[1].throws[0].victim", "victim_thrown_on")]
    rules = {"specials_on_final_dice": False}
    ruling = post(client, "/chicago/rounds", with_rules(THROWN_ON, **rules))
    assert [(e["kind"], e["player"], e["throw"]) for e in ruling["events"]] == [
        ("one_six_five", "Bob", 1),
        ("worst_score", "Cy", None),
    ]
    assert lives_after(ruling) == {"Ann": 3, "Bob": 3, "Cy": 1}
    assert ruling["turns"][1]["special"] is None and ruling["turns"][1]["score"] == 8
    unnamed = THROWN_ON | {
        "turns": [
            THROWN_ON["turns"][0],
            turn("Bob", throw([1, 6, 5], kept=[1, 5]), throw([1, 5, 2]), lives=3),
            THROWN_ON["turns"][2],
        ]
    }
    problem = post(client, "/chicago/rounds", with_rules(unnamed, **rules), 422)
    assert codes(problem) == [("turns[1].throws[0].victim", "missing_victim")]


def test_a_one_six_five_as_it_lies_that_ends_the_round_ends_the_turn(
    client: TestClient[Any],
) -> None:
    rules = {"specials_on_final_dice": False, "one_six_five_round_goes_on": False}
    problem = post(client, "/chicago/rounds", with_rules(THROWN_ON, **rules), 422)
    assert codes(problem) == [("turns[1].throws[1]", "throw_after_round_end")]
    game = FAMILY.with_rules("chicago", rules)
    assert isinstance(game, ChicagoRules)
    assert [m.rethrow for m in legal_moves(game, (1, 5, 6), 0, True)] == [0]
    holds = post(client, "/chicago/holds", {"dice": [1, 6, 5], "throws_left": 2, "rules": rules})
    assert [len(r["options"]) for r in holds["rankings"]] == [1, 1]


def test_a_one_six_five_as_it_lies_may_end_the_game_mid_turn(client: TestClient[Any]) -> None:
    """Bob's 1-6-5 on his first throw takes Ann's last life: the game is over, and his
    second throw cannot happen."""
    body: Json = {
        "players_at_start": 2,
        "turns": [
            turn("Ann", throw([2, 3, 4], kept=[]), throw([2, 2, 3], call="low"), lives=1),
            turn("Bob", throw([1, 6, 5], kept=[1], victim="Ann"), throw([1, 2, 2]), lives=2),
        ],
        "rules": {"specials_on_final_dice": False},
    }
    problem = post(client, "/chicago/rounds", body, 422)
    assert codes(problem) == [("turns[1].throws[1]", "throw_after_round_end")]
    assert "the game is over" in problem["errors"][0]["reason"]
    stood = body | {"turns": [body["turns"][0], one("Bob", [1, 6, 5], lives=2, victim="Ann")]}
    ruling = post(client, "/chicago/rounds", stood)
    assert ruling["winner"] == "Bob" and ruling["ended_by"] == "one_six_five"


# --- next_starter_when_worst_out ------------------------------------------------------------


def test_who_starts_when_the_worst_score_goes_out(client: TestClient[Any]) -> None:
    """Bob's worst score takes his last life: as read, Cy (next after him) starts; under
    'lot' nobody is named, and in a game any player may start the round after."""
    body: Json = {
        "players_at_start": 3,
        "turns": [
            one("Ann", [2, 3, 4], lives=2, call="high"),
            one("Bob", [2, 2, 3], lives=1),
            one("Cy", [3, 3, 4], lives=2),
        ],
    }
    assert post(client, "/chicago/rounds", body)["next_starter"] == "Cy"
    lot = with_rules(body, next_starter_when_worst_out="lot")
    ruling = post(client, "/chicago/rounds", lot)
    assert ruling["next_starter"] is None and ruling["knocked_out"] == ["Bob"]
    # A game of one life each: Bob goes out in round 1. As read Cy starts round 2; under
    # 'lot' Ann may, and Cy's worst score ends the game.
    game: Json = {
        "players": ["Ann", "Bob", "Cy"],
        "rounds": [
            {"turns": [{k: v for k, v in t.items() if k != "lives"} for t in body["turns"]]},
            {"turns": [one("Ann", [2, 3, 4], call="high"), one("Cy", [2, 2, 2])]},
        ],
        "rules": {"lives_by_players": [4, 1, 3, 3, 2]},
    }
    problem = post(client, "/chicago/games", game, 422)
    assert codes(problem) == [("rounds[1].turns[0].player", "wrong_starter")]
    assert "next player still in after them" in problem["errors"][0]["reason"]
    lot_game = game | {"rules": game["rules"] | {"next_starter_when_worst_out": "lot"}}
    out = post(client, "/chicago/games", lot_game)
    assert out["winner"] == "Ann" and out["rounds"][0]["next_starter"] is None
    assert [s["player"] for s in out["standings"]] == ["Ann", "Cy", "Bob"]


# --- seating_fixed --------------------------------------------------------------------------

RESEATED: Json = {
    "players": ["Ann", "Bob", "Cy", "Dee"],
    "rounds": [
        {
            "turns": [
                one("Ann", [2, 3, 4], call="high"),
                one("Bob", [5, 5, 5]),
                one("Cy", [4, 4, 4]),
                one("Dee", [6, 6, 6]),
            ]
        },
        {
            "turns": [
                one("Ann", [2, 3, 5], call="low"),
                one("Dee", [2, 2, 2]),
                one("Cy", [3, 3, 3]),
                one("Bob", [4, 4, 4]),
            ]
        },
    ],
}


def test_free_seating_lets_each_round_set_its_order(client: TestClient[Any]) -> None:
    """Ann's 9 is the worst of round 1 and she starts round 2, with the others in a new
    order: refused with a fixed seating, ruled under `seating_fixed: false`."""
    problem = post(client, "/chicago/games", RESEATED, 422)
    assert codes(problem) == [("rounds[1].turns", "seating_order")]
    out = post(client, "/chicago/games", with_rules(RESEATED, seating_fixed=False))
    assert [p["player"] for p in out["rounds"][1]["turns"]] == ["Ann", "Dee", "Cy", "Bob"]
    assert out["rounds"][1]["events"][-1]["player"] == "Bob"  # 12 on low is the worst
    assert out["next_starter"] == "Bob"
    wrong = RESEATED | {
        "rounds": [
            RESEATED["rounds"][0],
            {"turns": RESEATED["rounds"][1]["turns"][1:] + RESEATED["rounds"][1]["turns"][:1]},
        ]
    }
    problem = post(client, "/chicago/games", with_rules(wrong, seating_fixed=False), 422)
    assert codes(problem) == [("rounds[1].turns[0].player", "wrong_starter")]


# --- the coach's moves are the referee's, under every reading -------------------------------

VARIANTS: list[dict[str, object]] = [
    {},
    {"throw_limit": "free"},
    {"sixes_counted_as_they_lie": False},
    {"sixes_counted_as_they_lie": False, "three_sixes_conversion": "may"},
    {"chicago_ends_round": False},
    {"next_starter_after_chicago": "thrower"},
    {"starter_chicago_call": "call"},
    {"one_six_five_victim": "next_in_turn"},
    {"specials_on_final_dice": False},
    {"specials_on_final_dice": False, "one_six_five_round_goes_on": False},
    {"next_starter_when_worst_out": "lot"},
    {"seating_fixed": False},
]


def _candidates(dice: tuple[int, ...]) -> list[tuple[Conversion | None, tuple[int, ...] | None]]:
    """Every (conversion, kept) a record could show, legal or not; kept None: stand."""
    tables = {dice} | {(1, *dice[:2]), (1, 1, dice[0])}  # converted dice hold new 1s
    keeps = {k for t in tables for k in sub_multisets(t)}
    return [(c, k) for c in (None, *Conversion) for k in [None, *sorted(keeps)]]


@pytest.mark.parametrize(
    "rules", VARIANTS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "as-read"
)
def test_the_coach_moves_are_the_referee_moves(rules: dict[str, object]) -> None:
    """For every throw, every dice kept before it and every throw left, the moves the coach
    ranks are exactly the (conversion, kept) records the referee accepts."""
    game = FAMILY.with_rules("chicago", rules)
    assert isinstance(game, ChicagoRules)
    for dice in THROWS:
        for held in {k for k in sub_multisets(dice) if len(k) < 3}:
            for throw_left in (False, True):
                moves = legal_moves(game, dice, 0, throw_left, held)
                coach = {(m.conversion, None if m.rethrow == 0 else m.kept) for m in moves}
                referee = {
                    (c, k)
                    for c, k in _candidates(dice)
                    if move_error(game, dice, 0, throw_left, c, k, held) is None
                }
                assert coach == referee, (rules, dice, held, throw_left)
        ranked = advise(game, dice, 1, None)
        assert all(len(options) >= 1 for options in ranked.values())


def test_the_coach_values_a_kept_six_by_the_sixes_rule() -> None:
    """On low with 9 to beat and two throws left, keeping the 6 of 6-2-3 hopes for a second
    6 to convert: 553/972 when the kept 6 counts, 1763/3888 when only new sixes do (a kept 6
    and a new one convert nothing, so only a throw of two new 6s helps)."""
    as_read = FAMILY.with_rules("chicago", {})
    thrown = FAMILY.with_rules("chicago", {"sixes_counted_as_they_lie": False})
    assert isinstance(as_read, ChicagoRules) and isinstance(thrown, ChicagoRules)
    chances = []
    for game in (as_read, thrown):
        [ranked] = advise(game, (6, 2, 3), 2, Call.LOW, 9).values()
        chances.append(next(a.probability for a in ranked if a.move.kept == (6,)))
    assert chances == [Fraction(553, 972), Fraction(1763, 3888)]


# --- the coach under `sixes_counted_as_they_lie: false`, against a brute force ---------------

HIGH = {1: 100, 2: 2, 3: 3, 4: 4, 5: 5, 6: 60}
LOW = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}
Label = tuple[tuple[int, ...], int, str | None]


def _without(dice: tuple[int, ...], part: tuple[int, ...]) -> tuple[int, ...]:
    rest = list(dice)
    for d in part:
        rest.remove(d)
    return tuple(rest)


def brute_new_sixes(call: Call, target: int | None) -> Any:
    """The coach's values written from the rule alone: the dice are the ones held from the
    previous throw plus the ones just thrown, and only the sixes just thrown convert (two:
    may, one becomes a set-aside 1, the other goes back; three: must, two become 1s)."""
    values = HIGH if call is Call.HIGH else LOW
    sign = 1 if call is Call.HIGH else -1

    def final(dice: tuple[int, ...]) -> tuple[Fraction, Fraction]:
        score = sign * sum(values[d] for d in dice)
        return Fraction(int(target is not None and score > sign * target)), Fraction(score)

    def moves(held: tuple[int, ...], shown: tuple[int, ...], aside: int, left: int) -> set[Label]:
        dice = tuple(sorted(held + shown))
        if left == 0 or dice == (1, 1, 1):
            return {(dice, aside, None)}
        new_sixes = shown.count(6)
        out: set[Label] = set()
        if new_sixes < 3:
            out.add((dice, aside, None))
            for mask in range(7):
                kept = tuple(sorted(dice[i] for i in range(3) if mask >> i & 1))
                if kept.count(1) >= aside:
                    out.add((kept, aside, None))
        if new_sixes == 2:
            other = _without(dice, (6, 6))
            for kept in ((1,), tuple(sorted((1, *other)))):
                if kept.count(1) >= aside + 1:
                    out.add((kept, aside + 1, "two_sixes"))
        if new_sixes == 3:
            out.add(((1, 1), 2, "three_sixes"))
        return out

    @cache
    def options(
        held: tuple[int, ...], shown: tuple[int, ...], aside: int, left: int
    ) -> dict[Label, tuple[Fraction, Fraction]]:
        out = {}
        for label in moves(held, shown, aside, left):
            kept, new_aside, _ = label
            n = 3 - len(kept)
            if n == 0:
                out[label] = final(kept)
                continue
            chance = score = Fraction(0)
            for thrown in product(range(1, 7), repeat=n):
                c, s = max(options(kept, tuple(sorted(thrown)), new_aside, left - 1).values())
                chance += c
                score += s
            out[label] = (chance / 6**n, score / 6**n)
        return out

    return options


@pytest.mark.parametrize(("call", "target"), [(Call.HIGH, 202), (Call.LOW, 9), (Call.HIGH, None)])
def test_coach_with_new_sixes_only_matches_brute_force(call: Call, target: int | None) -> None:
    game = FAMILY.with_rules("chicago", {"sixes_counted_as_they_lie": False})
    assert isinstance(game, ChicagoRules)
    brute = brute_new_sixes(call, target)
    sign = 1 if call is Call.HIGH else -1
    checked = 0
    for dice in THROWS:
        for held in [k for k in sub_multisets(dice) if len(k) < 3]:
            for left in (0, 1) if held else (0, 1, 2):
                for aside in range(held.count(1) + 1) if left < 2 else (0,):
                    advice = advise(game, dice, left, call, target, aside, held)[call]
                    got = {
                        (
                            a.move.kept,
                            a.move.aside,
                            None if a.move.conversion is None else a.move.conversion.value,
                        ): (a.probability or Fraction(0), sign * a.expected_score)
                        for a in advice
                    }
                    want = brute(held, _without(dice, held), aside, left)
                    assert got == want, (dice, held, aside, left)
                    checked += 1
    assert checked > 500
