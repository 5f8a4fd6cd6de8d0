"""The scorecard games' commands: `diceref score` (a throw's options on an empty card) and
`diceref review` of a `POST /reviews` body (the operation's own replay and answer)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from diceref.core.game import GameInfo
from diceref.games.family import FamilyCli
from diceref.tables.spec import TableSpec


def score(game: GameInfo, dice: Sequence[int], throw: int, house_rules: bool) -> list[str]:
    from diceref.games.scorecard.rules.ruleset import Ruleset
    from diceref.games.scorecard.rules.scorecard import (
        Scorecard,
        check_throw,
        legal_options,
        validate_dice,
    )

    assert isinstance(game, Ruleset)
    validate_dice(list(dice))
    check_throw(game, throw)
    options = legal_options(game, Scorecard(), list(dice), throw)
    shown = " ".join(str(d) for d in dice)
    rules = f" (house rules {game.ruleset_id})" if house_rules else ""
    width = max(len(b.name) for b in game.boxes)
    return [
        f"{game.name}{rules}: {shown} (throw {throw}), empty scorecard",
        f"{'box':<{width}}  {'points':>6}  {'bonus':>5}",
        *(
            f"{game.box(o.box).name:<{width}}  {o.points:>6}  {o.bonus:>5}"
            for o in sorted(options, key=lambda o: -(o.points + o.bonus))
        ),
    ]


def scorecard_review(body: Any, load: Callable[[TableSpec], Any]) -> Any:
    """The `POST /reviews` answer for `body`, its value table from `load`."""
    from diceref.games.scorecard.api.reviews import (
        ReviewRequest,
        _review_ruleset,
        review_out,
        turn_records,
    )
    from diceref.games.scorecard.rules.turns import replay_game
    from diceref.games.scorecard.solver.review import review_game
    from diceref.games.scorecard.tables import value_spec

    data = msgspec.convert(body, ReviewRequest)
    ruleset, chosen = _review_ruleset(data)
    played = replay_game(ruleset, turn_records(data))
    return review_out(ruleset, review_game(ruleset, load(value_spec(ruleset)), played), chosen)


def _option_text(option: Any) -> str:
    if getattr(option, "keep", None) is not None:
        return "keep " + (" ".join(map(str, option.keep)) or "nothing")
    return f"{option.name} ({option.points + option.bonus})"


def review(body: Any, load: Callable[[TableSpec], Any], console: Any) -> None:
    from rich.table import Table

    answer = scorecard_review(body, load)
    table = Table(title=f"{answer.game}: {len(answer.turns)} turn(s) reviewed")
    for column in ("turn", "throw", "dice", "left", "chosen", "expected", "best", "loss"):
        table.add_column(column, justify="right" if column in ("expected", "loss") else "left")
    for t in answer.turns:
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
    console.print(f"final total             {answer.final_total}")
    console.print(f"optimal expected score  {answer.optimal_expected_score:.2f}")
    console.print(
        f"expected loss (skill)   {answer.expected_loss:.2f} over {answer.decision_count} "
        f"decisions, {answer.mean_loss:.3f} a decision"
    )
    luck = "(part-played game)" if answer.luck is None else f"{answer.luck:+.2f}"
    console.print(f"luck                    {luck}")
    for d in answer.costliest:
        console.print(
            f"costliest: turn {d.turn_index + 1} throw {d.throw}: {_option_text(d.chosen)} "
            f"instead of {_option_text(d.best_options[0])}, -{d.loss:.2f}"
        )


CLI = FamilyCli(score=score, review=review)
