"""`POST /scorecards/check`: event scorekeeping over one or more players' sheets."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import post
from litestar.params import JSONBody
from msgspec import Meta

from diceref.games.scorecard.api.models import FiveDice, ScorecardGame, ThrowNumber
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.sheets import Entry, Sheet, check_sheet, rank
from diceref.http.lean import lean_json
from diceref.http.problems import problem_responses


class EntryIn(msgspec.Struct, forbid_unknown_fields=True):
    """One box as written on the sheet, optionally with the dice and throw behind it."""

    box: str
    points: int
    dice: FiveDice | None = None
    throw: ThrowNumber = 3


class SheetIn(msgspec.Struct, forbid_unknown_fields=True):
    player: Annotated[str, Meta(min_length=1, max_length=100)]
    entries: Annotated[list[EntryIn], Meta(max_length=64)]
    extra_bonus: Annotated[int, Meta(ge=0)] = 0
    claimed_upper_bonus: int | None = None
    claimed_total: int | None = None


class CheckRequest(msgspec.Struct, forbid_unknown_fields=True):
    game: ScorecardGame
    sheets: Annotated[list[SheetIn], Meta(min_length=1, max_length=50)]


class ProblemOut(msgspec.Struct):
    field: str
    box: str | None
    reason: str


class SheetOut(msgspec.Struct):
    player: str
    valid: bool
    problems: list[ProblemOut]
    upper_subtotal: int
    upper_bonus: int
    extra_bonus: int
    total: int
    complete: bool
    rank: int


class Standing(msgspec.Struct):
    rank: int
    player: str
    total: int


class CheckResponse(msgspec.Struct):
    game: str
    sheets: list[SheetOut]
    ranking: list[Standing]


@post(
    "/scorecards/check",
    operation_id="checkScorecards",
    responses=problem_responses(400),
    summary="Check score sheets",
    tags=["scorecard"],
    status_code=200,
    sync_to_thread=False,
    middleware=[lean_json],
)
def check_scorecards(data: JSONBody[CheckRequest]) -> CheckResponse:
    """Every problem on every sheet (impossible values, points that do not match the dice,
    unknown boxes, bonuses without a basis, series order), the totals, and the ranking."""
    ruleset = SCORECARD_GAMES[data.game.value]
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
        ranking=[Standing(r.rank, r.player, r.total) for r in ranked],
    )
