"""`POST /chicago/rounds`: rulings on single rounds, and every illegal record rejected with a
problem+json naming the player, the throw and the rule."""

from __future__ import annotations

from typing import Any

import pytest
from chicago_records import Json, one, post, rejected, throw, turn
from litestar.testing import TestClient

from conftest import make_test_app
from diceref.games.chicago.rules.games import referee_round
from diceref.games.chicago.rules.round import ThrowRecord, Turn
from diceref.games.chicago.rules.ruleset import Call, TieLoser, chicago

# The app of the tests: test disk cache, no Redis, no preloading (never the env's).
app = make_test_app()


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(app) as c:
        yield c


def round_(*players: Json, at_start: int | None = None) -> Json:
    body: Json = {"turns": list(players)}
    if at_start is not None:
        body["players_at_start"] = at_start
    return body


def by_name(ruling: Json) -> dict[str, Json]:
    return {p["player"]: p for p in ruling["turns"]}


def lives_after(ruling: Json) -> dict[str, int]:
    return {p["player"]: p["lives_after"] for p in ruling["turns"]}


# --- rulings ---------------------------------------------------------------------------


def test_high_round_worst_loses_a_life_and_starts_next(client: TestClient[Any]) -> None:
    ruling = post(
        client,
        "/chicago/rounds",
        round_(
            one("Ann", [2, 3, 4], lives=3, call="high"),
            one("Bob", [1, 2, 2], lives=3),
            one("Cy", [5, 6, 5], lives=3),
        ),
    )
    assert ruling["call"] == "high"
    assert ruling["throw_limit"] == 1
    assert {n: p["score"] for n, p in by_name(ruling).items()} == {"Ann": 9, "Bob": 104, "Cy": 70}
    assert ruling["events"] == [
        {
            "kind": "worst_score",
            "player": "Ann",
            "victim": None,
            "losers": ["Ann"],
            "knocked_out": [],
            "throw": None,
            "score": 9,
        }
    ]
    assert lives_after(ruling) == {"Ann": 2, "Bob": 3, "Cy": 3}
    assert by_name(ruling)["Ann"]["lives_lost"] == 1
    assert ruling["ended_by"] == "worst_score"
    assert ruling["next_starter"] == "Ann"
    assert ruling["game_over"] is False
    assert ruling["winner"] is None
    assert ruling["knocked_out"] == []


def test_low_round_highest_is_worst(client: TestClient[Any]) -> None:
    ruling = post(
        client,
        "/chicago/rounds",
        round_(
            one("Ann", [1, 2, 2], lives=3, call="low"),
            one("Bob", [3, 3, 4], lives=3),
            one("Cy", [6, 2, 1], lives=3),
        ),
    )
    assert {n: p["score"] for n, p in by_name(ruling).items()} == {"Ann": 5, "Bob": 10, "Cy": 9}
    assert lives_after(ruling) == {"Ann": 3, "Bob": 2, "Cy": 3}
    assert ruling["next_starter"] == "Bob"


@pytest.mark.parametrize(
    ("call", "dice", "loser"),
    [
        ("high", ([2, 3, 4], [4, 5, 6], [3, 3, 3]), "Cy"),  # 9, 69, 9: Cy threw it later
        ("low", ([3, 3, 3], [2, 3, 4], [1, 1, 2]), "Bob"),  # 9, 9, 4: Bob threw it later
    ],
)
def test_tie_for_worst_goes_against_the_later_thrower(
    client: TestClient[Any], call: str, dice: tuple[list[int], ...], loser: str
) -> None:
    ruling = post(
        client,
        "/chicago/rounds",
        round_(
            one("Ann", dice[0], lives=3, call=call),
            one("Bob", dice[1], lives=3),
            one("Cy", dice[2], lives=3),
        ),
    )
    assert [e["player"] for e in ruling["events"]] == [loser]
    assert ruling["next_starter"] == loser


def _rule(rules: Any, *turns: tuple[str, list[int], Call | None, str | None]) -> Any:
    return referee_round(
        rules,
        [Turn(n, (ThrowRecord(tuple(d), call=c, victim=v),)) for n, d, c, v in turns],
        [3] * len(turns),
    )


def test_tie_reading_is_a_parameter() -> None:
    earlier = chicago(worst_tie_loser=TieLoser.EARLIER)
    ruling = _rule(
        earlier,
        ("Ann", [2, 3, 4], Call.HIGH, None),
        ("Bob", [4, 5, 6], None, None),
        ("Cy", [3, 3, 3], None, None),
    )
    assert ruling.events[-1].player == "Ann"


def test_one_six_five_takes_a_life_and_the_round_goes_on(client: TestClient[Any]) -> None:
    """On low a 1-6-5 is also a 12, which can be the worst score."""
    ruling = post(
        client,
        "/chicago/rounds",
        round_(
            one("Ann", [1, 2, 3], lives=3, call="low"),
            one("Bob", [1, 6, 5], lives=3, victim="Cy"),
            one("Cy", [2, 2, 2], lives=3),
        ),
    )
    assert by_name(ruling)["Bob"]["special"] == "one_six_five"
    assert by_name(ruling)["Bob"]["score"] == 12
    assert [(e["kind"], e["player"], e["victim"], e["throw"]) for e in ruling["events"]] == [
        ("one_six_five", "Bob", "Cy", 1),
        ("worst_score", "Bob", None, None),
    ]
    assert lives_after(ruling) == {"Ann": 3, "Bob": 2, "Cy": 2}
    assert ruling["next_starter"] == "Bob"


def test_one_six_five_that_cannot_be_worst_is_a_parameter() -> None:
    safe = chicago(one_six_five_scores=False)
    ruling = _rule(
        safe,
        ("Ann", [1, 2, 3], Call.LOW, None),
        ("Bob", [1, 6, 5], None, "Cy"),
        ("Cy", [2, 2, 2], None, None),
    )
    # Bob's 12 is out of the running; Ann's 6 and Cy's 6 tie and Cy threw later.
    assert [(e.kind.value, e.player) for e in ruling.events] == [
        ("one_six_five", "Bob"),
        ("worst_score", "Cy"),
    ]
    assert {p.name: p.lives_after for p in ruling.players} == {"Ann": 3, "Bob": 3, "Cy": 1}


def test_chicago_costs_every_opponent_a_life_and_ends_the_round(client: TestClient[Any]) -> None:
    ruling = post(
        client,
        "/chicago/rounds",
        round_(
            one("Ann", [2, 3, 4], lives=3, call="high"),
            one("Bob", [1, 1, 1], lives=3),
            turn("Cy", lives=3),
        ),
    )
    assert ruling["events"] == [
        {
            "kind": "chicago",
            "player": "Bob",
            "victim": None,
            "losers": ["Ann", "Cy"],
            "knocked_out": [],
            "throw": 1,
            "score": None,
        }
    ]
    assert lives_after(ruling) == {"Ann": 2, "Bob": 3, "Cy": 2}
    assert ruling["ended_by"] == "chicago"
    assert ruling["next_starter"] is None  # drawn by lot
    assert by_name(ruling)["Cy"]["dice"] is None
    assert by_name(ruling)["Cy"]["throw_count"] == 0


def test_starters_chicago_has_no_call(client: TestClient[Any]) -> None:
    ruling = post(
        client,
        "/chicago/rounds",
        round_(one("Ann", [1, 1, 1], lives=3), turn("Bob", lives=3), turn("Cy", lives=3)),
    )
    assert ruling["call"] is None
    assert by_name(ruling)["Ann"]["score"] is None
    assert by_name(ruling)["Ann"]["special"] == "chicago"
    assert lives_after(ruling) == {"Ann": 3, "Bob": 2, "Cy": 2}


def test_forced_conversion_into_a_chicago(client: TestClient[Any]) -> None:
    ruling = post(
        client,
        "/chicago/rounds",
        round_(
            turn(
                "Ann",
                throw([6, 6, 6], kept=[1, 1], conversion="three_sixes"),
                throw([1, 1, 1]),
                lives=4,
            ),
            turn("Bob", lives=4),
        ),
    )
    assert ruling["throw_limit"] == 2
    assert ruling["events"][0]["kind"] == "chicago"
    assert ruling["events"][0]["throw"] == 2
    assert lives_after(ruling) == {"Ann": 4, "Bob": 3}


def test_conversion_into_a_one_six_five(client: TestClient[Any]) -> None:
    ruling = post(
        client,
        "/chicago/rounds",
        round_(
            turn(
                "Ann",
                throw([6, 5, 6], kept=[1, 5], conversion="two_sixes"),
                throw([1, 5, 6], call="high", victim="Bob"),
                lives=4,
            ),
            turn("Bob", throw([2, 2, 3], kept=[]), throw([1, 1, 4]), lives=4),
        ),
    )
    assert by_name(ruling)["Ann"]["score"] == 165
    assert by_name(ruling)["Bob"]["score"] == 204
    assert lives_after(ruling) == {"Ann": 3, "Bob": 3}  # Bob: the 1-6-5; Ann: the worst score


def test_a_kept_six_counts_towards_two_sixes(client: TestClient[Any]) -> None:
    ruling = post(
        client,
        "/chicago/rounds",
        round_(
            turn(
                "Ann",
                throw([6, 2, 3], kept=[6]),
                throw([6, 6, 4], kept=[1, 4], conversion="two_sixes"),
                throw([1, 4, 1], call="high"),
                lives=4,
            ),
            one("Bob", [1, 1, 5], lives=4),
        ),
    )
    assert by_name(ruling)["Ann"]["score"] == 204
    assert by_name(ruling)["Bob"]["score"] == 205
    assert ruling["next_starter"] == "Ann"


def test_last_throw_for_a_later_player_stands_on_three_sixes(client: TestClient[Any]) -> None:
    """With no throw left the three 6s stay: 180 on high."""
    ruling = post(
        client,
        "/chicago/rounds",
        round_(one("Ann", [5, 5, 2], lives=4, call="high"), one("Bob", [6, 6, 6], lives=4)),
    )
    assert by_name(ruling)["Bob"]["score"] == 180
    assert ruling["next_starter"] == "Ann"


def test_knocked_out_before_their_turn_does_not_throw(client: TestClient[Any]) -> None:
    ruling = post(
        client,
        "/chicago/rounds",
        round_(
            one("Ann", [1, 6, 5], lives=2, call="high", victim="Bob"),
            turn("Bob", lives=1),
            one("Cy", [2, 2, 2], lives=2),
            at_start=3,
        ),
    )
    assert ruling["knocked_out"] == ["Bob"]
    assert ruling["events"][0]["knocked_out"] == ["Bob"]
    assert by_name(ruling)["Bob"]["lives_after"] == 0
    assert by_name(ruling)["Bob"]["out"] is True
    assert ruling["events"][1]["player"] == "Cy"  # Bob takes no part in the worst score
    assert ruling["next_starter"] == "Cy"


def test_game_ends_mid_round_on_a_one_six_five(client: TestClient[Any]) -> None:
    ruling = post(
        client,
        "/chicago/rounds",
        round_(
            one("Ann", [1, 6, 5], lives=3, call="low", victim="Bob"),
            turn("Bob", lives=1),
            at_start=2,
        ),
    )
    assert ruling["ended_by"] == "one_six_five"
    assert ruling["game_over"] is True
    assert ruling["winner"] == "Ann"
    assert ruling["next_starter"] is None
    assert [e["kind"] for e in ruling["events"]] == ["one_six_five"]


@pytest.mark.parametrize(
    ("order", "worst", "next_starter"),
    [(["Ann", "Bob", "Cy"], "Bob", "Cy"), (["Ann", "Bob", "Cy"], "Cy", "Ann")],
)
def test_worst_knocked_out_passes_the_start_on(
    client: TestClient[Any], order: list[str], worst: str, next_starter: str
) -> None:
    dice = {n: [5, 5, 5] for n in order}
    dice[worst] = [2, 2, 2]
    players = [
        one(n, dice[n], lives=1 if n == worst else 2, **({"call": "high"} if i == 0 else {}))
        for i, n in enumerate(order)
    ]
    ruling = post(client, "/chicago/rounds", round_(*players, at_start=3))
    assert ruling["knocked_out"] == [worst]
    assert ruling["next_starter"] == next_starter


def test_chicago_that_knocks_everyone_out_wins(client: TestClient[Any]) -> None:
    ruling = post(
        client,
        "/chicago/rounds",
        round_(
            one("Ann", [2, 2, 3], lives=1, call="high"),
            one("Bob", [1, 1, 1], lives=1),
            turn("Cy", lives=1),
            at_start=4,
        ),
    )
    assert ruling["knocked_out"] == ["Ann", "Cy"]
    assert ruling["winner"] == "Bob"
    assert ruling["ended_by"] == "chicago"


def test_lives_at_the_start_by_player_count(client: TestClient[Any]) -> None:
    for n, lives in [(2, 4), (3, 3), (4, 3), (5, 3), (6, 2)]:
        names = [f"P{i}" for i in range(n)]
        players = [one(names[0], [2, 3, 4], lives=lives, call="high")]
        players += [one(name, [5, 5, 5], lives=lives) for name in names[1:]]
        ruling = post(client, "/chicago/rounds", round_(*players))
        assert lives_after(ruling)[names[0]] == lives - 1


# --- rejections ------------------------------------------------------------------------

ANN_HIGH = one("Ann", [2, 3, 4], lives=3, call="high")

REJECTIONS: list[tuple[str, Json, str, list[str]]] = [
    (
        "more throws than the starter",
        round_(
            ANN_HIGH,
            turn("Bob", throw([2, 2, 3], kept=[]), throw([4, 4, 4]), lives=3),
            one("Cy", [5, 5, 5], lives=3),
        ),
        "turns[1].throws[1]",
        ["Bob", "throw 2 of 1 allowed", "more times than the starter"],
    ),
    (
        "a fourth throw",
        round_(
            turn(
                "Ann",
                throw([2, 3, 4], kept=[]),
                throw([2, 3, 4], kept=[]),
                throw([2, 3, 4], kept=[]),
                throw([2, 3, 4], call="high"),
                lives=4,
            ),
            one("Bob", [5, 5, 5], lives=4),
        ),
        "turns[0].throws[3]",
        ["Ann", "throw 4 of 3 allowed", "at most 3 throws"],
    ),
    (
        "kept dice that changed",
        round_(
            turn("Ann", throw([2, 3, 4], kept=[2]), throw([3, 3, 5], call="high"), lives=4),
            one("Bob", [5, 5, 5], lives=4),
        ),
        "turns[0].throws[1].dice",
        ["Ann", "throw 2", "kept dice cannot change"],
    ),
    (
        "a conversion without two sixes",
        round_(
            turn(
                "Ann",
                throw([6, 5, 4], kept=[1, 5], conversion="two_sixes"),
                throw([1, 5, 6], call="high", victim="Bob"),
                lives=4,
            ),
            one("Bob", [5, 5, 5], lives=4),
        ),
        "turns[0].throws[0].conversion",
        ["Ann", "throw 1", "needs 2 sixes", "show 1"],
    ),
    (
        "three_sixes claimed on two sixes",
        round_(
            turn(
                "Ann",
                throw([6, 6, 4], kept=[1, 1], conversion="three_sixes"),
                throw([1, 1, 6], call="high"),
                lives=4,
            ),
            one("Bob", [5, 5, 5], lives=4),
        ),
        "turns[0].throws[0].conversion",
        ["Ann", "needs 3 sixes"],
    ),
    (
        "a conversion on the last throw",
        round_(
            ANN_HIGH,
            one("Bob", [6, 6, 2], lives=3, conversion="two_sixes"),
            one("Cy", [2, 2, 2], lives=3),
        ),
        "turns[1].throws[0].conversion",
        ["Bob", "throw 1", "needs a throw left"],
    ),
    (
        "a conversion with no next throw recorded",
        round_(
            turn("Ann", throw([6, 6, 2], conversion="two_sixes", call="high"), lives=4),
            one("Bob", [5, 5, 5], lives=4),
        ),
        "turns[0].throws[0].conversion",
        ["Ann", "throw 1", "no next throw is recorded"],
    ),
    (
        "a skipped forced conversion",
        round_(
            turn("Ann", throw([6, 6, 6], kept=[6, 6]), throw([6, 6, 3], call="high"), lives=4),
            one("Bob", [5, 5, 5], lives=4),
        ),
        "turns[0].throws[0].conversion",
        ["Ann", "throw 1", "must be converted", "skipped"],
    ),
    (
        "standing on three sixes with a throw left",
        round_(one("Ann", [6, 6, 6], lives=4, call="high"), one("Bob", [5, 5, 5], lives=4)),
        "turns[0].throws[0].conversion",
        ["Ann", "throw 1", "forced conversion was skipped"],
    ),
    (
        "a set-aside 1 thrown again",
        round_(
            turn(
                "Ann",
                throw([6, 6, 2], kept=[2], conversion="two_sixes"),
                throw([2, 3, 4], call="high"),
                lives=4,
            ),
            one("Bob", [5, 5, 5], lives=4),
        ),
        "turns[0].throws[0].kept",
        ["Ann", "throw 1", "set-aside 1(s) must stay"],
    ),
    (
        "keeping the six a conversion sends back",
        round_(
            turn(
                "Ann",
                throw([6, 6, 2], kept=[1, 6], conversion="two_sixes"),
                throw([1, 6, 4], call="high"),
                lives=4,
            ),
            one("Bob", [5, 5, 5], lives=4),
        ),
        "turns[0].throws[0].kept",
        ["Ann", "remaining 6 goes back into the shaker"],
    ),
    (
        "keeping dice that are not there",
        round_(
            turn("Ann", throw([2, 3, 4], kept=[5]), throw([5, 1, 1], call="high"), lives=4),
            one("Bob", [5, 5, 5], lives=4),
        ),
        "turns[0].throws[0].kept",
        ["Ann", "kept [5] from [2, 3, 4]: one 5 kept, none on the table"],
    ),
    (
        "a throw that throws nothing",
        round_(
            turn("Ann", throw([2, 3, 4], kept=[2, 3, 4]), throw([2, 3, 4], call="high"), lives=4),
            one("Bob", [5, 5, 5], lives=4),
        ),
        "turns[0].throws[0].kept",
        ["Ann", "throws at least one die"],
    ),
    (
        "a missing call",
        round_(one("Ann", [2, 3, 4], lives=4), one("Bob", [5, 5, 5], lives=4)),
        "turns[0].throws[0].call",
        ["Ann", "throw 1", "missing call"],
    ),
    (
        "a late call",
        round_(ANN_HIGH, one("Bob", [5, 5, 5], lives=3, call="low"), one("Cy", [1, 2, 3], lives=3)),
        "turns[1].throws[0].call",
        ["Bob", "throw 1", "late call", "only the starter calls"],
    ),
    (
        "a call before the starter's last throw",
        round_(
            turn(
                "Ann",
                throw([2, 3, 4], kept=[], call="high"),
                throw([2, 3, 5], call="high"),
                lives=4,
            ),
            one("Bob", [5, 5, 5], lives=4),
        ),
        "turns[0].throws[0].call",
        ["Ann", "throw 1", "called and threw again"],
    ),
    (
        "a call after the starter's Chicago",
        round_(one("Ann", [1, 1, 1], lives=4, call="high"), turn("Bob", lives=4)),
        "turns[0].throws[0].call",
        ["Ann", "no call after a Chicago"],
    ),
    (
        "a 1-6-5 victim who is the roller",
        round_(
            ANN_HIGH,
            one("Bob", [1, 6, 5], lives=3, victim="Bob"),
            one("Cy", [2, 2, 2], lives=3),
        ),
        "turns[1].throws[0].victim",
        ["Bob", "throw 1", "must be an opponent", "cannot pick themselves"],
    ),
    (
        "a 1-6-5 victim who does not play",
        round_(
            ANN_HIGH,
            one("Bob", [1, 6, 5], lives=3, victim="Zed"),
            one("Cy", [2, 2, 2], lives=3),
        ),
        "turns[1].throws[0].victim",
        ["Bob", "must be an opponent", "'Zed' does not play"],
    ),
    (
        "a 1-6-5 victim already out",
        round_(
            one("Ann", [1, 6, 5], lives=3, call="high", victim="Cy"),
            one("Bob", [1, 6, 5], lives=3, victim="Cy"),
            turn("Cy", lives=1),
            at_start=3,
        ),
        "turns[1].throws[0].victim",
        ["Bob", "'Cy' is already out", "Ann's 1-6-5"],
    ),
    (
        "a 1-6-5 without a victim",
        round_(ANN_HIGH, one("Bob", [1, 6, 5], lives=3), one("Cy", [2, 2, 2], lives=3)),
        "turns[1].throws[0].victim",
        ["Bob", "throw 1", "names no opponent"],
    ),
    (
        "a victim without a 1-6-5",
        round_(
            ANN_HIGH,
            one("Bob", [1, 6, 4], lives=3, victim="Cy"),
            one("Cy", [2, 2, 2], lives=3),
        ),
        "turns[1].throws[0].victim",
        ["Bob", "not 1-6-5"],
    ),
    (
        "a 1-6-5 thrown on",
        round_(
            turn(
                "Ann",
                throw([1, 6, 5], kept=[1, 5], victim="Bob"),
                throw([1, 5, 2], call="high"),
                lives=4,
            ),
            one("Bob", [5, 5, 5], lives=4),
        ),
        "turns[0].throws[0].victim",
        ["Ann", "throw 1", "only on the dice the player stands on"],
    ),
    (
        "a throw after a Chicago in the same turn",
        round_(
            turn("Ann", throw([2, 3, 4], kept=[]), throw([2, 3, 5], call="high"), lives=4),
            turn("Bob", throw([1, 1, 1], kept=[1, 1]), throw([1, 1, 2]), lives=4),
        ),
        "turns[1].throws[1]",
        ["Bob", "throw 2", "Chicago", "ends the turn"],
    ),
    (
        "a throw after the round ended at a Chicago",
        round_(ANN_HIGH, one("Bob", [1, 1, 1], lives=3), one("Cy", [2, 3, 3], lives=3)),
        "turns[2].throws[0]",
        ["Cy", "throw 1", "round ended at Bob's Chicago"],
    ),
    (
        "a throw by a player knocked out in this round",
        round_(
            one("Ann", [1, 6, 5], lives=2, call="high", victim="Bob"),
            one("Bob", [2, 2, 2], lives=1),
            one("Cy", [3, 3, 3], lives=2),
            at_start=3,
        ),
        "turns[1].throws[0]",
        ["Bob", "throw 1", "lost their last life to Ann's 1-6-5"],
    ),
    (
        "a throw after the game ended",
        round_(
            one("Ann", [1, 6, 5], lives=2, call="high", victim="Bob"),
            one("Bob", [2, 2, 2], lives=1),
            at_start=2,
        ),
        "turns[1].throws[0]",
        ["Bob", "throw 1", "the game is over", "Ann is the last player with lives"],
    ),
    (
        "a player still in without a throw",
        round_(ANN_HIGH, turn("Bob", lives=3), one("Cy", [2, 2, 2], lives=3)),
        "turns[1].throws",
        ["Bob", "no throw recorded", "at least once"],
    ),
    (
        "a player who is out",
        round_(ANN_HIGH, one("Bob", [5, 5, 5], lives=0), one("Cy", [2, 2, 2], lives=3), at_start=3),
        "turns[1].lives",
        ["Bob", "is out", "takes no part"],
    ),
    (
        "a round after the game ended",
        round_(ANN_HIGH, at_start=3),
        "turns",
        ["after the game ended", "one player left"],
    ),
    (
        "wrong lives at the start",
        round_(
            one("Ann", [2, 3, 4], lives=4, call="high"),
            one("Bob", [5, 5, 5], lives=3),
            one("Cy", [2, 2, 2], lives=3),
        ),
        "turns[0].lives",
        ["Ann", "has 4 lives", "a game of 3 players starts with 3"],
    ),
    (
        "fewer lives than the start in a first round",
        round_(one("Ann", [2, 3, 4], lives=3, call="high"), one("Bob", [5, 5, 5], lives=4)),
        "turns[0].lives",
        ["Ann", "has 3 lives", "a game of 2 players starts with 4", "players_at_start"],
    ),
    (
        "more lives than the start in a later round",
        round_(
            one("Ann", [2, 3, 4], lives=1, call="high"),
            one("Bob", [5, 5, 5], lives=4),
            at_start=4,
        ),
        "turns[1].lives",
        ["Bob", "more than the 3 a game of 4 players starts with"],
    ),
    (
        "a start with fewer players than are in",
        round_(
            ANN_HIGH,
            one("Bob", [5, 5, 5], lives=3),
            one("Cy", [1, 1, 2], lives=3),
            at_start=2,
        ),
        "players_at_start",
        ["cannot have started with 2 players when 3 are still in"],
    ),
    (
        "a player twice",
        round_(ANN_HIGH, one("Ann", [5, 5, 5], lives=3), one("Cy", [1, 1, 2], lives=3)),
        "turns[1].player",
        ["'Ann' appears twice"],
    ),
]


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [pytest.param(b, f, w, id=name) for name, b, f, w in REJECTIONS],
)
def test_illegal_record_is_rejected(
    client: TestClient[Any], body: Json, field: str, words: list[str]
) -> None:
    got_field, reason = rejected(client, "/chicago/rounds", body)
    assert got_field == field, reason
    for word in words:
        assert word in reason, reason


def test_malformed_rounds_are_invalid_requests(client: TestClient[Any]) -> None:
    for body in (
        {"players": []},
        round_(ANN_HIGH, {"player": "Bob", "lives": 3, "throws": [{"dice": [1, 2]}]}),
        round_(ANN_HIGH, {"player": "Bob", "lives": 3, "throws": [], "hat": 1}),
        round_(ANN_HIGH, {"player": "", "lives": 3, "throws": []}),
        round_(ANN_HIGH, {"player": "Bob", "throws": []}),
        round_(ANN_HIGH, one("Bob", [2, 2, 2], lives=3, conversion="four_sixes")),
        round_(ANN_HIGH, one("Bob", [2, 2, 2], lives=3), at_start=7),
    ):
        response = client.post("/chicago/rounds", json=body)
        assert response.status_code == 400, body
        assert response.headers["content-type"].startswith("application/problem+json")
