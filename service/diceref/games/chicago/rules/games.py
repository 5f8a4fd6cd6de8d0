"""Who plays a Chicago round, with how many lives, and a whole game carried round to round.

A single round (`referee_round`) brings its own lives, which are checked against the lives
table for the game's player count at the start.  A game (`referee_game`) brings only the
seating and the rounds: the lives are carried from ruling to ruling here, so a client can
neither forget a lost life nor start a round with the wrong player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from diceref.core.errors import RuleViolation
from diceref.core.players import check_player_names
from diceref.core.ranking import competition_ranking
from diceref.games.chicago.rules.round import LABELS, EventKind, RoundRuling, Turn, rule_round
from diceref.games.chicago.rules.ruleset import ChicagoRules


def _check_table_size(rules: ChicagoRules, players: int, path: str) -> None:
    assert rules.max_players is not None
    if not rules.min_players <= players <= rules.max_players:
        raise RuleViolation(
            path,
            f"Chicago is for {rules.min_players} to {rules.max_players} players, not {players}",
            "table_size",
        )


def referee_round(
    rules: ChicagoRules,
    turns: Sequence[Turn],
    lives: Sequence[int],
    players_at_start: int | None = None,
) -> RoundRuling:
    """Rule on one round given in turn order, the starter first, each player with lives.

    Without `players_at_start` the round is the game's first, so every player must hold the
    table's starting lives; with it, lives may be anything from 1 to that starting number.
    """
    names = [t.name for t in turns]
    check_player_names(names, "turns", ".player")
    for i, (name, n) in enumerate(zip(names, lives, strict=True)):
        if n <= 0:
            raise RuleViolation(
                f"turns[{i}].lives",
                f"{name} is out (0 lives): a player who is out takes no part in a round",
                "player_out",
            )
    if len(turns) < rules.min_players:
        raise RuleViolation(
            "turns",
            "a round after the game ended: with one player left holding lives the game is "
            "over and that player has won",
            "game_over",
        )
    start = len(turns) if players_at_start is None else players_at_start
    _check_table_size(rules, start, "players_at_start")
    if start < len(turns):
        raise RuleViolation(
            "players_at_start",
            f"the game cannot have started with {start} players when {len(turns)} are still in",
            "impossible_players_at_start",
        )
    full = rules.lives_for(start)
    for i, (name, n) in enumerate(zip(names, lives, strict=True)):
        if players_at_start is None and n != full:
            raise RuleViolation(
                f"turns[{i}].lives",
                f"{name} has {n} lives, but a game of {start} players starts with {full} each "
                "(for a later round, give players_at_start)",
                "wrong_lives",
            )
        if n > full:
            raise RuleViolation(
                f"turns[{i}].lives",
                f"{name} has {n} lives, more than the {full} a game of {start} players starts with",
                "wrong_lives",
            )
    return rule_round(rules, turns, dict(zip(names, lives, strict=True)), "turns")


@dataclass(frozen=True)
class Standing:
    place: int
    name: str
    lives: int
    out_in_round: int | None  # 1-based round of the last life lost


@dataclass(frozen=True)
class GameRuling:
    starting_lives: int
    rounds: tuple[RoundRuling, ...]
    standings: tuple[Standing, ...]
    next_starter: str | None  # for the round to come; None when by lot or the game is over
    winner: str | None


def _check_lineup(
    rules: ChicagoRules,
    seating: Sequence[str],
    lives: dict[str, int],
    out_in: dict[str, int],
    turns: Sequence[Turn],
    next_starter: str | None,
    why: str,
    r: int,
) -> None:
    path = f"rounds[{r}].turns"
    names = [t.name for t in turns]
    for i, name in enumerate(names):
        if name not in lives:
            raise RuleViolation(
                f"{path}[{i}].player", f"'{name}' does not sit at this table", "unknown_player"
            )
        if lives[name] == 0:
            raise RuleViolation(
                f"{path}[{i}].player",
                f"{name} is out since round {out_in[name] + 1}: a player who is out takes no "
                "part in a round",
                "player_out",
            )
    check_player_names(names, path, ".player")
    missing = [n for n in seating if lives[n] > 0 and n not in names]
    if missing:
        raise RuleViolation(
            path,
            f"{missing[0]} still has {lives[missing[0]]} lives and must play round {r + 1}",
            "missing_player",
        )
    if next_starter is not None and names[0] != next_starter:
        raise RuleViolation(
            f"{path}[0].player",
            f"round {r + 1} is started by {names[0]}, but the ruling of round {r} named "
            f"{next_starter}: {why}",
            "wrong_starter",
        )
    if not rules.seating_fixed:
        return  # each round sets its own turn order
    alive = [n for n in seating if lives[n] > 0]
    at = alive.index(names[0])
    expected = alive[at:] + alive[:at]
    if names != expected:
        raise RuleViolation(
            path,
            f"round {r + 1} goes round the table from {names[0]}: expected {expected}, got {names}",
            "seating_order",
        )


def _starter_reason(ruling: RoundRuling) -> str:
    """Why the ruling names its next starter, for a round started by someone else."""
    last = ruling.events[-1]
    if last.kind is EventKind.WORST_SCORE:
        if last.player == ruling.next_starter:
            return "the worst score starts the next round"
        return "the worst score went out, and the next player still in after them starts"
    if last.player == ruling.next_starter:
        return f"the thrower of the {LABELS[last.kind]} starts the next round"
    return f"the next player still in after the thrower of the {LABELS[last.kind]} starts"


def referee_game(
    rules: ChicagoRules, seating: Sequence[str], rounds: Sequence[Sequence[Turn]]
) -> GameRuling:
    """Rule on a game round by round, carrying the lives; the game may still be running."""
    check_player_names(seating, "players")
    _check_table_size(rules, len(seating), "players")
    full = rules.lives_for(len(seating))
    lives = dict.fromkeys(seating, full)
    out_in: dict[str, int] = {}  # 0-based round of the last life
    knockouts: dict[str, int] = {}  # the event that took the last life, numbered in order
    knockout_events = 0
    rulings: list[RoundRuling] = []
    next_starter: str | None = None
    why = ""
    winner: str | None = None
    for r, turns in enumerate(rounds):
        if winner is not None:
            raise RuleViolation(
                f"rounds[{r}]",
                f"round {r + 1} comes after the game ended: {winner} won in round {r}",
                "game_over",
            )
        _check_lineup(rules, seating, lives, out_in, turns, next_starter, why, r)
        ruling = rule_round(rules, turns, lives, f"rounds[{r}].turns")
        rulings.append(ruling)
        for p in ruling.players:
            lives[p.name] = p.lives_after
        for event in ruling.events:
            if event.knocked_out:
                knockout_events += 1
            for n in event.knocked_out:
                out_in[n] = r
                knockouts[n] = knockout_events
        next_starter, winner = ruling.next_starter, ruling.winner
        why = _starter_reason(ruling)
    return GameRuling(
        starting_lives=full,
        rounds=tuple(rulings),
        standings=_standings(seating, lives, out_in, knockouts),
        next_starter=next_starter,
        winner=winner,
    )


def _standings(
    seating: Sequence[str], lives: dict[str, int], out_in: dict[str, int], knockouts: dict[str, int]
) -> tuple[Standing, ...]:
    """Players still in by lives, then the others, the last out first; players who went out
    through the same event share a place."""

    def key(name: str) -> tuple[int, int]:
        return (lives[name], knockouts.get(name, -1))

    out: list[Standing] = []
    for place, name in competition_ranking(seating, key):
        out_round = out_in[name] + 1 if name in out_in else None
        out.append(Standing(place, name, lives[name], out_round))
    return tuple(out)
