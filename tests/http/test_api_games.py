"""GET /games and GET /games/{game}."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from helpers import loaded_rules

Client = TestClient[Litestar]


def test_list_games(client: Client) -> None:
    games = client.get("/games").json()
    ids = [g["id"] for g in games]
    assert ids == [
        "yahtzee",
        "yardzee",
        "dice-poker",
        "russian-poker",
        "chute-5",
        "yatzy",
        "chicago",
        "yardkle",
    ]
    by_id = {g["id"]: g for g in games}
    assert by_id["yahtzee"]["dice_count"] == 5 and by_id["yahtzee"]["throws_per_turn"] == 3
    assert by_id["chicago"]["dice_count"] == 3 and "boxes" not in by_id["chicago"]
    assert by_id["yardkle"]["dice_count"] == 6
    assert [b["id"] for b in by_id["dice-poker"]["boxes"]][:7] == [
        "ones",
        "twos",
        "threes",
        "fours",
        "fives",
        "sixes",
        "pair",
    ]
    assert by_id["chute-5"]["boxes"][6] == {
        "id": "three_of_a_kind",
        "name": "Three of a kind",
        "section": "lower",
    }


def test_game_rules(client: Client) -> None:
    rules = loaded_rules(client, "yahtzee")
    assert rules["max_score"] == 1575 and rules["tables"] == "ready"
    assert rules["upper_bonus_rule"] == {"threshold": 63, "strictly_greater": False, "points": 35}
    assert rules["five_of_a_kind"]["joker"] == "forced"
    box = {b["id"]: b for b in rules["boxes"]}
    assert box["full_house"]["max_points"] == 25
    assert "25 points" in box["full_house"]["how"]
    params = {p["name"]: p for p in rules["parameters"]}
    assert params["joker_when_scratched"]["value"] is True


def test_every_reading_is_reported(client: Client) -> None:
    readings = {
        "yardzee": {"joker_when_scratched"},
        "dice-poker": {"two_pairs_distinct"},
        "russian-poker": {"series_order", "poker_premium_doubled", "strike_unmet_with_zero"},
        "chute-5": {"notches", "break_over", "printed_perfect_score"},
    }
    for game, names in readings.items():
        params = client.get(f"/games/{game}").json()["parameters"]
        assert names <= {p["name"] for p in params if p["reading"]}, game


def test_max_scores(client: Client) -> None:
    expected = {
        "yahtzee": 1575,
        "yardzee": 1575,
        "dice-poker": 1835,
        "russian-poker": 510,
        "chute-5": 99,
        "yatzy": 374,
    }
    assert {g: loaded_rules(client, g)["max_score"] for g in SCORECARD_GAMES} == expected


def test_chute_notches_reported(client: Client) -> None:
    params = {p["name"]: p["value"] for p in client.get("/games/chute-5").json()["parameters"]}
    assert params["notches"] == [1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]


def test_unknown_game_is_404_problem(client: Client) -> None:
    r = client.get("/games/backgammon")
    assert r.status_code == 404
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["errors"][0]["field"] == "game"


def test_every_parameter_has_a_human_label(client: Client) -> None:
    """`GET /games/{game}` names each rule for people too: a short label, not its id."""
    for game in client.get("/games").json():
        for parameter in client.get(f"/games/{game['id']}").json()["parameters"]:
            label = parameter["label"]
            assert label.strip() and label != parameter["name"], (game["id"], parameter)
    params = {p["name"]: p for p in client.get("/games/yahtzee").json()["parameters"]}
    assert params["upper_bonus_threshold"]["label"] == "Upper bonus threshold"


def test_every_choice_a_request_may_make_is_described(client: Client) -> None:
    """A frontend offering another choice than the game's own can say what it means: each
    settable parameter with choices describes every one of them, in their order."""
    for game in client.get("/games").json():
        for parameter in client.get(f"/games/{game['id']}").json()["parameters"]:
            if not parameter["settable"] or len(parameter.get("choices") or ()) < 2:
                continue
            meanings = parameter["choice_descriptions"]
            assert list(meanings) == parameter["choices"], (game["id"], parameter["name"])
            assert all(text.strip() for text in meanings.values()), (game["id"], parameter)
    params = {p["name"]: p for p in client.get("/games/yahtzee").json()["parameters"]}
    assert params["order"]["choice_descriptions"]["forced"].startswith("Every box in scorecard")
    assert params["order"]["description"] == params["order"]["choice_descriptions"]["free"]
    assert "'yahtzee' box" in params["joker"]["choice_descriptions"]["free_choice"]
    chicago = {p["name"]: p for p in client.get("/games/chicago").json()["parameters"]}
    limit = chicago["throw_limit"]
    assert limit["description"] == " ".join(
        f"'{c}': {text}" for c, text in limit["choice_descriptions"].items()
    )
