"""The scorecard games' commands: `diceref score` (a throw's options on an empty card) and
`diceref review` of a `POST /reviews` body (the operation's own replay and answer)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from diceref.core.game import GameInfo
from diceref.games.family import FamilyCli, ReviewTable
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


def review(body: Any, load: Callable[[TableSpec], Any]) -> ReviewTable:
    answer = scorecard_review(body, load)

    def cells(d: Any) -> tuple[str, ...]:
        shown = "" if d.loss == 0 else ", ".join(_option_text(o) for o in d.best_options)
        loss = "" if d.loss == 0 else f"{d.loss:.2f}"
        expected = f"{d.chosen.expected_total:.2f}"
        return (str(d.throws_left), _option_text(d.chosen), expected, shown, loss)

    luck = "(part-played game)" if answer.luck is None else f"{answer.luck:+.2f}"
    sums = [
        f"final total             {answer.final_total}",
        f"optimal expected score  {answer.optimal_expected_score:.2f}",
        f"expected loss (skill)   {answer.expected_loss:.2f} over {answer.decision_count} "
        f"decisions, {answer.mean_loss:.3f} a decision",
        f"luck                    {luck}",
    ]
    costliest = [
        f"costliest: turn {d.turn_index + 1} throw {d.throw}: {_option_text(d.chosen)} "
        f"instead of {_option_text(d.best_options[0])}, -{d.loss:.2f}"
        for d in answer.costliest
    ]
    title = f"{answer.game}: {len(answer.turns)} turn(s) reviewed"
    columns = ("left", "chosen", "expected", "best", "loss")
    return ReviewTable.of(title, columns, answer.turns, cells, sums + costliest)


CLI = FamilyCli(score=score, review=review)
