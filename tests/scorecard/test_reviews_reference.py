"""`POST /reviews` against yatzy-solver (issue 15): every chosen and every best option of a
reviewed game, with its expected total, to 1e-9 of the reference's option values, and every
loss to the reference's best minus its value of the choice.

Two variants, each reached as a request reaches it: Verhoeff's free-choice Yahtzee through
`rules` on `yahtzee` (``american``), and the Scandinavian Yatzy (``yatzy-scandinavian``)
as the built-in `yatzy`.  The games are played with a noisy coach so that losses of every
size are met; the reference's tables come from the test cache, as in
`test_yatzy_reference.py`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient
from review_games import play
from test_yatzy_reference import REF_NAME, Situation, ref_situation, reference_solver

from conftest import make_test_app
from diceref.core.arrays import FloatArray
from diceref.games.scorecard.api.reviews import (
    ReviewRequest,
    _review_ruleset,
    review_out,
    turn_records,
)
from diceref.games.scorecard.rules.games import variant
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import card_total
from diceref.games.scorecard.rules.turns import replay_game
from diceref.games.scorecard.solver.review import review_game
from diceref.games.scorecard.tables import value_spec
from helpers import import_yatzy_solver

import_yatzy_solver()
pytestmark = pytest.mark.slow

TOLERANCE = 1e-9
FREE_CHOICE = {"joker": "free_choice", "matching_upper_forced": False}
CASES: dict[str, tuple[str, dict[str, Any] | None, Ruleset, int]] = {
    # reference variant: (game, rules sent, our ruleset, seed)
    "american": ("yahtzee", FREE_CHOICE, variant("yahtzee", **FREE_CHOICE), 51),
    "yatzy-scandinavian": ("yatzy", None, variant("yatzy"), 52),
}


def ref_name(option: dict[str, Any]) -> str:
    if option["kind"] == "box":
        return f"score {REF_NAME.get(option['box'], option['box'])}"
    return "keep " + (" ".join(str(d) for d in option["keep"]) or "-")


def reviewed(
    game: str,
    rules: dict[str, Any] | None,
    ruleset: Ruleset,
    values: FloatArray,
    record: list[dict[str, Any]],
) -> dict[str, Any]:
    """The review as answered: over HTTP for a built-in game; for house rules, whose
    tables the registry solves on demand (a 503 until then), the handler's own steps
    with the table given (the same replay, review and encoding)."""
    if rules is None:
        app = make_test_app()
        app.state.tables.put(value_spec(ruleset), values, "memory")
        with TestClient(app) as client:
            r = client.post("/reviews", json={"game": game, "turns": record})
        assert r.status_code == 200, r.text
        answer: dict[str, Any] = r.json()
        return answer
    request = msgspec.convert({"game": game, "rules": rules, "turns": record}, ReviewRequest)
    resolved, chosen = _review_ruleset(request)
    assert resolved.rules_hash == ruleset.rules_hash
    played = replay_game(resolved, turn_records(request))
    answer = msgspec.to_builtins(
        review_out(resolved, review_game(resolved, values, played), chosen)
    )
    return answer


@pytest.mark.parametrize("variant", sorted(CASES))
@pytest.mark.parametrize("noise", [0.2, 0.6])
def test_a_review_is_the_references_option_values(
    variant: str, noise: float, solved_ruleset: Callable[[Ruleset], FloatArray]
) -> None:
    game, rules, ruleset, seed = CASES[variant]
    values = solved_ruleset(ruleset)
    record, seen = play(ruleset, values, seed + int(noise * 10), noise)
    out = reviewed(game, rules, ruleset, values, record)
    reference = reference_solver(variant)
    decisions = [d for t in out["turns"] for d in t["decisions"]]
    assert len(decisions) == len(seen)
    wrong: list[str] = []
    compared = 0
    for d, s in zip(decisions, seen, strict=True):
        total = card_total(ruleset, s.card)
        text = ref_situation(ruleset, Situation(s.card, s.dice, s.throws_left))
        theirs = dict(reference.option_values(text))
        best = max(theirs.values())
        for option in [d["chosen"], *d["best_options"]]:
            ours = option["expected_total"] - total
            if not math.isclose(ours, theirs[ref_name(option)], rel_tol=TOLERANCE, abs_tol=1e-12):
                wrong.append(f"{text}: {ref_name(option)} ours {ours!r} theirs "
                             f"{theirs[ref_name(option)]!r}")  # fmt: skip
            compared += 1
        for option in d["best_options"]:
            assert abs(theirs[ref_name(option)] - best) <= TOLERANCE * max(1.0, best)
        # ... and every option the reference ties with its best is listed (keeping all
        # five dice aside: no record keeps them, so a review never offers it)
        tied = {
            name
            for name, value in theirs.items()
            if best - value <= TOLERANCE * max(1.0, best) and len(name.split()) != 6
        }
        listed = {ref_name(o) for o in d["best_options"]}
        if listed != tied:
            wrong.append(f"{text}: best options ours {sorted(listed)} theirs {sorted(tied)}")
        expected_loss = best - theirs[ref_name(d["chosen"])]
        if not math.isclose(d["loss"], expected_loss, rel_tol=TOLERANCE, abs_tol=TOLERANCE):
            wrong.append(f"{text}: loss ours {d['loss']!r} theirs {expected_loss!r}")
    assert out["optimal_expected_score"] == pytest.approx(
        reference.state_value("upper 0 | filled -"), rel=TOLERANCE
    )
    print(f"\n{variant} noise {noise}: {len(decisions)} decisions, {compared} values compared")
    assert not wrong, "\n".join(wrong[:20])
    assert out["expected_loss"] > 0
