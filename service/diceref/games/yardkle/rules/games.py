"""Refereeing a Yardkle game: turn order, totals, the last turns and the winners.

Each turn is judged by `adjudicate_turn` against the player's total at that moment, so the
entry rule follows the game (a player is on the pad once a first turn banks).  The game ends
when the last turns owed after someone reached the target are played (`last_turns`: every
other player once, the rest of the round, or none); a turn listed after that, or out of
turn order, is refused with the turn it concerns.  Ties share the win, or go to the player
who reached the total first (`ties_share_win`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from diceref.core.errors import RuleViolation
from diceref.core.players import check_player_names
from diceref.core.ranking import competition_ranking
from diceref.games.yardkle.rules.scoring import DEFAULT_RULES, YardkleRules
from diceref.games.yardkle.rules.turns import ThrowRecord, TurnEnd, TurnResult, adjudicate_turn


@dataclass(frozen=True)
class GameTurn:
    player: str
    throws: tuple[ThrowRecord, ...]
    end: TurnEnd


@dataclass(frozen=True)
class PlayedTurn:
    index: int  # position in the game's list of turns (0-based, as in `turns[i]`)
    player: str
    result: TurnResult
    last_turn: bool  # one of the turns owed after the target was reached


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    total: int
    on_pad: bool
    turns: int


@dataclass(frozen=True)
class GameResult:
    turns: tuple[PlayedTurn, ...]
    standings: tuple[Standing, ...]
    reached: PlayedTurn | None  # the turn that first reached the target
    last_turns: tuple[int, ...]  # indices of the last turns played so far
    last_turns_due: tuple[str, ...]  # players still owed their last turn
    finished: bool
    winners: tuple[str, ...]  # empty until the game is finished
    next_player: str | None  # None once the game is finished
    # Per player owed a last turn: the turn points that pass the leader (end strictly above
    # every other total; an equal total shares the win), 0 for one already ahead.
    needs: tuple[tuple[str, int], ...] = ()


def adjudicate_game(
    players: Sequence[str], turns: Sequence[GameTurn], rules: YardkleRules = DEFAULT_RULES
) -> GameResult:
    """Replay the turns in order; raise at the first one that breaks a rule."""
    check_player_names(players, "players")
    n = len(players)
    totals = dict.fromkeys(players, 0)
    played: list[PlayedTurn] = []
    reached: PlayedTurn | None = None
    due: list[str] = []
    # Turn index at which each player's total last changed: who reached a total first,
    # which breaks ties when they are not shared.
    reached_at = dict.fromkeys(players, -1)
    for k, turn in enumerate(turns):
        expected = players[k % n]
        if reached is not None and not due:
            raise RuleViolation(
                f"turns[{k}]",
                f"the game is over: {reached.player} reached {rules.target} on turn "
                f"{reached.index + 1} and {OWED[rules.last_turns]}",
                "game_over",
            )
        if turn.player not in totals:
            raise RuleViolation(
                f"turns[{k}].player", f"'{turn.player}' is not a player", "unknown_player"
            )
        if turn.player != expected:
            raise RuleViolation(
                f"turns[{k}].player",
                f"out of turn: turn {k + 1} is {expected}'s (players throw in the order "
                f"listed), not {turn.player}'s",
                "out_of_turn",
            )
        result = adjudicate_turn(
            turn.throws, turn.end, totals[turn.player], rules, where=f"turns[{k}]"
        )
        totals[turn.player] = result.new_total
        if result.points:
            reached_at[turn.player] = k
        is_last = reached is not None
        entry = PlayedTurn(k, turn.player, result, is_last)
        played.append(entry)
        if is_last:
            due.remove(turn.player)
        elif rules.reaches_target(result.new_total):
            reached = entry
            due = last_turns_due(players, k % n, rules)
    finished = reached is not None and not due
    counted = {p: sum(1 for t in played if t.player == p) for p in players}
    standings = _standings(players, totals, counted, reached_at, rules)
    top = [s.player for s in standings if s.total == standings[0].total]
    if not rules.ties_share_win:  # the standings put who reached the total first first
        top = top[:1]
    return GameResult(
        turns=tuple(played),
        standings=standings,
        reached=reached,
        last_turns=tuple(t.index for t in played if t.last_turn),
        last_turns_due=tuple(due),
        finished=finished,
        winners=tuple(top) if finished else (),
        next_player=None if finished else players[len(turns) % n],
        needs=tuple((p, need_to_pass(totals, p, rules)) for p in due),
    )


OWED = {
    "every_other_player_once": "every other player has had a last turn",
    "complete_the_round": "the round is complete",
    "none": "the first to the target wins",
}


def last_turns_due(players: Sequence[str], reacher: int, rules: YardkleRules) -> list[str]:
    """Who still throws once the player listed at `reacher` reached the target, in order
    (the `last_turns` reading)."""
    if rules.last_turns == "none":
        return []
    if rules.last_turns == "complete_the_round":
        return list(players[reacher + 1 :])
    n = len(players)
    return [players[(reacher + j) % n] for j in range(1, n)]


def need_to_pass(totals: dict[str, int], player: str, rules: YardkleRules) -> int:
    """The turn points that take `player` strictly above every other player's total (scores
    are multiples of the unit, so one unit more than the gap).  Equalling it shares the win
    or, with `ties_share_win` false, loses it to the player who got there first: either
    way passing is what wins outright."""
    others = max((t for p, t in totals.items() if p != player), default=0)
    return max(0, others - totals[player] + rules.unit)


def _standings(
    players: Sequence[str],
    totals: dict[str, int],
    turns: dict[str, int],
    reached_at: dict[str, int],
    rules: YardkleRules,
) -> tuple[Standing, ...]:
    """Highest total first; equal totals share a rank (1, 2, 2, 4), then listing order.
    With `ties_share_win` false equal totals are ranked by who reached them first (players
    who never banked, all at 0, still share)."""

    def key(p: str) -> tuple[int, int]:
        return (totals[p], 0 if rules.ties_share_win else -reached_at[p])

    out: list[Standing] = []
    for rank, p in competition_ranking(players, key):
        on_pad = totals[p] > 0 or rules.entry_minimum == 0
        out.append(Standing(rank, p, totals[p], on_pad, turns[p]))
    return tuple(out)
