"""Play to win through the app: `/holds` and `/reviews` with a `target`, `/distributions`.

The tables are Yatzy's in forced order (a few seconds to solve, then on the test disk
cache), served by an app of the module's own; the answers are checked against the solver's
functions called directly (`target.win_turn`, `PackedBands.at`, `final_distribution`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from conftest import make_test_app, make_test_store
from diceref.core.arrays import FloatArray
from diceref.core.dice import KEEP_INDEX
from diceref.games.scorecard.rules.games import variant
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import Scorecard, card_total
from diceref.games.scorecard.solver.advice import card_state, expected_final_score
from diceref.games.scorecard.solver.packed import PackedBands
from diceref.games.scorecard.solver.statespace import state_space
from diceref.games.scorecard.solver.target import final_distribution, win_turn
from diceref.games.scorecard.tables import (
    band_table,
    distribution_spec,
    target_specs,
    value_spec,
    win_spec,
)
from diceref.tables.spec import load_sync

Client = TestClient[Litestar]
RULES = {"order": "forced"}
GAME = {"game": "yatzy", "rules": RULES}
# ones to threes filled: 3 + 6 + 6 = 15 points on the card, fours next
CARD = {"filled": {"ones": 3, "twos": 6, "threes": 6}}
FILLED = CARD["filled"]


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    return variant("yatzy", **RULES)


@pytest.fixture(scope="module")
def tables(ruleset: Ruleset) -> dict[str, FloatArray]:
    """The value, distribution and win tables, from the test disk cache (solved once)."""
    store = make_test_store()
    specs = (value_spec(ruleset), *target_specs(ruleset))
    return {spec.kind: load_sync(store, spec).array for spec in specs}


@pytest.fixture(scope="module")
def win(tables: dict[str, FloatArray]) -> PackedBands:
    return band_table(tables["win"])


def _app(ruleset: Ruleset, tables: dict[str, FloatArray], kinds: tuple[str, ...]) -> Litestar:
    app = make_test_app()
    specs = {"value": value_spec(ruleset), "win": win_spec(ruleset)}
    specs["distribution"] = distribution_spec(ruleset)
    for kind in kinds:
        app.state.tables.put(specs[kind], tables[kind], "memory")
    return app


@pytest.fixture(scope="module")
def app(ruleset: Ruleset, tables: dict[str, FloatArray]) -> Litestar:
    return _app(ruleset, tables, ("value", "distribution", "win"))


@pytest.fixture
def client(app: Litestar) -> Iterator[Client]:
    with TestClient(app) as c:
        yield c


def post(client: Client, path: str, **body: Any) -> dict[str, Any]:
    r = client.post(path, json={**GAME, **body})
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def _state_index(ruleset: Ruleset, filled: dict[str, int]) -> tuple[int, int, int, int, int]:
    card = Scorecard(filled)
    state = card_state(ruleset, card)
    index = state_space(ruleset).index_one(state.mask, state.sub, state.flag)
    return state.mask, state.sub, state.flag, index, card_total(ruleset, card)


# --- /holds -------------------------------------------------------------------------------


@pytest.mark.parametrize("target", [0, 120, 180, 230, 10_000])
def test_holds_with_a_target_ranks_by_the_chance_to_reach_it(
    client: Client, ruleset: Ruleset, win: PackedBands, target: int
) -> None:
    body = post(
        client, "/holds", dice=[4, 4, 4, 2, 6], throws_left=1, scorecard=CARD, target=target
    )
    assert body["target"] == target
    mask, sub, flag, _, total = _state_index(ruleset, FILLED)
    need = target - total
    keeps = win_turn(ruleset, win, mask, sub, flag, need).keeps_with(1)
    space = state_space(ruleset)
    options = body["options"]
    for o in options:
        if o["kind"] == "keep":
            expected = float(keeps[KEEP_INDEX[tuple(o["keep"])]])
        else:
            after = Scorecard({**FILLED, o["box"]: o["points"]})
            s = card_state(ruleset, after)
            index = space.index_one(s.mask, s.sub, s.flag)
            expected = win.at(index, need - o["points"] - o["bonus"])
        assert o["win_probability"] == pytest.approx(expected, abs=1e-12), o
    chances = [o["win_probability"] for o in options]
    rounded = [round(c, 12) for c in chances]  # chances equal to rounding are ties
    assert rounded == sorted(rounded, reverse=True)
    for a, b in pairwise(options):  # ties by expected total
        if round(a["win_probability"], 12) == round(b["win_probability"], 12):
            assert a["expected_total"] >= b["expected_total"]
    top = chances[0]
    for o in options:
        assert o["best"] == (top - o["win_probability"] <= 1e-9)
        assert o["loss"] == (0.0 if o["best"] else pytest.approx(top - o["win_probability"]))
    if target == 0:
        assert chances == pytest.approx([1.0] * len(chances), abs=1e-12)
    if target == 10_000:  # above the game's maximum: no chance, ranked by expected total
        assert all(c == 0.0 for c in chances)
        totals = [o["expected_total"] for o in options]
        assert totals == sorted(totals, reverse=True)


def test_holds_without_a_target_is_unchanged(
    client: Client, ruleset: Ruleset, tables: dict[str, FloatArray]
) -> None:
    """The same bytes as from an app that has no play-to-win table at all."""
    body = {**GAME, "dice": [4, 4, 4, 2, 6], "throws_left": 1, "scorecard": CARD}
    with TestClient(_app(ruleset, tables, ("value",))) as plain:
        before = plain.post("/holds", json=body)
    after = client.post("/holds", json=body)
    assert before.status_code == after.status_code == 200
    assert after.content == before.content
    assert "target" not in after.json()
    assert all("win_probability" not in o for o in after.json()["options"])


def test_a_custom_ruleset_document_plays_to_win_as_its_game(
    client: Client, ruleset: Ruleset
) -> None:
    document = msgspec.to_builtins(ruleset.document)
    body = {"dice": [4, 4, 4, 2, 6], "throws_left": 1, "scorecard": CARD, "target": 180}
    r = client.post("/holds", json={"ruleset": document, **body})
    custom = msgspec.json.decode(r.content)
    built_in = post(client, "/holds", **body)
    if r.status_code == 503:  # a document compiles to other rules than the variant's
        pytest.skip(f"the document's tables are not the variant's: {custom['detail']}")
    assert r.status_code == 200, custom
    assert custom["options"] == built_in["options"]


def test_holds_with_a_target_is_a_503_until_the_win_table_is_in(
    ruleset: Ruleset, tables: dict[str, FloatArray], tmp_path: Path
) -> None:
    app = make_test_app(cache_dir=tmp_path)
    app.state.tables.put(value_spec(ruleset), tables["value"], "memory")
    body = {**GAME, "dice": [4, 4, 4, 2, 6], "throws_left": 1, "target": 150}
    with TestClient(app) as client:
        r = client.post("/holds", json=body)
        assert r.status_code == 503, r.text
        problem = r.json()
        assert problem["type"].endswith("/table-solving")
        assert 0.0 <= problem["progress"] <= 1.0
        assert r.headers["retry-after"] == "5"
        assert client.post("/distributions", json={**GAME}).status_code == 503
        del body["target"]  # the value table alone answers without a target
        assert client.post("/holds", json=body).status_code == 200
        readyz = client.get("/readyz")
        assert readyz.status_code == 200, readyz.text  # readiness does not wait for them


# --- /distributions -----------------------------------------------------------------------


def test_distribution_at_the_turn_start(
    client: Client, ruleset: Ruleset, tables: dict[str, FloatArray]
) -> None:
    body = post(client, "/distributions", scorecard=CARD)
    assert body["game"] == "yatzy" and body["play"] == "expected_points"
    assert "target" not in body and "win_probability" not in body
    _, _, _, _, total = _state_index(ruleset, FILLED)
    assert body["total"] == total
    expected = expected_final_score(ruleset, tables["value"], Scorecard(FILLED))
    assert body["mean"] == pytest.approx(expected, abs=1e-7)
    points = body["distribution"]
    probabilities = np.array([p["probability"] for p in points])
    totals = [p["total"] for p in points]
    assert totals == sorted(totals) and (probabilities > 0).all()
    assert probabilities.sum() == pytest.approx(1.0, abs=1e-9)
    assert body["min"] == totals[0] >= total and body["max"] == totals[-1]
    cdf = np.cumsum(probabilities)
    for q in (1, 5, 25, 50, 75, 95, 99):
        first = totals[int(np.searchsorted(cdf, q / 100 - 1e-12))]
        assert body[f"p{q}"] == first, q
    mean = float(probabilities @ np.array(totals))
    sd = float(np.sqrt(probabilities @ (np.array(totals) - mean) ** 2))
    assert body["sd"] == pytest.approx(sd, rel=1e-6)


def test_distribution_with_dice_has_the_mean_of_the_best_hold(
    client: Client, ruleset: Ruleset, tables: dict[str, FloatArray]
) -> None:
    for dice, left in (([4, 4, 4, 2, 6], 2), ([4, 4, 1, 2, 6], 1), ([4, 4, 4, 4, 6], 0)):
        body = post(client, "/distributions", scorecard=CARD, dice=dice, throws_left=left)
        holds = post(client, "/holds", scorecard=CARD, dice=dice, throws_left=left)
        # mixed from float32 bands: a few 1e-7 off (1e-7 from the turn's start)
        assert body["mean"] == pytest.approx(holds["options"][0]["expected_total"], abs=1e-6)
        assert sum(p["probability"] for p in body["distribution"]) == pytest.approx(1, abs=1e-8)
        mask, sub, flag, _, total = _state_index(ruleset, FILLED)
        final = final_distribution(
            ruleset,
            tables["value"],
            band_table(tables["distribution"]),
            mask,
            sub,
            flag,
            total,
            tuple(dice),
            left,
        )
        assert body["min"] == final.first


def test_distribution_with_a_target_reports_the_chance_to_reach_it(
    client: Client, ruleset: Ruleset, win: PackedBands
) -> None:
    _, _, _, index, total = _state_index(ruleset, FILLED)
    for target in (0, 150, 200, 10_000):
        body = post(client, "/distributions", scorecard=CARD, target=target, play="expected_points")
        assert body["target"] == target and body["play"] == "expected_points"
        assert body["win_probability"] == pytest.approx(win.at(index, target - total), abs=1e-12)
        # playing for the target reaches it at least as often as expected-points play
        reached = sum(p["probability"] for p in body["distribution"] if p["total"] >= target)
        assert body["win_probability"] >= reached - 1e-6
    with_dice = post(
        client,
        "/distributions",
        scorecard=CARD,
        dice=[4, 4, 4, 2, 6],
        throws_left=1,
        target=180,
        play="expected_points",
    )
    holds = post(client, "/holds", scorecard=CARD, dice=[4, 4, 4, 2, 6], throws_left=1, target=180)
    assert with_dice["win_probability"] == holds["options"][0]["win_probability"]


# the last three boxes of forced-order Yatzy open: target play is followed turn by turn
LATE = {
    "filled": {
        b: v
        for b, v in zip(
            variant("yatzy").box_ids[:12], (3, 6, 9, 12, 15, 18, 8, 14, 12, 16, 15, 20), strict=True
        )
    }
}


@pytest.mark.parametrize("target", [150, 190, 220, 260])
def test_distribution_under_target_play(
    client: Client, ruleset: Ruleset, win: PackedBands, target: int
) -> None:
    """The default with a target: target play's distribution, which reaches the target with
    the win table's chance (and more often than expected-points play)."""
    body = post(client, "/distributions", scorecard=LATE, target=target)
    points = post(client, "/distributions", scorecard=LATE, target=target, play="expected_points")
    assert body["play"] == "target" and points["play"] == "expected_points"
    reached = sum(p["probability"] for p in body["distribution"] if p["total"] >= target)
    assert reached == pytest.approx(body["win_probability"], abs=1e-7)
    assert body["win_probability"] == points["win_probability"]
    by_points = sum(p["probability"] for p in points["distribution"] if p["total"] >= target)
    assert reached >= by_points - 1e-7
    assert sum(p["probability"] for p in body["distribution"]) == pytest.approx(1, abs=1e-7)
    mean = sum(p["total"] * p["probability"] for p in body["distribution"])
    assert body["mean"] == pytest.approx(mean, abs=1e-6)


def test_target_play_from_an_early_card_is_refused_by_name(client: Client) -> None:
    r = client.post("/distributions", json={**GAME, "target": 200})
    assert r.status_code == 422, r.text
    problem = r.json()
    assert [(e["field"], e["code"]) for e in problem["errors"]] == [("play", "target_too_early")]
    r = client.post("/distributions", json={**GAME, "play": "target"})
    assert r.status_code == 422, r.text
    assert [e["field"] for e in r.json()["errors"]] == ["target"]


def test_the_empty_card_and_the_full_card(client: Client, ruleset: Ruleset) -> None:
    empty = post(client, "/distributions")
    assert empty["total"] == 0 and empty["min"] >= 0
    full = {b: 0 for b in ruleset.box_ids}
    done = post(client, "/distributions", scorecard={"filled": full})
    assert done["distribution"] == [{"total": 0, "probability": 1.0}]
    assert done["mean"] == 0.0 and done["sd"] == 0.0 and done["p99"] == 0


# --- /reviews -----------------------------------------------------------------------------

REVIEW = {
    "turns": [
        {"throws": [[1, 1, 2, 5, 6], [1, 1, 1, 3, 4]], "keeps": [[1, 1]], "box": "ones"},
        {"throws": [[2, 2, 3, 4, 6]], "box": "twos"},
    ]
}


def test_reviews_with_a_target_price_each_decision_in_chance(
    client: Client, ruleset: Ruleset
) -> None:
    plain = post(client, "/reviews", **REVIEW)
    body = post(client, "/reviews", **REVIEW, target=200)
    assert body["target"] == 200 and "target" not in plain
    decisions = [d for t in body["turns"] for d in t["decisions"]]
    before = [d for t in plain["turns"] for d in t["decisions"]]
    assert len(decisions) == 3
    for d, p in zip(decisions, before, strict=True):
        assert "win_loss" not in p
        assert d["loss"] == p["loss"]  # the points' loss is the same
        assert d["win_loss"] >= 0.0
        chances = d["best_options"] + [d["chosen"]]
        assert all(0.0 <= o["win_probability"] <= 1.0 for o in chances)
    # standing on the first turn's three ones gives up a chance of 200 against the best
    stood = decisions[2]
    holds = post(
        client,
        "/holds",
        dice=[2, 2, 3, 4, 6],
        throws_left=2,
        scorecard={"filled": {"ones": 3}},
        target=200,
    )
    chosen = next(o for o in holds["options"] if o.get("box") == "twos")
    assert stood["win_loss"] == pytest.approx(chosen["loss"], abs=1e-12)


# --- validation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "status", "field"),
    [
        ("/holds", {"dice": [1, 2, 3, 4, 5], "throws_left": 1, "target": -1}, 400, "target"),
        ("/reviews", {"turns": [], "target": -5}, 400, "target"),
        ("/distributions", {"target": -1}, 400, "target"),
        ("/distributions", {"target": "high"}, 400, "target"),
        ("/distributions", {"dice": [1, 2, 3, 4, 7], "throws_left": 1}, 400, "dice[4]"),
        ("/distributions", {"dice": [1, 2, 3, 4], "throws_left": 1}, 400, "dice"),
        ("/distributions", {"dice": [1, 2, 3, 4, 5]}, 422, "throws_left"),
        ("/distributions", {"throws_left": 1}, 422, "dice"),
        ("/distributions", {"dice": [1, 2, 3, 4, 5], "throws_left": 3}, 422, "throws_left"),
        ("/distributions", {"dice": [1, 2, 3, 4, 5], "throws_left": 4}, 400, "throws_left"),
        ("/distributions", {"scorecard": {"filled": {"ones": 7}}}, 422, "scorecard.filled.ones"),
        ("/distributions", {"colour": "red"}, 400, "colour"),
    ],
)
def test_refused_requests_name_the_field(
    client: Client, path: str, body: dict[str, Any], status: int, field: str
) -> None:
    r = client.post(path, json={**GAME, **body})
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert [e["field"] for e in r.json()["errors"]] == [field], r.json()


WARM_CHECK = """
from litestar.testing import TestClient
from conftest import make_test_app
from helpers import registry_table
from diceref.games.scorecard.rules.games import variant
from diceref.games.scorecard.solver import packed
from diceref.games.scorecard.tables import win_spec

spec = win_spec(variant("yatzy", order="forced"))
app = make_test_app()
with TestClient(app) as client:
    registry = app.state.tables
    client.blocking_portal.call(registry.admit, (spec,))
    client.blocking_portal.call(registry_table, registry, spec)
    print(packed._lookup._compiled is not None)
"""


def test_a_band_tables_decoder_is_compiled_before_it_is_served(
    tables: dict[str, FloatArray],
) -> None:
    """In a process of its own (nothing compiled yet), a win table admitted from the disk
    cache is served only once its decoder is compiled: no request pays numba's import and
    compile (the `tables` fixture has put the table on the test disk cache)."""
    tests = Path(__file__).parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tests), str(tests / "scorecard")])}
    done = subprocess.run(
        [sys.executable, "-c", WARM_CHECK], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "True", done.stdout[-2000:]
