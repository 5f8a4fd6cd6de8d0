"""Yardkle's command: `diceref review` of a `POST /yardkle/reviews` body (the operation's
own replay and answer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from diceref.games.family import FamilyCli
from diceref.tables.spec import TableSpec


def yardkle_review(body: Any) -> Any:
    """The `POST /yardkle/reviews` answer for `body`, under its `rules` (the policy table
    of any rules is solved here, in a fraction of a second)."""
    from diceref.games.yardkle.api.reviews import YardkleReviewRequest, review_answer
    from diceref.games.yardkle.tables import solve_policy_table

    data = msgspec.convert(body, YardkleReviewRequest)
    return review_answer(data, solve_policy_table)


def review(body: Any, load: Callable[[TableSpec], Any], console: Any) -> None:
    from rich.table import Table

    answer = yardkle_review(body)
    table = Table(title=f"yardkle: {len(answer.turns)} turn(s) reviewed")
    for column in ("turn", "throw", "dice", "in hand", "chosen", "expected", "best", "loss"):
        table.add_column(column, justify="right" if column in ("expected", "loss") else "left")

    def text(c: Any) -> str:
        return f"{' '.join(map(str, c.set_aside))}, {c.decision.value.replace('_', ' ')}"

    for t in answer.turns:
        for d in t.decisions:
            table.add_row(
                str(t.turn_index + 1) if d.decision_index == 0 else "",
                str(d.throw),
                " ".join(map(str, d.dice)),
                str(d.turn_points),
                text(d.chosen),
                f"{d.chosen.expected_points:.1f}",
                "" if d.loss == 0 else text(d.best_options[0]),
                "" if d.loss == 0 else f"{d.loss:.1f}",
            )
        table.add_section()
    console.print(table)
    console.print(f"points                   {answer.points}")
    console.print(f"optimal expected points  {answer.optimal_expected_points:.1f}")
    console.print(
        f"expected loss (skill)    {answer.expected_loss:.1f} over {answer.decision_count} "
        f"decisions, {answer.mean_loss:.2f} a decision"
    )
    console.print(f"luck                     {answer.luck:+.1f}")


CLI = FamilyCli(review=review)
