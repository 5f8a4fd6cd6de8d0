"""`/yardkle/holds` with an `opponent`: the two-player chance to win per option, through the
app, against the reference solve (`duel.solve_duel`), the 503 before the table is in, and
the fields a bad request names.

The game is three dice to 1,000 under house rules (the duel table solves in a tenth of a
second, the reference in seconds); no test solves the default rules' table.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from conftest import make_test_app
from diceref.core.dice import canonical
from diceref.games.yardkle import FAMILY
from diceref.games.yardkle import tables as yardkle_tables
from diceref.games.yardkle.rules.ruleset import YardkleGame, YardkleRules
from diceref.games.yardkle.rules.scoring import set_asides
from diceref.games.yardkle.solver import duel_array
from diceref.games.yardkle.solver.duel import DuelTable, _game, last_turn_chances, solve_duel
from diceref.games.yardkle.solver.duel_fast import solve_duel_fast
from diceref.games.yardkle.tables import duel_spec, policy_spec, solve_policy_table
from diceref.tables.config import TableSettings
from diceref.tables.spec import load_sync
from diceref.tables.store import TableStore
from helpers import put_policy, registry_table

Client = TestClient[Litestar]
HOUSE = {"dice": 3, "target": 1000}
ROUND = {**HOUSE, "last_turns": "complete_the_round"}  # the seat in the state
FORCED = {**HOUSE, "hot_dice_optional": False}  # the state after hot dice may not bank
UNIT = 50


@cache
def rules(house: tuple[tuple[str, Any], ...] = tuple(HOUSE.items())) -> YardkleRules:
    return FAMILY.game_of(YardkleGame, "yardkle", dict(house)).rules


def round_rules() -> YardkleRules:
    return rules(tuple(ROUND.items()))


@cache
def reference(house: tuple[tuple[str, Any], ...] = tuple(HOUSE.items())) -> DuelTable:
    return solve_duel(rules(house))


def round_reference() -> DuelTable:
    return reference(tuple(ROUND.items()))


@pytest.fixture(scope="module")
def app() -> Litestar:
    app = make_test_app()
    for house in (HOUSE, ROUND, FORCED):
        game = rules(tuple(house.items()))
        app.state.tables.put(policy_spec(game), solve_policy_table(game), "memory")
        table = duel_array.to_array(solve_duel_fast(game))
        app.state.tables.put(duel_spec(game), table, "memory")
    return app


@pytest.fixture(scope="module")
def client(app: Litestar) -> Iterator[Client]:
    with TestClient(app) as c:
        yield c


def holds(client: Client, **body: Any) -> dict[str, Any]:
    r = client.post("/yardkle/holds", json={"rules": HOUSE, **body})
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


STATES = [
    # thrower's total and pad, opponent's, turn points before the throw, the throw
    (0, False, 0, False, 0, [1, 5, 5]),
    (0, False, 600, True, 0, [1, 1, 5]),
    (0, False, 0, False, 350, [1, 5]),
    (500, True, 850, True, 0, [1, 5, 2]),
    (900, True, 550, True, 0, [5, 5, 5]),
    (650, True, 950, True, 200, [1, 5]),
    (950, True, 950, True, 0, [1, 1, 1]),
    (550, True, 700, True, 400, [5]),
]


@pytest.mark.parametrize(("total", "on_pad", "theirs", "their_pad", "points", "dice"), STATES)
def test_every_option_carries_the_reference_chance_to_win(
    client: Client,
    total: int,
    on_pad: bool,
    theirs: int,
    their_pad: bool,
    points: int,
    dice: list[int],
) -> None:
    body = holds(
        client,
        dice=dice,
        on_pad=on_pad,
        turn_points=points,
        total=total,
        opponent={"total": theirs, "on_pad": their_pad},
    )
    table = reference()
    a, b = total // UNIT, theirs // UNIT
    turn = table.turns[(a, b, 0)]
    options = body["options"]
    assert options
    for o in options:
        after, left = o["turn_points"] // UNIT, o["dice_left_count"]
        assert o["win_probability"] == pytest.approx(float(turn.stop[after, left - 1]), abs=1e-9)
        # the same chance as the lookup of the state the option leads to
        if after < turn.cap:
            thrown = table.win_probability(total, on_pad, theirs, their_pad, o["turn_points"], left)
            if o["decision"] == "throw_on":
                assert o["win_probability"] == pytest.approx(thrown, abs=1e-9)
            else:
                assert o["win_probability"] >= thrown - 1e-12
    best = table.advise(total, theirs, points, dice)
    assert options[0]["win_probability"] == pytest.approx(best.win_probability, abs=1e-9)
    assert body["best_option"]["win_probability"] == options[0]["win_probability"]
    assert list(canonical(best.keep)) in [o["set_aside"] for o in options if o["best"]]
    # ranked by the chance to win; best and loss against the top one
    chances = [o["win_probability"] for o in options]
    assert chances == sorted(chances, reverse=True)
    assert [o["rank"] for o in options] == list(range(1, len(options) + 1))
    top = chances[0]
    for o in options:
        assert o["best"] == (top - o["win_probability"] <= 1e-9)
        loss = top - o["win_probability"]
        assert o["loss"] == pytest.approx(0.0 if loss <= 1e-9 else loss, abs=1e-15)
        assert o["expected_points"] == max(o["bank_expected_points"], o["throw_on_expected_points"])


FORCED_STATES = [
    # thrower's total and pad, opponent's, turn points before the throw, the throw
    (0, False, 0, False, 0, [1, 5, 5]),  # hot dice at 200: throw again
    (500, True, 850, True, 0, [2, 2, 2]),  # only hot dice
    (900, True, 550, True, 400, [5, 5, 5]),  # hot dice or keep dice back
    (650, True, 950, True, 0, [1, 1, 1]),
    (550, True, 700, True, 300, [1, 5]),
]


@pytest.mark.parametrize(
    ("total", "on_pad", "theirs", "their_pad", "points", "dice"), FORCED_STATES
)
def test_forced_hot_dice_carry_the_reference_chance_to_win(
    client: Client,
    total: int,
    on_pad: bool,
    theirs: int,
    their_pad: bool,
    points: int,
    dice: list[int],
) -> None:
    """Under hot dice forced every option's chance to win is the reference solve's (itself
    held to a brute force, `test_duel.py`), and hot dice throw on, never bank."""
    r = client.post(
        "/yardkle/holds",
        json={
            "rules": FORCED,
            "dice": dice,
            "on_pad": on_pad,
            "turn_points": points,
            "total": total,
            "opponent": {"total": theirs, "on_pad": their_pad},
        },
    )
    assert r.status_code == 200, r.text
    options = r.json()["options"]
    table = reference(tuple(FORCED.items()))
    turn = table.turns[(total // UNIT, theirs // UNIT, 0)]
    assert options and any(o["hot_dice"] for o in options)
    for o in options:
        after, left = o["turn_points"] // UNIT, o["dice_left_count"]
        assert o["win_probability"] == pytest.approx(float(turn.stop[after, left - 1]), abs=1e-9)
        if o["hot_dice"]:
            assert o["decision"] == "throw_on" and not o["bank_allowed"]
            if after < turn.cap:
                thrown = table.win_probability(total, on_pad, theirs, their_pad, after * UNIT, 3)
                assert o["win_probability"] == pytest.approx(thrown, abs=1e-9)
    best = table.advise(total, theirs, points, dice)
    assert options[0]["win_probability"] == pytest.approx(best.win_probability, abs=1e-9)
    # Not the chances of the rules with hot dice optional, where the same options may bank.
    optional = reference().turns[(total // UNIT, theirs // UNIT, 0)]
    hot = [o for o in options if o["hot_dice"]]
    assert any(
        abs(o["win_probability"] - optional.stop[o["turn_points"] // UNIT, 2]) > 1e-6 for o in hot
    )


def _hot_by_the_throws(game: YardkleRules, a: int, b: int, t: int, yardkle: float) -> float:
    """H(t) for the turn at (a, b) past its cap under hot dice forced, by the turn's equation
    over the 216 ordered throws: a set-aside that keeps dice back banks, 1 - U(a + t' - b)
    (the opponent's last turn, on the pad), hot dice throw again; swept down from 200 units
    above t (a chain of only-hot throws climbs that far with a chance under (4/216)^10)."""
    d = game.dice
    throws = [set_asides(dice, game) for dice in product(range(1, 7), repeat=d)]
    u = last_turn_chances(game, a + t - b + 240)[0][1]
    hot: dict[int, float] = {}

    def worth(at: int, kept: int) -> float:
        return 1.0 - float(u[a + at - b]) if kept < d else hot.get(at, 0.0)

    yardkle_chance = sum(not options for options in throws) / 6**d
    for at in range(t + 200, t - 1, -1):
        hot[at] = yardkle_chance * yardkle + sum(
            max(worth(at + o.points // UNIT, len(o.dice)) for o in options) / 6**d
            for options in throws
            if options
        )
    return hot[t]


def test_a_forced_throw_past_the_cap_gets_every_options_chance(client: Client) -> None:
    """With hot dice forced a throw of all the dice comes after hot dice, past the turn's
    cap and its table too: every option's chance to win is the turn's closed form, ranked,
    with the best.  Checked against the turn's equation over the ordered throws (a sweep of
    its own): a set-aside keeping dice back banks, 1 - U of the opponent's last turn, hot
    dice throw again, worth H.  Far past (5,000,000 points in hand) U is nothing and H is
    rho + (1 - rho) Y, rho counted here from the throws."""
    forced = rules(tuple(FORCED.items()))
    table = reference(tuple(FORCED.items()))
    a, b = 10, 11
    turn = table.turns[(a, b, 0)]
    yardkle = 1.0 - float(table.values[b, a])
    d = forced.dice
    kept_back = only_hot = 0
    for dice in product(range(1, 7), repeat=d):
        options = set_asides(dice, forced)
        kept_back += any(len(o.dice) < d for o in options)
        only_hot += bool(options) and all(len(o.dice) == d for o in options)
    rho = kept_back / (6**d - only_hot)
    body = {"dice": [1, 5, 5], "on_pad": True, "total": a * UNIT}
    body["opponent"] = {"total": b * UNIT, "on_pad": True}
    u = last_turn_chances(forced, a - b + len(turn.stop) + 40)[0][1]
    for t in (turn.cap + 1, len(turn.stop) + 5, 100_000):
        r = client.post("/yardkle/holds", json={"rules": FORCED, **body, "turn_points": t * UNIT})
        assert r.status_code == 200, r.text
        answer = r.json()
        options = answer["options"]
        assert len(options) == len(set_asides([1, 5, 5], forced))
        chances = [o["win_probability"] for o in options]
        assert chances == sorted(chances, reverse=True)
        assert answer["best_option"]["win_probability"] == chances[0]
        assert answer["best_option"]["decision"] == "bank" and options[0]["best"]
        assert any(o["hot_dice"] for o in options)
        for o in options:
            after = o["turn_points"] // UNIT
            if o["hot_dice"]:
                assert o["decision"] == "throw_on" and not o["bank_allowed"]
                if t < 100_000:
                    expected = _hot_by_the_throws(forced, a, b, after, yardkle)
                else:
                    expected = rho + (1.0 - rho) * yardkle
                assert o["win_probability"] == pytest.approx(expected, abs=1e-9)
            else:
                assert o["decision"] == "bank" and o["bank_allowed"]
                bank = 1.0 - float(u[a + after - b]) if t < 100_000 else 1.0
                assert o["win_probability"] == pytest.approx(bank, abs=1e-12)


def test_a_throw_on_past_the_cap_banks_every_option(client: Client) -> None:
    """Hot dice optional: a throw from past the cap follows a throw on where banking was
    proven best; every option, hot dice too, banks, worth 1 - U of the opponent's last turn
    (nothing far past, 5,000,000 points in hand)."""
    a, b = 10, 11
    turn = reference().turns[(a, b, 0)]
    u = last_turn_chances(rules(), a - b + len(turn.stop) + 40)[0][1]
    body = {"dice": [1, 5, 5], "on_pad": True, "total": a * UNIT}
    body["opponent"] = {"total": b * UNIT, "on_pad": True}
    for t in (turn.cap + 1, len(turn.stop) + 5, 100_000):
        answer = holds(client, **body, turn_points=t * UNIT)
        assert answer["best_option"]["decision"] == "bank"
        for o in answer["options"]:
            after = o["turn_points"] // UNIT
            assert o["decision"] == "bank"
            bank = 1.0 - float(u[a + after - b]) if t < 100_000 else 1.0
            assert o["win_probability"] == pytest.approx(bank, abs=1e-12)


def test_the_decision_follows_the_chance_to_win(client: Client) -> None:
    """Bank exactly when banking is at least as likely to win as throwing on (or the turn
    is past its cap, where banking is proven best); over a grid of totals the two-player
    coach decides otherwise than the expected-points coach somewhere."""
    game = _game(rules())
    differs = 0
    totals = (0, 550, 700, 950)  # 0, or at least the entry minimum
    for points, total, theirs in product((0, 150), totals, totals):
        body = holds(
            client,
            dice=[1, 5, 2],
            on_pad=total > 0,
            turn_points=points,
            total=total,
            opponent={"total": theirs, "on_pad": theirs > 0},
        )
        plain = holds(client, dice=[1, 5, 2], on_pad=total > 0, turn_points=points)
        a, b = total // UNIT, theirs // UNIT
        bank, _, cap = game.bank(a, b, reference().seat_values)
        turn = reference().turns[(a, b, 0)]
        by_keep = {tuple(o["set_aside"]): o for o in plain["options"]}
        for o in body["options"]:
            after, left = o["turn_points"] // UNIT, o["dice_left_count"]
            banks = after >= cap or (
                o["bank_allowed"] and bank[after] >= turn.throw[after, left - 1]
            )
            assert o["decision"] == ("bank" if banks else "throw_on"), (total, theirs, o)
            differs += o["decision"] != by_keep[tuple(o["set_aside"])]["decision"]
    assert differs > 0


def test_without_an_opponent_the_answer_is_todays(client: Client) -> None:
    plain = {"rules": HOUSE, "dice": [1, 5, 2], "on_pad": True, "turn_points": 0}
    today = client.post("/yardkle/holds", json=plain)
    with_total = client.post("/yardkle/holds", json={**plain, "total": 500})
    assert today.status_code == 200 and today.content == with_total.content
    assert all(o["win_probability"] is None for o in today.json()["options"])


def test_the_default_rules_without_an_opponent_are_unchanged(tmp_path: Path) -> None:
    """No duel table in the app: a request without `opponent` never asks for it.  The app
    has a disk of its own, since start-up maps a duel table already on its disk."""
    app = make_test_app(cache_dir=tmp_path)
    put_policy(app)
    with TestClient(app) as client:
        r = client.post("/yardkle/holds", json={"dice": [1, 5, 2, 2, 3, 4], "on_pad": False})
        assert r.status_code == 200, r.text
        assert all(o["win_probability"] is None for o in r.json()["options"])
    assert duel_spec(YardkleRules()).key not in app.state.tables.states  # never asked for


def test_an_opponent_is_a_503_until_the_duel_table_is_in(tmp_path: Path) -> None:
    app = make_test_app(cache_dir=tmp_path)
    app.state.tables.put(policy_spec(rules()), solve_policy_table(rules()), "memory")
    body = {
        "rules": HOUSE,
        "dice": [1, 5, 2],
        "on_pad": True,
        "total": 500,
        "opponent": {"total": 550, "on_pad": True},
    }
    with TestClient(app) as client:
        r = client.post("/yardkle/holds", json=body)
        assert r.status_code == 503, r.text
        problem = r.json()
        assert problem["type"].endswith("/table-solving")
        assert 0.0 <= problem["progress"] <= 1.0
        assert r.headers["retry-after"] == "5"
        del body["opponent"]  # the coach's table alone answers without an opponent
        assert client.post("/yardkle/holds", json=body).status_code == 200
        readyz = client.get("/readyz")
        assert readyz.status_code == 200, readyz.text  # readiness does not wait for it


def test_a_duel_table_is_warmed_before_it_is_served(tmp_path: Path) -> None:
    """A loaded duel table is served only once the game is rebuilt from it and a turn
    recomputed (the compiled sweep's import and compile): the registry's table is already
    the one `duel_of` holds before any request has answered from it."""
    spec = duel_spec(rules())
    load_sync(TableStore(TableSettings(cache_dir=tmp_path)), spec)  # on the app's disk
    app = make_test_app(cache_dir=tmp_path)
    registry = app.state.tables
    with TestClient(app) as client:
        table = client.blocking_portal.call(registry_table, registry, spec)
        built = yardkle_tables._DUELS.get(spec.rules_hash)
        assert built is not None and built[0] is table


OPP = {"total": 550, "on_pad": True}
BAD: list[tuple[dict[str, Any], int, str, str]] = [
    ({"opponent": {"total": 320, "on_pad": True}}, 422, "opponent.total", "impossible_total"),
    ({"opponent": {"total": -50, "on_pad": True}}, 400, "opponent.total", "out_of_range"),
    ({"opponent": {"total": 300, "on_pad": True}}, 422, "opponent.total", "impossible_total"),
    ({"opponent": {"total": 1000, "on_pad": True}}, 422, "opponent.total", "goal_reached"),
    ({"opponent": {"total": 0, "on_pad": True}}, 422, "opponent.on_pad", "pad_mismatch"),
    ({"opponent": {"total": 300}}, 400, "opponent.on_pad", "missing_field"),
    ({"opponent": OPP, "total": 1050}, 422, "total", "goal_reached"),
    ({"opponent": OPP, "total": 75}, 422, "total", "impossible_total"),
    ({"opponent": OPP, "total": 0, "on_pad": True}, 422, "on_pad", "pad_mismatch"),
    ({"opponent": OPP, "need": 300}, 422, "opponent", "exclusive_fields"),
    ({"opponent": OPP, "rules": {"target": 20_000, "hot_dice_optional": False},
      "dice": [1, 5, 2, 2, 3, 4]}, 422, "rules.target", "ruleset_limit"),
    ({"opponent": OPP, "rules": {"target": 20_000}, "dice": [1, 5, 2, 2, 3, 4]}, 422,
     "rules.target", "ruleset_limit"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "status", "field", "code"), BAD)
def test_a_bad_two_player_request_names_the_field(
    client: Client, change: dict[str, Any], status: int, field: str, code: str
) -> None:
    body = {"rules": HOUSE, "dice": [1, 5, 2], "on_pad": True, "total": 500, **change}
    r = client.post("/yardkle/holds", json=body)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    errors = r.json()["errors"]
    assert [(e["field"], e["code"]) for e in errors] == [(field, code)], errors


# --- /yardkle/games with `chances` ---------------------------------------------------------

BANK_500 = {  # three 1s, then 1 and 5, then 5: 500 banked (hot dice twice)
    "throws": [
        {"dice": [1, 1, 1], "set_aside": [1, 1, 1]},
        {"dice": [1, 5, 2], "set_aside": [1, 5]},
        {"dice": [5], "set_aside": [5]},
    ],
    "end": "bank",
}
YARDKLE = {"throws": [{"dice": [2, 3, 4]}], "end": "yardkle"}


def game(client: Client, players: list[str], turns: list[Any], **more: Any) -> Any:
    body = {"rules": HOUSE, "players": players, "turns": turns, **more}
    return client.post("/yardkle/games", json=body)


def chances_of(answer: dict[str, Any]) -> dict[str, float]:
    return {s["player"]: s["win_probability"] for s in answer["standings"]}


def test_a_two_player_game_reports_each_chance_to_win(client: Client) -> None:
    table = reference()
    ann, bob = ({**t, "player": p} for t, p in ((BANK_500, "ann"), (YARDKLE, "bob")))
    start = game(client, ["ann", "bob"], [], chances=True).json()
    assert chances_of(start)["ann"] == pytest.approx(float(table.values[0, 0]), abs=1e-9)
    after = game(client, ["ann", "bob"], [ann, bob], chances=True).json()
    assert after["next_player"] == "ann"
    chances = chances_of(after)
    assert chances["ann"] == pytest.approx(float(table.values[10, 0]), abs=1e-9)
    assert chances["ann"] + chances["bob"] == pytest.approx(1.0, abs=1e-12)
    one = game(client, ["ann", "bob"], [ann], chances=True).json()
    assert chances_of(one)["bob"] == pytest.approx(float(table.values[0, 10]), abs=1e-9)
    # the last turn: ann reaches 1,000, bob (at 0, off the pad) has his last turn
    last = game(client, ["ann", "bob"], [ann, bob, ann], chances=True).json()
    assert last["last_turns_due"] == ["bob"]
    assert chances_of(last)["bob"] == pytest.approx(
        table.last_turn_probability(0, False, 1000), abs=1e-9
    )
    done = game(client, ["ann", "bob"], [ann, bob, ann, bob], chances=True).json()
    assert done["finished"] and all("win_probability" not in s for s in done["standings"])


def test_without_chances_a_game_answers_as_today(client: Client) -> None:
    turns = [{**BANK_500, "player": "ann"}]
    plain = game(client, ["ann", "bob"], turns)
    assert plain.status_code == 200
    assert plain.content == game(client, ["ann", "bob"], turns, chances=False).content
    assert all("win_probability" not in s for s in plain.json()["standings"])


def test_chances_for_more_than_two_players_are_a_422(client: Client) -> None:
    r = game(client, ["ann", "bob", "cy"], [], chances=True)
    assert r.status_code == 422, r.text
    assert [(e["field"], e["code"]) for e in r.json()["errors"]] == [
        ("chances", "two_players_only")
    ]
    assert "two players" in r.json()["detail"]


def test_chances_are_left_out_until_the_duel_table_is_loaded(tmp_path: Path) -> None:
    app = make_test_app(cache_dir=tmp_path)
    with TestClient(app) as client:
        r = game(client, ["ann", "bob"], [], chances=True)
        assert r.status_code == 200, r.text
        assert all("win_probability" not in s for s in r.json()["standings"])


def review(client: Client, turns: list[dict[str, Any]]) -> dict[str, Any]:
    r = client.post("/yardkle/reviews", json={"rules": HOUSE, "turns": turns})
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def reference_chance(total: int, theirs: int, points: int, left: int, banks: bool) -> float:
    """The reference's chance to win after a set-aside leaving `points` in hand and `left`
    dice: banking them, or throwing on with `left` dice."""
    table = reference()
    a, b = total // UNIT, theirs // UNIT
    if banks:
        if a + points // UNIT >= table.levels:  # reached the goal: the other's last turn
            return 1.0 - table.last_turn_probability(theirs, True, total + points)
        return 1.0 - float(table.values[b, a + points // UNIT])
    return float(table.turns[(a, b, 0)].throw[points // UNIT, left - 1])


def test_a_two_player_review_prices_each_decision_in_chance_to_win(client: Client) -> None:
    """Each decision of a turn played against an opponent: the chosen decision's chance to
    win and its `win_loss` (the best chance minus it) as the reference solve has them;
    the expected-points review beside it is unchanged, and a turn without an opponent
    carries none of it."""
    played = [
        # leading late, banking 250 is the chance-to-win play; then a trailing turn that
        # banks early, and one that throws on from 400
        {"throws": [{"dice": [1, 5, 2], "set_aside": [1, 5]}], "end": "bank",
         "banked_total": 850, "opponent": {"total": 550, "on_pad": True}},
        {"throws": [{"dice": [1, 1, 5], "set_aside": [1, 1]}], "end": "bank",
         "banked_total": 550, "opponent": {"total": 900, "on_pad": True}},
        {"throws": [{"dice": [1, 5, 5], "set_aside": [1, 5, 5]},
                    {"dice": [1, 2, 3], "set_aside": [1]}], "end": "bank",
         "banked_total": 500, "opponent": {"total": 850, "on_pad": True}},
        {"throws": [{"dice": [1, 5, 2], "set_aside": [1]}], "end": "bank",
         "banked_total": 500},
    ]  # fmt: skip
    answer = review(client, played)
    plain = client.post(
        "/yardkle/reviews",
        json={
            "rules": HOUSE,
            "turns": [{k: v for k, v in t.items() if k != "opponent"} for t in played],
        },
    ).json()
    losses = []
    for sent, turn, alone in zip(played, answer["turns"], plain["turns"], strict=True):
        assert [d["loss"] for d in turn["decisions"]] == [d["loss"] for d in alone["decisions"]]
        for d in turn["decisions"]:
            if "opponent" not in sent:
                assert "win_loss" not in d and "win_probability" not in d["chosen"]
                continue
            total, theirs = sent["banked_total"], sent["opponent"]["total"]
            banks = d["chosen"]["decision"] == "bank"
            after = d["turn_points"]  # in hand before the throw
            kept = d["chosen"]["set_aside"]
            from diceref.games.yardkle.rules.scoring import set_asides

            option = next(
                o for o in set_asides(canonical(d["dice"]), rules()) if list(o.dice) == kept
            )
            points = after + option.points
            left = len(d["dice"]) - len(kept) or rules().dice
            chosen = reference_chance(total, theirs, points, left, banks)
            assert d["chosen"]["win_probability"] == pytest.approx(chosen, abs=1e-9)
            turn_table = reference().turns[(total // UNIT, theirs // UNIT, 0)]
            best = max(
                float(
                    turn_table.stop[
                        (after + o.points) // UNIT, (len(d["dice"]) - len(o.dice) or 3) - 1
                    ]
                )
                for o in set_asides(canonical(d["dice"]), rules())
            )
            assert d["win_loss"] == pytest.approx(max(0.0, best - chosen), abs=1e-9)
            losses.append(d["win_loss"])
    assert any(loss > 1e-6 for loss in losses) and any(loss == 0 for loss in losses)


def test_a_two_player_review_prices_forced_throws_past_the_cap(client: Client) -> None:
    """Hot dice forced, three sixes three times in a row from 500 against 550: the third
    throw comes past the turn's cap with its one set-aside past its table, and the throw
    after it too; every decision still carries its chance to win and `win_loss`, from the
    turn's closed forms (hot dice: H by the turn's equation over the ordered throws; a bank:
    1 - U of the opponent's last turn)."""
    forced = rules(tuple(FORCED.items()))
    table = reference(tuple(FORCED.items()))
    a, b = 10, 11
    turn = table.turns[(a, b, 0)]
    assert turn.cap < 24 and len(turn.stop) <= 24 + 12  # three sixes score 12 units
    hot = {"dice": [6, 6, 6], "set_aside": [6, 6, 6]}
    played = [
        {"throws": [hot, hot, hot, {"dice": [1, 5, 2], "set_aside": [1]}], "end": "bank",
         "banked_total": a * UNIT, "opponent": {"total": b * UNIT, "on_pad": True}},
    ]  # fmt: skip
    r = client.post("/yardkle/reviews", json={"rules": FORCED, "turns": played})
    assert r.status_code == 200, r.text
    decisions = r.json()["turns"][0]["decisions"]
    assert [d["turn_points"] // UNIT for d in decisions] == [0, 12, 24, 36]
    assert all("win_loss" in d for d in decisions)
    yardkle = 1.0 - float(table.values[b, a])
    third = decisions[2]  # its one set-aside is past the table
    assert third["win_loss"] == 0.0
    assert third["chosen"]["win_probability"] == pytest.approx(
        _hot_by_the_throws(forced, a, b, 36, yardkle), abs=1e-9
    )
    u = last_turn_chances(forced, a - b + 100)[0][1]
    last = decisions[3]
    assert last["chosen"]["win_probability"] == pytest.approx(1.0 - u[a + 38 - b], abs=1e-12)
    # the best keeps 1 and 5 (39 units): the larger lead
    assert last["win_loss"] == pytest.approx(u[a + 38 - b] - u[a + 39 - b], abs=1e-12)


@pytest.mark.parametrize(
    ("opponent", "code"),
    [(1000, "goal_reached"), (300, "impossible_total"), (525, "impossible_total")],
)
def test_a_two_player_review_names_a_total_the_table_cannot_take(
    client: Client, opponent: int, code: str
) -> None:
    turn = {"throws": [{"dice": [1, 5, 2], "set_aside": [1]}], "end": "bank",
            "banked_total": 500, "opponent": {"total": opponent, "on_pad": True}}  # fmt: skip
    r = client.post("/yardkle/reviews", json={"rules": HOUSE, "turns": [turn]})
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["field"] == "turns[0].opponent.total"
    assert r.json()["errors"][0]["code"] == code


# --- last_turns: complete_the_round: the thrower's seat ---------------------------------


@pytest.mark.parametrize(("first", "seat"), [(True, 0), (False, 1)])
@pytest.mark.parametrize(("total", "on_pad", "theirs", "their_pad", "points", "dice"), STATES)
def test_completing_the_round_reads_the_thrower_s_seat(
    client: Client,
    first: bool,
    seat: int,
    total: int,
    on_pad: bool,
    theirs: int,
    their_pad: bool,
    points: int,
    dice: list[int],
) -> None:
    r = client.post(
        "/yardkle/holds",
        json={
            "rules": ROUND,
            "dice": dice,
            "on_pad": on_pad,
            "turn_points": points,
            "total": total,
            "opponent": {"total": theirs, "on_pad": their_pad},
            "first_in_round": first,
        },
    )
    assert r.status_code == 200, r.text
    table = round_reference()
    turn = table.turns[(total // UNIT, theirs // UNIT, seat)]
    for o in r.json()["options"]:
        after, left = o["turn_points"] // UNIT, o["dice_left_count"]
        assert o["win_probability"] == pytest.approx(float(turn.stop[after, left - 1]), abs=1e-9)
    best = table.advise(total, theirs, points, dice, first_in_round=first)
    assert r.json()["best_option"]["win_probability"] == pytest.approx(
        best.win_probability, abs=1e-9
    )


def test_the_seat_changes_the_chance_and_banking_the_goal_wins_for_the_second(
    client: Client,
) -> None:
    """At 900 against 950, 100 in hand reaches the goal: the round's second player wins by
    banking it, the first only leaves the opponent his last turn."""
    body = {"rules": ROUND, "dice": [1, 2, 3], "on_pad": True, "turn_points": 0, "total": 900,
            "opponent": {"total": 950, "on_pad": True}}  # fmt: skip
    second = client.post("/yardkle/holds", json={**body, "first_in_round": False}).json()
    first = client.post("/yardkle/holds", json={**body, "first_in_round": True}).json()
    assert second["best_option"]["win_probability"] == 1.0
    assert second["best_option"]["decision"] == "bank"
    last_turn = round_reference().last_turn_probability(950, True, 1000)
    assert first["options"][0]["win_probability"] >= 1.0 - last_turn - 1e-12
    assert first["best_option"]["win_probability"] < 1.0


def test_completing_the_round_without_the_seat_is_a_422_naming_it(client: Client) -> None:
    body = {"rules": ROUND, "dice": [1, 5, 2], "on_pad": True, "total": 500, "opponent": OPP}
    r = client.post("/yardkle/holds", json=body)
    assert r.status_code == 422, r.text
    assert [(e["field"], e["code"]) for e in r.json()["errors"]] == [
        ("first_in_round", "seat_needed")
    ]
    # without an opponent the seat is not read
    alone = {k: v for k, v in body.items() if k != "opponent"}
    assert client.post("/yardkle/holds", json=alone).status_code == 200


@pytest.mark.parametrize("first", [True, False])
def test_under_other_readings_the_seat_changes_nothing(client: Client, first: bool) -> None:
    body = {"rules": HOUSE, "dice": [1, 5, 2], "on_pad": True, "total": 500, "opponent": OPP}
    plain = client.post("/yardkle/holds", json=body)
    seated = client.post("/yardkle/holds", json={**body, "first_in_round": first})
    assert plain.status_code == seated.status_code == 200
    assert plain.json() == seated.json()


def test_a_game_completing_the_round_gives_each_seat_its_chance(client: Client) -> None:
    """ann, listed first, starts every round: her chance at her turn is the first seat's,
    bob's at his the second seat's; ann's goal leaves bob his last turn, bob's ends it."""
    table = round_reference()
    ann, bob = ({**t, "player": p} for t, p in ((BANK_500, "ann"), (YARDKLE, "bob")))
    bob_banks, ann_yardkle = {**BANK_500, "player": "bob"}, {**YARDKLE, "player": "ann"}

    def chances(turns: list[Any]) -> dict[str, Any]:
        r = game(client, ["ann", "bob"], turns, chances=True, rules=ROUND)
        assert r.status_code == 200, r.text
        answer: dict[str, Any] = r.json()
        return answer

    start = chances_of(chances([]))
    assert start["ann"] == pytest.approx(float(table.seat_values[0, 0, 0]), abs=1e-9)
    one = chances_of(chances([ann]))
    assert one["bob"] == pytest.approx(float(table.seat_values[1, 0, 10]), abs=1e-9)
    assert one["ann"] + one["bob"] == pytest.approx(1.0, abs=1e-12)
    two = chances_of(chances([ann, bob]))
    assert two["ann"] == pytest.approx(float(table.seat_values[0, 10, 0]), abs=1e-9)
    # ann reaches 1,000: bob's last turn
    last = chances([ann, bob, ann])
    assert last["last_turns_due"] == ["bob"]
    assert chances_of(last)["bob"] == pytest.approx(
        table.last_turn_probability(0, False, 1000), abs=1e-9
    )
    # bob reaches 1,000 second in the round: the game is over at once
    done = chances([ann, bob_banks, ann_yardkle, bob_banks])
    assert done["finished"] and done["winners"] == ["bob"]
    assert all("win_probability" not in s for s in done["standings"])


def test_a_review_completing_the_round_reads_each_turn_s_seat(client: Client) -> None:
    turn = {"throws": [{"dice": [1, 5, 2], "set_aside": [1, 5]}], "end": "bank",
            "banked_total": 850, "opponent": {"total": 550, "on_pad": True}}  # fmt: skip
    table = round_reference()
    for first, seat in ((True, 0), (False, 1)):
        r = client.post(
            "/yardkle/reviews", json={"rules": ROUND, "turns": [{**turn, "first_in_round": first}]}
        )
        assert r.status_code == 200, r.text
        decision = r.json()["turns"][0]["decisions"][0]
        assert decision["chosen"]["decision"] == "bank"
        # 850 + 150 reaches the goal: a win for the second, the other's last turn for the first
        want = 1.0 if seat == 1 else 1.0 - table.last_turn_probability(550, True, 1000)
        assert decision["chosen"]["win_probability"] == pytest.approx(want, abs=1e-9)
    r = client.post("/yardkle/reviews", json={"rules": ROUND, "turns": [turn]})
    assert r.status_code == 422, r.text
    assert [(e["field"], e["code"]) for e in r.json()["errors"]] == [
        ("turns[0].first_in_round", "seat_needed")
    ]
