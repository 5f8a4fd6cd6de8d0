"""The scorecard games' commands: `diceref score` (a throw's options on an empty card) and
`diceref review` of a `POST /reviews` body (the operation's own replay and answer; with a
`target`, each decision's chance to reach it given up too)."""

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
    """The `POST /reviews` answer for `body`, its value table (and with a `target` its win
    table) from `load`."""
    from diceref.games.scorecard.api.reviews import (
        ReviewRequest,
        _review_ruleset,
        review_out,
        turn_records,
    )
    from diceref.games.scorecard.rules.turns import replay_game
    from diceref.games.scorecard.solver.advice import Target
    from diceref.games.scorecard.solver.review import review_game
    from diceref.games.scorecard.tables import band_table, value_spec, win_spec

    data = msgspec.convert(body, ReviewRequest)
    ruleset, chosen = _review_ruleset(data)
    played = replay_game(ruleset, turn_records(data))
    values = load(value_spec(ruleset))
    target = None
    if data.target is not None:
        target = Target(data.target, band_table(load(win_spec(ruleset))))
    review = review_game(ruleset, values, played, target)
    return review_out(ruleset, review, chosen, data.target)


def _option_text(option: Any) -> str:
    if getattr(option, "keep", None) is not None:
        return "keep " + (" ".join(map(str, option.keep)) or "nothing")
    return f"{option.name} ({option.points + option.bonus})"


def review(body: Any, load: Callable[[TableSpec], Any]) -> ReviewTable:
    answer = scorecard_review(body, load)
    targeted = isinstance(answer.target, int)  # the body's `target`: the chances too

    def cells(d: Any) -> tuple[str, ...]:
        shown = "" if d.loss == 0 else ", ".join(_option_text(o) for o in d.best_options)
        loss = "" if d.loss == 0 else f"{d.loss:.2f}"
        expected = f"{d.chosen.expected_total:.2f}"
        row = (str(d.throws_left), _option_text(d.chosen), expected, shown, loss)
        if not targeted:
            return row
        win_loss = "" if d.win_loss == 0 else f"{d.win_loss:.4f}"
        return (*row, f"{d.chosen.win_probability:.4f}", win_loss)

    luck = "(part-played game)" if answer.luck is None else f"{answer.luck:+.2f}"
    sums = [
        f"final total             {answer.final_total}",
        f"optimal expected score  {answer.optimal_expected_score:.2f}",
        f"expected loss (skill)   {answer.expected_loss:.2f} over {answer.decision_count} "
        f"decisions, {answer.mean_loss:.3f} a decision",
        f"luck                    {luck}",
    ]
    decisions = [d for t in answer.turns for d in t.decisions]
    if targeted:
        given_up = sum(d.win_loss for d in decisions)
        sums.append(
            f"chance given up         {given_up:.4f} over {len(decisions)} decisions "
            f"(target {answer.target})"
        )
    costliest = [
        f"costliest: turn {d.turn_index + 1} throw {d.throw}: {_option_text(d.chosen)} "
        f"instead of {_option_text(d.best_options[0])}, -{d.loss:.2f}"
        for d in answer.costliest
    ]
    if targeted:
        dearest = sorted((d for d in decisions if d.win_loss > 0), key=lambda d: -d.win_loss)
        costliest += [
            f"costliest for the target: turn {d.turn_index + 1} throw {d.throw}: "
            f"{_option_text(d.chosen)}, -{d.win_loss:.4f}"
            for d in dearest[:3]
        ]
    title = f"{answer.game}: {len(answer.turns)} turn(s) reviewed"
    columns: tuple[str, ...] = ("left", "chosen", "expected", "best", "loss")
    if targeted:
        columns += ("chance", "win loss")
    return ReviewTable.of(title, columns, answer.turns, cells, sums + costliest)


CLI = FamilyCli(score=score, review=review, review_target=True)
