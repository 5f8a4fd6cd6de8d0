"""Yardkle's command: `diceref review` of a `POST /yardkle/reviews` body (the operation's
own replay and answer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from diceref.games.family import FamilyCli, ReviewTable
from diceref.tables.spec import TableSpec


def yardkle_review(body: Any) -> Any:
    """The `POST /yardkle/reviews` answer for `body`, under its `rules` (the policy table
    of any rules is small enough to solve here)."""
    from diceref.games.yardkle.api.reviews import YardkleReviewRequest, review_answer
    from diceref.games.yardkle.tables import solve_policy_table

    data = msgspec.convert(body, YardkleReviewRequest)
    return review_answer(data, solve_policy_table)


def review(body: Any, load: Callable[[TableSpec], Any]) -> ReviewTable:
    """Yardkle's review (its policy table solved here: `load` is not needed)."""
    answer = yardkle_review(body)

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
