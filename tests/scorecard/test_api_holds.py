"""POST /holds through the app: ranking, consistency with /score, 503 while loading."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from diceref.core.dice import sub_multisets
from helpers import loaded_rules

Client = TestClient[Litestar]


def holds(client: Client, **body: Any) -> dict[str, Any]:
    r = client.post("/holds", json=body)
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()
    return result


def test_start_of_game_ranking(coach: Client) -> None:
    body = holds(coach, game="yahtzee", dice=[6, 4, 6, 4, 6], throws_left=2)
    options = body["options"]
    totals = [o["expected_total"] for o in options]
    assert totals == sorted(totals, reverse=True)
    assert options[0] == {
        "kind": "keep",
        "keep": [6, 6, 6],
        "expected_total": pytest.approx(265.1134, abs=5e-5),
        "best": True,
        "loss": 0.0,
    }
    assert [o["best"] for o in options].count(True) == 1
    for o in options[1:]:
        assert o["loss"] == pytest.approx(options[0]["expected_total"] - o["expected_total"])
    keeps = [tuple(o["keep"]) for o in options if o["kind"] == "keep"]
    assert sorted(keeps) == sorted(sub_multisets((4, 4, 6, 6, 6)))  # none to all five, once
    boxes = {o["box"]: o for o in options if o["kind"] == "box"}
    assert len(boxes) == 13
    assert boxes["full_house"]["points"] == 25
    assert boxes["full_house"]["expected_total"] == pytest.approx(253.9092, abs=5e-5)
    assert body["total"] == 0 and body["throws_left"] == 2


def test_no_keeps_without_a_throw_left_and_boxes_match_score(coach: Client) -> None:
    card = {"filled": {"yahtzee": 50, "fours": 12, "chance": 20}, "extra_bonus": 0}
    body = holds(coach, game="yahtzee", dice=[4] * 5, throws_left=0, scorecard=card)
    assert all(o["kind"] == "box" for o in body["options"])
    scored = coach.post(
        "/score", json={"game": "yahtzee", "dice": [4] * 5, "scorecard": card}
    ).json()
    assert {(o["box"], o["points"], o["bonus"]) for o in body["options"]} == {
        (o["box"], o["points"], o["bonus"]) for o in scored["options"]
    }
    assert body["total"] == scored["total"] == 82
    for o in body["options"]:  # each Joker placement adds its points, bonus and a future
        assert o["expected_total"] >= body["total"] + o["points"] + o["bonus"]


def test_russian_first_throw_doubling_changes_the_advice(coach: Client) -> None:
    first = {b: 0 for b in ("ones", "twos", "threes", "fours", "fives", "sixes")}
    card = {"filled": first}
    doubled = holds(
        coach, game="russian-poker", dice=[2, 3, 4, 5, 6], throws_left=2, scorecard=card
    )
    ls = next(o for o in doubled["options"] if o.get("box") == "large_straight")
    assert ls["points"] == 40
    later = holds(
        coach, game="russian-poker", dice=[2, 3, 4, 5, 6], throws_left=0, throw=3, scorecard=card
    )
    assert next(o for o in later["options"] if o.get("box") == "large_straight")["points"] == 20


def test_every_game_answers(coach: Client) -> None:
    for game in ("yahtzee", "yardzee", "dice-poker", "russian-poker", "chute-5"):
        body = holds(coach, game=game, dice=[1, 2, 3, 4, 5], throws_left=1)
        assert body["options"][0]["expected_total"] > 0


def test_optimal_expected_score_in_game_rules(coach: Client) -> None:
    rules = loaded_rules(coach, "yahtzee")
    assert rules["optimal_expected_score"] == pytest.approx(254.5877287, abs=5e-7)


def test_inconsistent_throw_is_422(coach: Client) -> None:
    r = coach.post(
        "/holds", json={"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "throws_left": 2, "throw": 3}
    )
    assert r.status_code == 422
    assert r.json()["errors"][0]["field"] == "throw"


def test_full_card_is_422_and_never_solves(coach: Client) -> None:
    from diceref.games.scorecard.rules.games import SCORECARD_GAMES

    boxes = {b.id: 0 for b in SCORECARD_GAMES["yahtzee"].boxes}
    r = coach.post(
        "/holds",
        json={
            "game": "yahtzee",
            "dice": [1, 2, 3, 4, 5],
            "throws_left": 0,
            "scorecard": {"filled": boxes},
        },
    )
    assert r.status_code == 422 and "full" in r.json()["detail"]


@pytest.mark.parametrize(("throws_left", "status"), [(-1, 400), (4, 400), (3, 422)])
def test_throws_left_out_of_range(coach: Client, throws_left: int, status: int) -> None:
    """Beyond any game's turn (4 throws at most) the document refuses it (400); beyond this
    game's 3 throws the rules do (422 `throws_exceeded`), as a 4-throw house rule allows 3."""
    r = coach.post(
        "/holds", json={"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "throws_left": throws_left}
    )
    assert r.status_code == status
    error = r.json()["errors"][0]
    assert error["field"] == "throws_left"
    if status == 422:
        assert error["code"] == "throws_exceeded"


def test_table_not_loaded_is_503_with_retry_after(tmp_path: Any) -> None:
    """A cold app answers 503 at once (no inline solve) and starts loading in the background."""
    from diceref.games.scorecard.rules.games import SCORECARD_GAMES
    from diceref.games.scorecard.tables import value_spec
    from diceref.http.app import create_app
    from diceref.settings import Settings
    from diceref.tables.config import TableSettings
    from diceref.tables.store import TableStore

    app = create_app(
        Settings(preload=(), retry_after_seconds=7),
        store=TableStore(TableSettings(cache_dir=tmp_path)),
    )
    with TestClient(app) as client:
        r = client.post(
            "/holds", json={"game": "chute-5", "dice": [1, 2, 3, 4, 5], "throws_left": 1}
        )
        assert r.status_code == 503
        assert r.headers["retry-after"] == "7"
        assert r.headers["content-type"] == "application/problem+json"
        assert r.json()["retry_after"] == 7
        spec = value_spec(SCORECARD_GAMES["chute-5"])
        assert app.state.tables.states[spec.key].status in ("queued", "loading", "ready")


def test_a_box_option_splits_its_bonus_as_score_does(coach: Client) -> None:
    card = {"filled": {"yahtzee": 50, "ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15}}
    body = {"game": "yahtzee", "dice": [6] * 5, "throws_left": 0, "scorecard": card}
    (sixes,) = coach.post("/holds", json=body).json()["options"]
    assert (sixes["box"], sixes["bonus"], sixes["upper_bonus"], sixes["extra_bonus"]) == (
        "sixes",
        135,
        35,
        100,
    )
    assert sixes["best"] and sixes["loss"] == 0.0
