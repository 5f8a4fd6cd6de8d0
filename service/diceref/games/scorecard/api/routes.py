"""The scorecard operations: `POST /score`, `/holds`, `/distributions` and `/scorecards/check`.

Thin handlers: decode (the lean JSON path), call the rules or the coach, encode.  Every
rule check lives in `diceref.games.scorecard.rules` and raises `RuleViolation` (a 422).
"""

from __future__ import annotations

import msgspec
from litestar import Request
from litestar.params import JSONBody

from diceref.core.arrays import FloatArray
from diceref.core.errors import RuleViolation
from diceref.games.scorecard.api.custom import ruleset_of
from diceref.games.scorecard.api.models import (
    BlockedOut,
    CheckRequest,
    CheckResponse,
    DistributionRequest,
    DistributionResponse,
    HoldsRequest,
    HoldsResponse,
    OptionOut,
    Play,
    ProblemOut,
    ScorecardIn,
    ScoreRequest,
    ScoreResponse,
    SheetOut,
    Standing,
    TotalChance,
    option_out,
)
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import (
    Scorecard,
    blocked_boxes,
    card_total,
    check_throw,
    legal_options,
    open_card,
    throw_of,
    validate_scorecard,
)
from diceref.games.scorecard.rules.sheets import Entry, Sheet, check_sheet, rank
from diceref.games.scorecard.solver.advice import (
    Target,
    advise,
    by_chance,
    card_state,
)
from diceref.games.scorecard.solver.statespace import state_space
from diceref.games.scorecard.solver.target import (
    TooManyTurns,
    final_distribution,
    target_distribution,
)
from diceref.games.scorecard.tables import band_table, distribution_spec, value_spec, win_spec
from diceref.http.family import operation, registry_of
from diceref.tables.registry import TableRegistry
from diceref.tables.spec import TableNotLoaded, TableSpec


def _ruleset(
    data: ScoreRequest | HoldsRequest | CheckRequest | DistributionRequest,
) -> tuple[Ruleset, bool]:
    """The request's ruleset (a built-in game under its `rules`, or a custom `ruleset`) and
    whether the answer names it with `ruleset_id`."""
    game = None if data.game is None else data.game.value
    return ruleset_of(game, data.rules, data.ruleset)


def _ruleset_id(ruleset: Ruleset, chosen: bool) -> str | msgspec.UnsetType:
    """The answer's `ruleset_id`: given whenever the request chose its rules."""
    return ruleset.ruleset_id if chosen else msgspec.UNSET


def _scorecard(card_in: ScorecardIn | None) -> Scorecard:
    return Scorecard() if card_in is None else Scorecard(card_in.filled, card_in.extra_bonus)


def _card(ruleset: Ruleset, card_in: ScorecardIn | None) -> Scorecard:
    return open_card(ruleset, _scorecard(card_in))


@operation("/score", summary="Score a throw", problems=(400, 404, 422))
def score(data: JSONBody[ScoreRequest]) -> ScoreResponse:
    """Every box the throw may legally fill now (Joker and series order applied), a scratch
    listed with 0 points, and the card's total before the throw."""
    ruleset, chosen = _ruleset(data)
    card = _card(ruleset, data.scorecard)
    throw = ruleset.throws_per_turn if data.throw is None else data.throw
    check_throw(ruleset, throw)
    options = legal_options(ruleset, card, data.dice, throw)
    name = ruleset.box_name
    return ScoreResponse(
        game=ruleset.id,
        dice=data.dice,
        options=[
            OptionOut(o.box, name[o.box], o.points, o.bonus, o.upper_bonus, o.extra_bonus)
            for o in options
        ],
        blocked=[
            BlockedOut(b.box, name[b.box], b.code, b.reason)
            for b in blocked_boxes(ruleset, card, options)
        ],
        total=card_total(ruleset, card),
        ruleset_id=_ruleset_id(ruleset, chosen),
    )


def tables(registry: TableRegistry, specs: tuple[TableSpec, ...]) -> list[FloatArray]:
    """The tables a request needs: every missing one asked for at once (they load side by
    side), then `TableNotLoaded` for the first of them (a 503)."""
    found = [registry.table(spec) for spec in specs]
    for spec, table in zip(specs, found, strict=True):
        if table is None:
            raise TableNotLoaded(spec)
    return [table for table in found if table is not None]


def play_to_win(
    registry: TableRegistry, ruleset: Ruleset, target: int | None
) -> tuple[FloatArray, Target | None]:
    """The value table and, with a `target`, the win table to reach it with."""
    if target is None:
        return registry.require(value_spec(ruleset)), None
    values, win = tables(registry, (value_spec(ruleset), win_spec(ruleset)))
    return values, Target(target, band_table(win))


@operation("/holds", summary="Rank every keep and every box", problems=(400, 404, 422, 429, 503))
def holds(data: JSONBody[HoldsRequest], request: Request) -> HoldsResponse:  # type: ignore[type-arg]
    """Every distinct keep (none to all five, when a throw is left) and every legal box, by
    exact expected final score under optimal play (`expected_total`, bonuses included).
    With a `target`, by the chance to reach it instead (`win_probability`, ties by expected
    total; `best` and `loss` in that chance), from the ruleset's win table (solved when
    first asked for: a 503 with `progress` until then)."""
    ruleset, chosen = _ruleset(data)
    card = _card(ruleset, data.scorecard)
    throw = throw_of(ruleset, data.throws_left, data.throw)
    values, target = play_to_win(registry_of(request), ruleset, data.target)
    advice = advise(ruleset, values, card, data.dice, data.throws_left, throw, target)
    if target is None:
        top = advice[0].expected_total if advice else 0.0
    else:
        advice = by_chance(advice)
        top = (advice[0].win_probability or 0.0) if advice else 0.0
    options = [option_out(ruleset, o, top, target is not None) for o in advice]
    return HoldsResponse(
        ruleset.id,
        data.dice,
        data.throws_left,
        card_total(ruleset, card),
        options,
        _ruleset_id(ruleset, chosen),
        msgspec.UNSET if data.target is None else data.target,
    )


QUANTILES = (1, 5, 25, 50, 75, 95, 99)  # the percentiles answered, p1 to p99


@operation(
    "/distributions",
    summary="Forecast the final total",
    problems=(400, 404, 422, 429, 503),
)
def distributions(data: JSONBody[DistributionRequest], request: Request) -> DistributionResponse:  # type: ignore[type-arg]
    """The distribution of the card's final total (bonuses included), from the start of the
    card's next turn or from the `dice` of the turn under way with `throws_left`: every total
    with its chance, the mean, standard deviation, extremes and percentiles (`p50`: the
    least total reached or passed with probability 1/2 from below).  `play` says whose play
    it follows: for the greatest expected total, or with a `target` (the default then) for
    the greatest chance to reach it, which is followed turn by turn and so is answered for
    cards near their end (a 422 `target_too_early` before).  With a `target`,
    `win_probability` is the chance to reach it playing for it.  The tables are solved when
    first asked for: a 503 with `progress` until then."""
    ruleset, chosen = _ruleset(data)
    if data.dice is None:
        if data.throws_left is not None:
            raise RuleViolation("dice", "throws_left needs the dice thrown", "missing_field")
        card = _scorecard(data.scorecard)
        validate_scorecard(ruleset, card)
    else:
        if data.throws_left is None:
            raise RuleViolation(
                "throws_left",
                "the throws still allowed after the dice are required",
                "missing_field",
            )
        card = _card(ruleset, data.scorecard)
        throw_of(ruleset, data.throws_left, None)
    specs: tuple[TableSpec, ...] = (value_spec(ruleset), distribution_spec(ruleset))
    if data.target is not None:
        specs += (win_spec(ruleset),)
    found = tables(registry_of(request), specs)
    values, dist = found[0], band_table(found[1])
    state = card_state(ruleset, card)
    total = card_total(ruleset, card)
    dice = None if data.dice is None else tuple(data.dice)
    throws_left = 0 if data.throws_left is None else data.throws_left
    play = data.play or (Play.EXPECTED_POINTS if data.target is None else Play.TARGET)
    if play is Play.TARGET and data.target is None:
        raise RuleViolation("target", "target play needs the target to play for", "missing_field")
    chance: float | msgspec.UnsetType = msgspec.UNSET
    target: Target | None = None
    if data.target is not None:
        target = Target(data.target, band_table(found[2]))
        if data.dice is None:
            index = state_space(ruleset).index_one(state.mask, state.sub, state.flag)
            chance = target.win.at(index, data.target - total)
        else:
            options = advise(ruleset, values, card, data.dice, throws_left, None, target)
            chance = max(o.win_probability or 0.0 for o in options)
    if play is Play.TARGET:
        assert target is not None
        try:
            final = target_distribution(
                ruleset, values, target.win, dist, state.mask, state.sub, state.flag, total,
                target.total, dice, throws_left,
            )  # fmt: skip
        except TooManyTurns as exc:
            raise RuleViolation("play", str(exc), "target_too_early") from exc
    else:
        # mean and sd from the table's exact moments (its stored probabilities are rounded)
        final = final_distribution(
            ruleset, values, dist, state.mask, state.sub, state.flag, total, dice, throws_left
        )
    percentiles = {f"p{q}": final.quantile(q / 100) for q in QUANTILES}
    totals = final.totals.tolist()
    return DistributionResponse(
        game=ruleset.id,
        total=total,
        play=play,
        mean=final.mean,
        sd=final.sd,
        min=totals[0],
        max=totals[-1],
        **percentiles,
        distribution=[
            TotalChance(t, p)
            for t, p in zip(totals, final.probabilities.tolist(), strict=True)
            if p > 0
        ],
        target=msgspec.UNSET if data.target is None else data.target,
        win_probability=chance,
        ruleset_id=_ruleset_id(ruleset, chosen),
    )


@operation("/scorecards/check", summary="Check score sheets", problems=(400, 404, 422))
def check_scorecards(data: JSONBody[CheckRequest]) -> CheckResponse:
    """Every problem on every sheet (impossible values, points that do not match the dice,
    unknown boxes, bonuses without a basis, series order), the totals, and the ranking."""
    ruleset, chosen = _ruleset(data)
    reports = [
        check_sheet(
            ruleset,
            Sheet(
                player=s.player,
                entries=tuple(
                    Entry(e.box, e.points, None if e.dice is None else tuple(e.dice), e.throw)
                    for e in s.entries
                ),
                extra_bonus=s.extra_bonus,
                claimed_upper_bonus=s.claimed_upper_bonus,
                claimed_total=s.claimed_total,
            ),
            where=f"sheets[{i}]",
        )
        for i, s in enumerate(data.sheets)
    ]
    ranked = rank(list(reports))
    return CheckResponse(
        game=ruleset.id,
        sheets=[
            SheetOut(
                player=r.player,
                valid=not r.problems,
                problems=[ProblemOut(p.field, p.box, p.reason) for p in r.problems],
                upper_subtotal=r.upper_subtotal,
                upper_bonus=r.upper_bonus,
                extra_bonus=r.extra_bonus,
                total=r.total,
                complete=r.complete,
                rank=r.rank,
            )
            for r in reports
        ],
        standings=[Standing(r.rank, r.player, r.total) for r in ranked],
        ruleset_id=_ruleset_id(ruleset, chosen),
    )
