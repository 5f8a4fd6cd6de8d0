"""The scorecard operations: `POST /score`, `POST /holds` and `POST /scorecards/check`.

Thin handlers: decode (the lean JSON path), call the rules or the coach, encode.  Every
rule check lives in `diceref.games.scorecard.rules` and raises `RuleViolation` (a 422).
"""

from __future__ import annotations

import msgspec
from litestar import Request
from litestar.params import JSONBody

from diceref.games.scorecard.api.custom import ruleset_of
from diceref.games.scorecard.api.models import (
    BlockedOut,
    CheckRequest,
    CheckResponse,
    HoldsRequest,
    HoldsResponse,
    OptionOut,
    ProblemOut,
    ScorecardIn,
    ScoreRequest,
    ScoreResponse,
    SheetOut,
    Standing,
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
)
from diceref.games.scorecard.rules.sheets import Entry, Sheet, check_sheet, rank
from diceref.games.scorecard.solver.advice import advise
from diceref.games.scorecard.tables import value_spec
from diceref.http.family import operation, registry_of


def _ruleset(data: ScoreRequest | HoldsRequest | CheckRequest) -> tuple[Ruleset, bool]:
    """The request's ruleset (a built-in game under its `rules`, or a custom `ruleset`) and
    whether the answer names it with `ruleset_id`."""
    game = None if data.game is None else data.game.value
    return ruleset_of(game, data.rules, data.ruleset)


def _ruleset_id(ruleset: Ruleset, chosen: bool) -> str | msgspec.UnsetType:
    """The answer's `ruleset_id`: given whenever the request chose its rules."""
    return ruleset.ruleset_id if chosen else msgspec.UNSET


def _card(ruleset: Ruleset, card_in: ScorecardIn | None) -> Scorecard:
    card = Scorecard() if card_in is None else Scorecard(card_in.filled, card_in.extra_bonus)
    return open_card(ruleset, card)


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


@operation("/holds", summary="Rank every keep and every box", problems=(400, 404, 422, 429, 503))
def holds(data: JSONBody[HoldsRequest], request: Request) -> HoldsResponse:  # type: ignore[type-arg]
    """Every distinct keep (none to all five, when a throw is left) and every legal box, by
    exact expected final score under optimal play (`expected_total`, bonuses included)."""
    ruleset, chosen = _ruleset(data)
    card = _card(ruleset, data.scorecard)
    throw = throw_of(ruleset, data.throws_left, data.throw)
    values = registry_of(request).require(value_spec(ruleset))
    advice = advise(ruleset, values, card, data.dice, data.throws_left, throw)
    top = advice[0].expected_total if advice else 0.0
    options = [option_out(ruleset, o, top) for o in advice]
    return HoldsResponse(
        ruleset.id,
        data.dice,
        data.throws_left,
        card_total(ruleset, card),
        options,
        _ruleset_id(ruleset, chosen),
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
