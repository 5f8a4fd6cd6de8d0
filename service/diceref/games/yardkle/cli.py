"""Yardkle's command: `diceref review` of a `POST /yardkle/reviews` body (the operation's
own replay and answer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from diceref.games.family import FamilyCli, ReviewTable
from diceref.tables.spec import TableSpec


def yardkle_review(body: Any, load: Callable[[TableSpec], Any] | None = None) -> Any:
    """The `POST /yardkle/reviews` answer for `body`, under its `rules` (the policy table
    of any rules is small enough to solve here); turns with an `opponent` read the
    two-player table through `load` (the cache's, or solved: minutes at full size)."""
    from diceref.games.yardkle.api.reviews import YardkleReviewRequest, review_answer
    from diceref.games.yardkle.tables import duel_of, duel_spec, solve_policy_table

    data = msgspec.convert(body, YardkleReviewRequest)
    duel_table_of = None if load is None else (lambda r: duel_of(r, load(duel_spec(r))))
    return review_answer(data, solve_policy_table, duel_table_of)


def review(body: Any, load: Callable[[TableSpec], Any]) -> ReviewTable:
    """Yardkle's review (its policy table solved here; `load` gives the two-player table,
    for turns with an `opponent`)."""
    answer = yardkle_review(body, load)

    def text(c: Any) -> str:
        return f"{' '.join(map(str, c.set_aside))}, {c.decision.value.replace('_', ' ')}"

    def cells(d: Any) -> tuple[str, ...]:
        best = "" if d.loss == 0 else text(d.best_options[0])
        loss = "" if d.loss == 0 else f"{d.loss:.1f}"
        return (str(d.turn_points), text(d.chosen), f"{d.chosen.expected_points:.1f}", best, loss)

    return ReviewTable.of(
        f"yardkle: {len(answer.turns)} turn(s) reviewed",
        ("in hand", "chosen", "expected", "best", "loss"),
        answer.turns,
        cells,
        [
            f"points                   {answer.points}",
            f"optimal expected points  {answer.optimal_expected_points:.1f}",
            f"expected loss (skill)    {answer.expected_loss:.1f} over {answer.decision_count} "
            f"decisions, {answer.mean_loss:.2f} a decision",
            f"luck                     {answer.luck:+.1f}",
        ],
    )


CLI = FamilyCli(review=review)
