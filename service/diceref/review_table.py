"""`diceref review FILE.json`: a played game's review printed as a table.

The file holds a `POST /reviews` body (a scorecard game: `game`, `turns`, optional `rules`)
or a `POST /yardkle/reviews` body (`turns` whose items have an `end`, optional `rules`).
The review is the service's own (the same replay, valuation and answer as the operation);
the tables come from the store as `diceref precompute` leaves them (solved once if no cache
has them).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import msgspec
from rich.console import Console
from rich.table import Table

from diceref.core.errors import RuleViolation
from diceref.settings import Settings


def _option_text(option: Any) -> str:
    if getattr(option, "keep", None) is not None:
        return "keep " + (" ".join(map(str, option.keep)) or "nothing")
    return f"{option.name} ({option.points + option.bonus})"


def scorecard_review(body: Any, settings: Settings) -> Any:
    """The `POST /reviews` answer for `body`, tables from the store."""
    from diceref.games.scorecard.api.reviews import (
        ReviewRequest,
        _review_ruleset,
        review_out,
        turn_records,
    )
    from diceref.games.scorecard.rules.turns import replay_game
    from diceref.games.scorecard.solver.review import review_game
    from diceref.games.scorecard.tables import value_spec
    from diceref.tables.spec import load_sync
    from diceref.tables.store import TableStore

    data = msgspec.convert(body, ReviewRequest)
    ruleset, chosen = _review_ruleset(data)
    played = replay_game(ruleset, turn_records(data))
    values = load_sync(TableStore(settings.tables), value_spec(ruleset)).array
    return review_out(ruleset, review_game(ruleset, values, played), chosen)


def yardkle_review(body: Any) -> Any:
    """The `POST /yardkle/reviews` answer for `body`, under its `rules` (the policy table
    of any rules is small enough to solve here)."""
    from diceref.games.yardkle.api.reviews import YardkleReviewRequest, review_answer
    from diceref.games.yardkle.tables import solve_policy_table

    data = msgspec.convert(body, YardkleReviewRequest)
    return review_answer(data, solve_policy_table)


def print_scorecard(review: Any, console: Console) -> None:
    table = Table(title=f"{review.game}: {len(review.turns)} turn(s) reviewed")
    for column in ("turn", "throw", "dice", "left", "chosen", "expected", "best", "loss"):
        table.add_column(column, justify="right" if column in ("expected", "loss") else "left")
    for t in review.turns:
        for d in t.decisions:
            table.add_row(
                str(t.turn_index + 1) if d.decision_index == 0 else "",
                str(d.throw),
                " ".join(map(str, d.dice)),
                str(d.throws_left),
                _option_text(d.chosen),
                f"{d.chosen.expected_total:.2f}",
                "" if d.loss == 0 else ", ".join(_option_text(o) for o in d.best_options),
                "" if d.loss == 0 else f"{d.loss:.2f}",
            )
        table.add_section()
    console.print(table)
    console.print(f"final total             {review.final_total}")
    console.print(f"optimal expected score  {review.optimal_expected_score:.2f}")
    console.print(
        f"expected loss (skill)   {review.expected_loss:.2f} over {review.decision_count} "
        f"decisions, {review.mean_loss:.3f} a decision"
    )
    luck = "(part-played game)" if review.luck is None else f"{review.luck:+.2f}"
    console.print(f"luck                    {luck}")
    for d in review.costliest:
        console.print(
            f"costliest: turn {d.turn_index + 1} throw {d.throw}: {_option_text(d.chosen)} "
            f"instead of {_option_text(d.best_options[0])}, -{d.loss:.2f}"
        )


def print_yardkle(review: Any, console: Console) -> None:
    table = Table(title=f"yardkle: {len(review.turns)} turn(s) reviewed")
    for column in ("turn", "throw", "dice", "in hand", "chosen", "expected", "best", "loss"):
        table.add_column(column, justify="right" if column in ("expected", "loss") else "left")

    def text(c: Any) -> str:
        return f"{' '.join(map(str, c.set_aside))}, {c.decision.value.replace('_', ' ')}"

    for t in review.turns:
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
    console.print(f"points                   {review.points}")
    console.print(f"optimal expected points  {review.optimal_expected_points:.1f}")
    console.print(
        f"expected loss (skill)    {review.expected_loss:.1f} over {review.decision_count} "
        f"decisions, {review.mean_loss:.2f} a decision"
    )
    console.print(f"luck                     {review.luck:+.1f}")


def review_file(path: Path, settings: Settings) -> int:
    """Print the review of the game in `path`; 2 for a file that is not a reviewable game."""
    from diceref.core.game import RuleParameterError

    console = Console(width=120, highlight=False)
    try:
        body = json.loads(path.read_text())
        if isinstance(body, dict) and "game" in body:
            print_scorecard(scorecard_review(body, settings), console)
        else:
            print_yardkle(yardkle_review(body), console)
    except (OSError, json.JSONDecodeError, msgspec.ValidationError) as exc:
        print(f"diceref review: error: {path}: {exc}", file=sys.stderr)
        return 2
    except (RuleViolation, RuleParameterError) as exc:
        print(f"diceref review: error: {exc}", file=sys.stderr)
        return 2
    return 0
