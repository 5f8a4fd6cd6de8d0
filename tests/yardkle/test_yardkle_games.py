"""Refereeing a Yardkle game: turn order, reaching the target, the last turns, winners, ties."""

from __future__ import annotations

import pytest

from diceref.core.errors import RuleViolation
from diceref.games.yardkle.rules.games import GameTurn, adjudicate_game
from diceref.games.yardkle.rules.ruleset import YardkleRules
from diceref.games.yardkle.rules.turns import ThrowRecord, TurnEnd

# One-throw turns worth a known amount (all dice set aside, then banked).
THROWN = {
    3000: ((2, 2, 2, 2, 2, 2), (2, 2, 2, 2, 2, 2)),
    2500: ((3, 3, 3, 4, 4, 4), (3, 3, 3, 4, 4, 4)),
    1500: ((1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6)),
    500: ((5, 5, 5, 2, 3, 4), (5, 5, 5)),
}


def bank(player: str, points: int) -> GameTurn:
    dice, kept = THROWN[points]
    return GameTurn(player, (ThrowRecord(dice, kept),), TurnEnd.BANK)


def yardkle(player: str) -> GameTurn:
    return GameTurn(player, (ThrowRecord((2, 2, 3, 4, 6, 6)),), TurnEnd.YARDKLE)


def test_last_turns_after_the_target_and_the_winner() -> None:
    turns = [
        bank("ann", 3000), bank("bob", 1500), bank("cy", 500),
        bank("ann", 3000), bank("bob", 3000), yardkle("cy"),
        bank("ann", 3000), bank("bob", 3000), bank("cy", 3000),
        bank("ann", 1500),  # ann: 10,500 reaches the target
        bank("bob", 3000),  # bob's last turn: 10,500, level
        yardkle("cy"),  # cy's last turn
    ]  # fmt: skip
    result = adjudicate_game(["ann", "bob", "cy"], turns)
    assert result.reached is not None and result.reached.index == 9
    assert result.reached.player == "ann"
    assert result.last_turns == (10, 11)
    assert result.finished and result.next_player is None
    assert result.winners == ("ann", "bob")  # a tie shares the win
    assert [(s.rank, s.player, s.total) for s in result.standings] == [
        (1, "ann", 10500),
        (1, "bob", 10500),
        (3, "cy", 3500),
    ]


def test_a_last_turn_can_overtake_the_leader() -> None:
    turns = [t for _ in range(3) for t in (bank("ann", 3000), bank("bob", 3000))]
    turns += [bank("ann", 1500), bank("bob", 2500)]  # ann 10,500; bob's last turn: 11,500
    result = adjudicate_game(["ann", "bob"], turns)
    assert result.finished and result.winners == ("bob",)
    assert result.reached is not None and result.reached.player == "ann"


def test_exactly_the_target_starts_the_last_turns() -> None:
    turns = [bank("ann", 2500)] * 4  # 10,000 exactly
    assert adjudicate_game(["ann"], turns).finished
    strict = YardkleRules(target_inclusive=False)
    assert not adjudicate_game(["ann"], turns, strict).finished


def test_a_game_in_progress() -> None:
    result = adjudicate_game(["ann", "bob"], [bank("ann", 500), yardkle("bob")])
    assert not result.finished and result.winners == () and result.reached is None
    assert result.next_player == "ann"
    bob = next(s for s in result.standings if s.player == "bob")
    assert not bob.on_pad and bob.turns == 1


def test_the_last_turns_still_owed() -> None:
    turns = [bank("ann", 3000)] + [bank(p, 3000) for _ in range(3) for p in ("bob", "cy", "ann")]
    result = adjudicate_game(["ann", "bob", "cy"], turns)
    assert result.reached is not None and result.reached.index == 9
    assert result.last_turns_due == ("bob", "cy") and not result.finished
    assert result.next_player == "bob"


def test_the_entry_rule_follows_the_game() -> None:
    # bob is not on the pad: a 250 bank is refused in the game, with the turn's path.
    under = GameTurn("bob", (ThrowRecord((1, 1, 5, 2, 3, 6), (1, 1, 5)),), TurnEnd.BANK)
    with pytest.raises(RuleViolation) as caught:
        adjudicate_game(["ann", "bob"], [bank("ann", 500), under])
    assert caught.value.field == "turns[1].end"
    # once on the pad, the same turn is fine
    result = adjudicate_game(
        ["ann", "bob"], [bank("ann", 500), bank("bob", 500), bank("ann", 500), under]
    )
    totals = {s.player: s.total for s in result.standings}
    assert totals == {"ann": 1000, "bob": 750}


REJECTIONS = [
    (["ann", "bob"], [bank("bob", 500)], "turns[0].player", "out of turn"),
    (["ann", "bob"], [bank("ann", 500), bank("ann", 500)], "turns[1].player", "out of turn"),
    (["ann"], [bank("zed", 500)], "turns[0].player", "not a player"),
    (["ann", "ann"], [], "players[1]", "appears twice"),
    ([], [], "players", "at least one player"),
    (["ann"], [bank("ann", 3000)] * 4 + [bank("ann", 500)], "turns[4]", "the game is over"),
]


@pytest.mark.parametrize(("players", "turns", "field", "words"), REJECTIONS)
def test_rejections(players: list[str], turns: list[GameTurn], field: str, words: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        adjudicate_game(players, turns)
    assert caught.value.field == field
    assert words in caught.value.reason
