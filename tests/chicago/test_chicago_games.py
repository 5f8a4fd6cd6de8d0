"""`POST /chicago/games`: whole games with the lives carried by the service.

Scripted games for 2 to 6 players are followed to their winner by hand; random legal games
are checked against a small reference model written here, and against the same rounds
ruled one by one through `/chicago/rounds`.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from chicago_records import Json, one, post, rejected, throw, turn
from litestar.testing import TestClient

from conftest import make_test_app
from diceref.games.chicago.rules.moves import legal_moves
from diceref.games.chicago.rules.ruleset import CHICAGO

# The app of the tests: test disk cache, no Redis, no preloading (never the env's).
app = make_test_app()


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(app) as c:
        yield c


def game(players: list[str], *rounds: list[Json]) -> Json:
    return {"players": players, "rounds": [{"turns": r} for r in rounds]}


def lives(ruling: Json) -> dict[str, int]:
    return {p["player"]: p["lives_after"] for p in ruling["turns"]}


def standings(out: Json) -> list[tuple[int, str, int, int | None]]:
    return [(s["rank"], s["player"], s["lives"], s["out_in_round"]) for s in out["standings"]]


TWO = game(
    ["Ann", "Bob"],
    [one("Ann", [2, 3, 4], call="high"), one("Bob", [1, 1, 2])],  # 9 < 202: Ann 3
    [one("Ann", [1, 6, 5], call="low", victim="Bob"), one("Bob", [2, 2, 3])],  # Bob 3, Ann 2
    [one("Ann", [3, 3, 3], call="low"), one("Bob", [4, 4, 1])],  # 9 = 9: Bob later, 2
    [one("Bob", [1, 1, 1]), turn("Ann")],  # Chicago: Ann 1, next by lot
    [one("Ann", [5, 5, 6], call="high"), one("Bob", [2, 2, 2])],  # Bob 1
    [one("Bob", [1, 6, 5], call="high", victim="Ann"), turn("Ann")],  # Ann 0: Bob wins
)


def test_two_players(client: TestClient[Any]) -> None:
    out = post(client, "/chicago/games", TWO)
    assert out["starting_lives"] == 4
    rounds = out["rounds"]
    assert [lives(r) for r in rounds] == [
        {"Ann": 3, "Bob": 4},
        {"Ann": 2, "Bob": 3},
        {"Ann": 2, "Bob": 2},
        {"Bob": 2, "Ann": 1},
        {"Ann": 1, "Bob": 1},
        {"Bob": 1, "Ann": 0},
    ]
    assert [r["next_starter"] for r in rounds] == ["Ann", "Ann", "Bob", None, "Bob", None]
    assert rounds[5]["ended_by"] == "one_six_five"
    assert out["winner"] == "Bob"
    assert out["game_over"] is True
    assert out["next_starter"] is None
    assert standings(out) == [(1, "Bob", 1, None), (2, "Ann", 0, 6)]


def test_round_after_the_game_ended(client: TestClient[Any]) -> None:
    body = dict(TWO)
    body["rounds"] = [*TWO["rounds"], {"turns": [one("Bob", [2, 2, 2], call="high")]}]
    field, reason = rejected(client, "/chicago/games", body)
    assert field == "rounds[6]"
    assert "round 7 comes after the game ended: Bob won in round 6" in reason


def test_three_players(client: TestClient[Any]) -> None:
    out = post(
        client,
        "/chicago/games",
        game(
            ["Ann", "Bob", "Cy"],
            [
                turn(
                    "Ann",
                    throw([6, 6, 2], kept=[1, 2], conversion="two_sixes"),
                    throw([1, 2, 5], call="high"),
                ),  # 107, and two throws for everyone
                turn("Bob", throw([3, 4, 4], kept=[]), throw([5, 5, 5])),  # 15
                one("Cy", [4, 4, 4]),  # 12: worst
            ],
            [one("Cy", [1, 1, 1]), turn("Ann"), turn("Bob")],  # Ann 2, Bob 2
            [
                one("Bob", [2, 2, 3], call="low"),  # 7
                one("Cy", [6, 6, 6]),  # 18: no throw left, so no conversion; worst
                one("Ann", [1, 1, 2]),  # 4
            ],
            [
                one("Cy", [1, 6, 5], call="high", victim="Bob"),
                one("Ann", [2, 2, 2]),  # 6: worst
                one("Bob", [3, 3, 3]),
            ],
            [
                one("Ann", [4, 5, 5], call="high"),
                one("Bob", [1, 2, 3]),
                one("Cy", [4, 4, 5]),  # 13 < 14: worst and out; Ann (next in turn) starts
            ],
            [one("Ann", [2, 3, 3], call="high"), one("Bob", [2, 2, 4])],  # 8 = 8: Bob out
        ),
    )
    assert out["starting_lives"] == 3
    assert [lives(r) for r in out["rounds"]] == [
        {"Ann": 3, "Bob": 3, "Cy": 2},
        {"Cy": 2, "Ann": 2, "Bob": 2},
        {"Bob": 2, "Cy": 1, "Ann": 2},
        {"Cy": 1, "Ann": 1, "Bob": 1},
        {"Ann": 1, "Bob": 1, "Cy": 0},
        {"Ann": 1, "Bob": 0},
    ]
    assert [r["next_starter"] for r in out["rounds"]] == ["Cy", None, "Cy", "Ann", "Ann", None]
    assert out["winner"] == "Ann"
    assert standings(out) == [(1, "Ann", 1, None), (2, "Bob", 0, 6), (3, "Cy", 0, 5)]


def test_four_players(client: TestClient[Any]) -> None:
    out = post(
        client,
        "/chicago/games",
        game(
            ["A", "B", "C", "D"],
            [one("A", [1, 1, 1]), turn("B"), turn("C"), turn("D")],
            [one("C", [1, 1, 1]), turn("D"), turn("A"), turn("B")],  # drawn by lot: C
            [
                one("D", [1, 6, 5], call="high", victim="B"),  # B out before throwing
                one("A", [2, 2, 2]),  # worst
                turn("B"),
                one("C", [3, 3, 3]),
            ],
            [one("A", [1, 1, 1]), turn("C"), turn("D")],  # D out
            [one("C", [5, 5, 5], call="low"), one("A", [6, 6, 6])],  # 18 > 15: A out
        ),
    )
    assert [r["knocked_out"] for r in out["rounds"]] == [[], [], ["B"], ["D"], ["A"]]
    assert out["winner"] == "C"
    assert standings(out) == [
        (1, "C", 1, None),
        (2, "A", 0, 5),
        (3, "D", 0, 4),
        (4, "B", 0, 3),
    ]


def test_five_players(client: TestClient[Any]) -> None:
    out = post(
        client,
        "/chicago/games",
        game(
            ["A", "B", "C", "D", "E"],
            [one("A", [2, 3, 4], call="high"), one("B", [1, 1, 1]), *map(turn, "CDE")],
            [one("E", [1, 1, 1]), *map(turn, "ABCD")],
            [
                one("A", [1, 6, 5], call="high", victim="C"),  # C out
                one("B", [2, 2, 2]),
                turn("C"),
                one("D", [5, 5, 5]),
                one("E", [1, 1, 1]),  # A and D out together; B 1
            ],
            [one("B", [1, 2, 2], call="high"), one("E", [1, 6, 5], victim="B")],
        ),
    )
    assert [r["knocked_out"] for r in out["rounds"]] == [[], [], ["C", "A", "D"], ["B"]]
    assert out["winner"] == "E"
    assert standings(out) == [
        (1, "E", 2, None),
        (2, "B", 0, 4),
        (3, "A", 0, 3),
        (3, "D", 0, 3),
        (5, "C", 0, 3),
    ]


def test_six_players(client: TestClient[Any]) -> None:
    out = post(
        client,
        "/chicago/games",
        game(
            ["A", "B", "C", "D", "E", "F"],
            [one("A", [2, 2, 2], call="high"), one("B", [3, 3, 3]), one("C", [1, 1, 1])]
            + [turn(n) for n in "DEF"],
            [one("D", [1, 1, 1]), *map(turn, "EFABC")],
            [one("C", [4, 4, 4], call="high"), one("D", [5, 5, 5])],
        ),
    )
    assert out["starting_lives"] == 2
    assert lives(out["rounds"][1]) == {"D": 1, "E": 0, "F": 0, "A": 0, "B": 0, "C": 1}
    assert out["winner"] == "D"
    assert standings(out) == [
        (1, "D", 1, None),
        (2, "C", 0, 3),
        (3, "A", 0, 2),
        (3, "B", 0, 2),
        (3, "E", 0, 2),
        (3, "F", 0, 2),
    ]


def test_game_in_progress(client: TestClient[Any]) -> None:
    out = post(client, "/chicago/games", {"players": ["Ann", "Bob", "Cy"], "rounds": TWO_ROUNDS})
    assert out["game_over"] is False
    assert out["winner"] is None
    assert out["next_starter"] == "Ann"
    assert standings(out) == [(1, "Bob", 3, None), (1, "Cy", 3, None), (3, "Ann", 2, None)]
    empty = post(client, "/chicago/games", {"players": ["Ann", "Bob"], "rounds": []})
    assert empty["starting_lives"] == 4
    assert standings(empty) == [(1, "Ann", 4, None), (1, "Bob", 4, None)]


TWO_ROUNDS = [
    {"turns": [one("Ann", [2, 3, 4], call="high"), one("Bob", [5, 5, 5]), one("Cy", [4, 4, 4])]},
]

GAME_REJECTIONS = [
    (
        "starter not the one named",
        [
            *TWO_ROUNDS,
            {
                "turns": [
                    one("Bob", [2, 3, 4], call="high"),
                    one("Cy", [5, 5, 5]),
                    one("Ann", [5, 5, 5]),
                ]
            },
        ],
        "rounds[1].turns[0].player",
        ["round 2 is started by Bob", "round 1 named Ann", "worst score starts"],
    ),
    (
        "order not round the table",
        [
            *TWO_ROUNDS,
            {
                "turns": [
                    one("Ann", [2, 3, 4], call="high"),
                    one("Cy", [5, 5, 5]),
                    one("Bob", [5, 5, 5]),
                ]
            },
        ],
        "rounds[1].turns",
        ["goes round the table from Ann", "expected ['Ann', 'Bob', 'Cy']"],
    ),
    (
        "a player missing",
        [*TWO_ROUNDS, {"turns": [one("Ann", [2, 3, 4], call="high"), one("Bob", [5, 5, 5])]}],
        "rounds[1].turns",
        ["Cy still has 3 lives and must play round 2"],
    ),
    (
        "a stranger",
        [{"turns": [one("Ann", [2, 3, 4], call="high"), one("Zed", [5, 5, 5])]}],
        "rounds[0].turns[1].player",
        ["'Zed' does not sit at this table"],
    ),
    (
        "a player twice",
        [{"turns": [one("Ann", [2, 3, 4], call="high"), one("Ann", [5, 5, 5])]}],
        "rounds[0].turns[1].player",
        ["'Ann' appears twice"],
    ),
    (
        "an illegal throw inside a game",
        [
            *TWO_ROUNDS,
            {
                "turns": [
                    one("Ann", [2, 3, 4], call="high"),
                    one("Bob", [5, 5, 5]),
                    turn("Cy", throw([4, 4, 4], kept=[]), throw([4, 4, 5])),
                ]
            },
        ],
        "rounds[1].turns[2].throws[1]",
        ["Cy: throw 2 of 1 allowed", "more times than the starter"],
    ),
]


@pytest.mark.parametrize(
    ("rounds", "field", "words"),
    [pytest.param(r, f, w, id=name) for name, r, f, w in GAME_REJECTIONS],
)
def test_illegal_game_is_rejected(
    client: TestClient[Any], rounds: list[Json], field: str, words: list[str]
) -> None:
    got_field, reason = rejected(
        client, "/chicago/games", {"players": ["Ann", "Bob", "Cy"], "rounds": rounds}
    )
    assert got_field == field, reason
    for word in words:
        assert word in reason, reason


def test_player_who_is_out_cannot_come_back(client: TestClient[Any]) -> None:
    body = game(
        ["A", "B", "C", "D", "E", "F"],
        [one("A", [1, 1, 1]), *map(turn, "BCDEF")],
        [one("B", [1, 1, 1]), *map(turn, "CDEFA")],  # C..F out, A at 1
        [one("A", [2, 2, 2], call="high"), one("B", [3, 3, 3]), one("C", [5, 5, 5])],
    )
    field, reason = rejected(client, "/chicago/games", body)
    assert field == "rounds[2].turns[2].player"
    assert "C is out since round 2" in reason


def test_table_size_and_lives_fields(client: TestClient[Any]) -> None:
    field, reason = rejected(client, "/chicago/games", {"players": ["Ann"], "rounds": []})
    assert field == "players"
    assert "2 to 6 players" in reason
    seven = {"players": list("ABCDEFG"), "rounds": []}
    assert client.post("/chicago/games", json=seven).status_code == 400
    with_lives = game(["Ann", "Bob"], [one("Ann", [2, 3, 4], lives=4, call="high")])
    assert client.post("/chicago/games", json=with_lives).status_code == 400


# --- random legal games against a reference model ------------------------------------------

HIGH = {1: 100, 2: 2, 3: 3, 4: 4, 5: 5, 6: 60}
START_LIVES = {2: 4, 3: 3, 4: 3, 5: 3, 6: 2}


def random_turn(rng: random.Random, allowed: int) -> tuple[list[Json], tuple[int, ...]]:
    """Legal throws for one player: random dice, a random legal move after each throw."""
    throws: list[Json] = []
    table: list[int] = []
    aside = 0
    for j in range(allowed):
        dice = tuple(sorted(table + [rng.randint(1, 6) for _ in range(3 - len(table))]))
        moves = legal_moves(CHICAGO, dice, aside, j + 1 < allowed)
        move = rng.choice(moves)
        if move.rethrow == 0:
            throws.append({"dice": list(dice)})
            return throws, dice
        record: Json = {"dice": list(dice), "kept": list(move.kept)}
        if move.conversion is not None:
            record["conversion"] = move.conversion.value
        throws.append(record)
        table, aside = list(move.kept), move.aside
    raise AssertionError("the last throw always stands")


def score(dice: tuple[int, ...], call: str) -> int:
    return sum(HIGH[d] if call == "high" else d for d in dice)


def random_round(
    rng: random.Random, order: list[str], lives: dict[str, int]
) -> tuple[list[Json], dict[str, int], str | None]:
    """One legal round and what the rules say it leads to (lives after, next starter),
    worked out here independently of the service."""
    left = dict(lives)
    players: list[Json] = []
    finals: dict[str, tuple[int, ...]] = {}
    call = ""
    allowed = 3
    over = False
    for i, name in enumerate(order):
        if over or left[name] == 0:
            players.append(turn(name))
            continue
        throws, dice = random_turn(rng, allowed)
        if i == 0:
            allowed = len(throws)
            call = rng.choice(["high", "low"])
            if dice != (1, 1, 1):
                throws[-1]["call"] = call
        players.append(turn(name, *throws))
        finals[name] = dice
        if dice == (1, 1, 1):
            for n in order:
                if n != name and left[n] > 0:
                    left[n] -= 1
            return players + [turn(n) for n in order[i + 1 :]], left, None
        if dice == (1, 5, 6):
            victim = rng.choice([n for n in order if n != name and left[n] > 0])
            throws[-1]["victim"] = victim
            left[victim] -= 1
        over = sum(v > 0 for v in left.values()) == 1
    if over:
        return players, left, None
    sign = 1 if call == "high" else -1
    contenders = [n for n in order if left[n] > 0]
    worst = min(reversed(contenders), key=lambda n: sign * score(finals[n], call))
    left[worst] -= 1
    if sum(v > 0 for v in left.values()) == 1:
        return players, left, None
    at = order.index(worst)
    return players, left, next(n for n in order[at:] + order[:at] if left[n] > 0)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_games_to_a_winner(client: TestClient[Any], n: int) -> None:
    for seed in range(3):
        rng = random.Random(1000 * n + seed)
        seating = [f"P{i}" for i in range(n)]
        lives = dict.fromkeys(seating, START_LIVES[n])
        starter: str | None = seating[0]
        rounds: list[list[Json]] = []
        singles: list[Json] = []
        while sum(v > 0 for v in lives.values()) > 1:
            alive = [p for p in seating if lives[p] > 0]
            first = starter if starter is not None else rng.choice(alive)
            at = alive.index(first)
            order = alive[at:] + alive[:at]
            players, after, starter = random_round(rng, order, lives)
            rounds.append(players)
            body = {
                "turns": [{**p, "lives": lives[p["player"]]} for p in players],
                "players_at_start": n,
            }
            ruling = post(client, "/chicago/rounds", body)
            assert {p["player"]: p["lives_after"] for p in ruling["turns"]} == {
                name: after[name] for name in order
            }
            assert ruling["next_starter"] == starter
            assert sum(p["lives_lost"] for p in ruling["turns"]) == sum(
                len(e["losers"]) for e in ruling["events"]
            )
            singles.append(ruling)
            lives.update(after)
            assert len(rounds) < 64
        whole = post(client, "/chicago/games", game(seating, *rounds))
        assert whole["rounds"] == singles
        [winner] = [p for p in seating if lives[p] > 0]
        assert whole["winner"] == winner
        assert whole["standings"][0]["player"] == winner
        assert [s["lives"] for s in whole["standings"][1:]] == [0] * (n - 1)
