"""Chicago's rule description and legal moves: values, lives, specials, conversions, and the
parameters `GET /games/chicago` reports."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

import pytest
from litestar.testing import TestClient

from conftest import make_test_app
from diceref.core.dice import sub_multisets
from diceref.games.chicago.rules.moves import Move, legal_moves, move_error
from diceref.games.chicago.rules.ruleset import (
    CHICAGO,
    UNBEATABLE,
    Call,
    Conversion,
    Obligation,
    Special,
    chicago,
    special,
)

# The app of the tests: test disk cache, no Redis, no preloading (never the env's).
app = make_test_app()

ALL_THROWS = list(combinations_with_replacement(range(1, 7), 3))


@pytest.mark.parametrize(
    ("dice", "high", "low"),
    [
        ((2, 3, 4), 9, 9),
        ((1, 1, 1), 300, 3),
        ((1, 5, 6), 165, 12),
        ((6, 6, 6), 180, 18),
        ((1, 6, 2), 162, 9),
        ((5, 5, 4), 14, 14),
    ],
)
def test_values_under_high_and_low(dice: tuple[int, ...], high: int, low: int) -> None:
    assert CHICAGO.value(dice, Call.HIGH) == high
    assert CHICAGO.value(dice, Call.LOW) == low


def test_score_bounds_every_throw() -> None:
    """1-1-1 is the best throw under either call, so a Chicago never needs a rethrow."""
    for call in Call:
        best = max(ALL_THROWS, key=lambda d: CHICAGO.signed_value(d, call))
        assert best == (1, 1, 1)


@pytest.mark.parametrize(("players", "lives"), [(2, 4), (3, 3), (4, 3), (5, 3), (6, 2)])
def test_lives_by_player_count(players: int, lives: int) -> None:
    assert CHICAGO.lives_for(players) == lives


def test_specials() -> None:
    assert special((1, 1, 1)) is Special.CHICAGO
    assert special((5, 1, 6)) is Special.ONE_SIX_FIVE
    assert special((6, 5, 1)) is Special.ONE_SIX_FIVE
    assert [d for d in ALL_THROWS if special(d) is not None] == [(1, 1, 1), (1, 5, 6)]


def test_one_six_five_as_a_score_is_a_parameter() -> None:
    assert CHICAGO.strength((1, 5, 6), Call.LOW) == -12
    safe = chicago(one_six_five_scores=False)
    assert safe.strength((1, 5, 6), Call.LOW) == UNBEATABLE
    assert safe.strength((1, 5, 6), Call.HIGH) == UNBEATABLE
    assert safe.strength((1, 1, 1), Call.LOW) == -3


def test_conversions_by_count_of_sixes() -> None:
    assert CHICAGO.conversion((6, 6, 3)) == (Conversion.TWO_SIXES, Obligation.MAY)
    assert CHICAGO.conversion((6, 6, 6)) == (Conversion.THREE_SIXES, Obligation.MUST)
    assert CHICAGO.conversion((6, 5, 1)) is None
    strict = chicago(two_sixes_conversion=Obligation.MUST)
    assert strict.conversion((6, 6, 3)) == (Conversion.TWO_SIXES, Obligation.MUST)


def test_moves_with_two_sixes() -> None:
    moves = legal_moves(CHICAGO, (6, 3, 6), 0, True)
    plain = [m.kept for m in moves if m.conversion is None]
    assert plain == [(3, 6, 6), (), (3,), (6,), (3, 6), (6, 6)]
    converted = {(m.kept, m.aside) for m in moves if m.conversion is Conversion.TWO_SIXES}
    # the converted 1 stays on the table; the other 6 goes back; the 3 is free
    assert converted == {((1,), 1), ((1, 3), 1)}


def test_moves_with_three_sixes_and_a_throw_left_are_forced() -> None:
    assert legal_moves(CHICAGO, (6, 6, 6), 0, True) == [Move((1, 1), 2, Conversion.THREE_SIXES)]
    assert legal_moves(CHICAGO, (6, 6, 6), 0, False) == [Move((6, 6, 6), 0)]


def test_two_sixes_forced_under_that_parameter() -> None:
    strict = chicago(two_sixes_conversion=Obligation.MUST)
    moves = legal_moves(strict, (6, 3, 6), 0, True)
    assert {m.conversion for m in moves} == {Conversion.TWO_SIXES}


def test_set_aside_ones_stay_and_count_for_a_second_conversion() -> None:
    """A kept 6 counts: 1(aside)-6-6 may convert again, and both 1s then stay aside."""
    moves = legal_moves(CHICAGO, (1, 6, 6), 1, True)
    assert all(Counter(m.kept)[1] >= m.aside >= 1 for m in moves)
    assert Move((1, 1), 2, Conversion.TWO_SIXES) in moves
    assert Move((), 1) not in moves  # the set-aside 1 cannot be thrown again


def test_chicago_ends_the_turn() -> None:
    assert legal_moves(CHICAGO, (1, 1, 1), 0, True) == [Move((1, 1, 1), 0)]
    assert move_error(CHICAGO, (1, 1, 1), 0, True, None, (1, 1)) == (
        "next",
        "1-1-1 (Chicago) ends the turn and the round: no further throw",
        "throw_after_chicago",
    )


def _record_to_move(
    dice: tuple[int, ...], aside: int, conversion: Conversion | None, kept: tuple[int, ...] | None
) -> Move | None:
    """The move a record makes; None for 'keep all three and throw again', never legal."""
    if kept is None:
        return Move(tuple(sorted(dice)), aside) if conversion is None else None
    if len(kept) == 3:
        return None
    ones = {None: 0, Conversion.TWO_SIXES: 1, Conversion.THREE_SIXES: 2}[conversion]
    return Move(tuple(sorted(kept)), aside + ones, conversion)


def test_referee_and_coach_agree_on_every_move() -> None:
    """`move_error` accepts a recorded move exactly when `legal_moves` lists it, for every
    throw, every count of set-aside 1s, with and without a throw left."""
    conversions = [None, Conversion.TWO_SIXES, Conversion.THREE_SIXES]
    accepted = listed = 0
    for dice in ALL_THROWS:
        for aside in range(Counter(dice)[1] + 1):
            for throw_left in (True, False):
                legal = set(legal_moves(CHICAGO, dice, aside, throw_left))
                listed += len(legal)
                pool = tuple(sorted((*dice, 1, 1)))  # what can stay: the dice and converted 1s
                candidates: list[tuple[int, ...] | None] = [None, *sub_multisets(pool)]
                for conversion in conversions:
                    for kept in candidates:
                        ok = move_error(CHICAGO, dice, aside, throw_left, conversion, kept) is None
                        move = _record_to_move(dice, aside, conversion, kept)
                        assert ok == (move in legal), (dice, aside, throw_left, conversion, kept)
                        accepted += ok
    assert accepted == listed  # every legal move is some record's, and only one's


def test_game_info_reports_every_reading() -> None:
    with TestClient(app) as client:
        info = client.get("/games/chicago").json()
        listed = {g["id"]: g for g in client.get("/games").json()}
    assert listed["chicago"]["dice_count"] == 3
    assert listed["chicago"]["max_players"] == 6
    params = {p["name"]: p for p in info["parameters"]}
    assert params["lives_by_players"]["value"] == [4, 3, 3, 3, 2]
    assert params["high_values"]["value"] == [100, 2, 3, 4, 5, 60]
    assert params["low_values"]["value"] == [1, 2, 3, 4, 5, 6]
    assert params["two_sixes_conversion"]["value"] == "may"
    assert params["three_sixes_conversion"]["value"] == "must"
    assert params["worst_tie_loser"] == {
        "name": "worst_tie_loser",
        "value": "later",
        "description": params["worst_tie_loser"]["description"],
        "reading": True,
        "label": "Loser of a worst-score tie",
        "value_type": "string",
        "settable": True,
        "choices": ["later", "earlier"],
        "choice_descriptions": {
            "later": "the player who threw it later: a later player escapes only by being "
            "strictly better.",
            "earlier": "the player who threw it earlier: a later player takes the worst score "
            "only by being strictly worse.",
        },
    }
    assert params["one_six_five_round_goes_on"]["value"] is True
    assert params["one_six_five_round_goes_on"]["reading"] is True
    assert params["next_starter_after_chicago"]["value"] == "lot"
    assert params["one_six_five_scores"]["value"] is True
    readings = {name for name, p in params.items() if p["reading"]}
    assert readings == {
        "sixes_counted_as_they_lie",
        "starter_chicago_call",
        "one_six_five_round_goes_on",
        "specials_on_final_dice",
        "one_six_five_scores",
        "worst_tie_loser",
        "knockout",
        "next_starter_when_worst_out",
        "seating_fixed",
    }
    assert "1-1-1" in info["summary"]


def test_parameters_follow_the_builder() -> None:
    rules = chicago(one_six_five_scores=False)
    params = {p.name: p.value for p in rules.parameters}
    assert params["one_six_five_scores"] is False
    assert rules.one_six_five_scores is False
