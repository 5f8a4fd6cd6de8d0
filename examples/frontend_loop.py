"""A frontend's game loop on the diceref SDK: the service coaches, the program plays.

Each turn: throw five dice, ask `/holds` what to do, keep what it says and throw the rest,
ask again, and once it says to stop (or no throw is left) take the box's points from
`/score` and place them on the card.  As many turns as the game has boxes fill the card;
`/scorecards/check` then totals the sheet.

    uv run python examples/frontend_loop.py --url http://127.0.0.1:8000 --game yahtzee

Needs a server whose table for the game is loaded (`diceref serve`, then `GET /games/yahtzee`
shows `optimal_expected_score` once it is); while it loads, the client retries on 503.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field

from diceref_client import Client, EntryIn, ScorecardIn, SheetIn
from diceref_client.models import BoxOption


@dataclass
class Turn:
    throws: list[list[int]] = field(default_factory=list)  # the dice after each throw
    kept: list[list[int]] = field(default_factory=list)  # what was kept before each rethrow
    box: str = ""
    points: int = 0
    bonus: int = 0


@dataclass
class Game:
    game: str
    card: ScorecardIn
    turns: list[Turn]
    total: int


def throw(rng: random.Random, n: int) -> list[int]:
    return [rng.randint(1, 6) for _ in range(n)]


def play_turn(
    client: Client, game: str, card: ScorecardIn, rng: random.Random, extra_bonus: int = 0
) -> Turn:
    """One turn, coached by `/holds`; places the result on `card`.  `extra_bonus` is what
    a further five of a kind earns in this game (`five_of_a_kind.extra_bonus`, else 0)."""
    turn = Turn()
    dice = throw(rng, 5)
    throws_left = 2
    while True:
        turn.throws.append(dice)
        best = client.holds(game, dice, throws_left, scorecard=card).options[0]
        if isinstance(best, BoxOption):  # the coach says: stop and score
            break
        turn.kept.append(best.keep)  # keep these, throw the others
        dice = best.keep + throw(rng, 5 - len(best.keep))
        throws_left -= 1
    # /score lists every box these dice may fill from this throw: place them in the coach's.
    scored = client.score(game, dice, throw=3 - throws_left, scorecard=card)
    (option,) = [o for o in scored.options if o.box == best.box]
    card.filled[option.box] = option.points
    # `bonus` is what the placement earns in all: an upper bonus it secures and an extra
    # five-of-a-kind bonus.  The card keeps only the latter; the service adds the former.
    if extra_bonus and len(set(dice)) == 1 and option.bonus >= extra_bonus:
        card.extra_bonus += extra_bonus
    turn.box, turn.points, turn.bonus = option.box, option.points, option.bonus
    return turn


def play_game(client: Client, game: str = "yahtzee", seed: int = 1) -> Game:
    """A whole game, one player, every decision the coach's; the total is the one
    `/scorecards/check` gives the finished sheet (bonuses included)."""
    rng = random.Random(seed)
    card = ScorecardIn()
    rules = client.games_by_game(game)
    extra = rules.five_of_a_kind.extra_bonus if rules.five_of_a_kind else 0
    turns = [play_turn(client, game, card, rng, extra) for _ in rules.boxes or []]
    entries = [
        EntryIn(box=t.box, points=t.points, dice=t.throws[-1], throw=len(t.throws)) for t in turns
    ]
    sheet = SheetIn(player="you", entries=entries, extra_bonus=card.extra_bonus)
    (checked,) = client.scorecards_check(game, [sheet]).sheets
    assert checked.valid and checked.complete, checked.problems
    return Game(game, card, turns, checked.total)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play a game, coached by diceref.")
    parser.add_argument("--url", help="the API's base URL (default: $DICEREF_URL)")
    parser.add_argument("--game", default="yahtzee", help="a scorecard game (GET /games)")
    parser.add_argument("--seed", type=int, default=1, help="the dice's random seed")
    args = parser.parse_args(argv)
    with Client(args.url) as client:
        game = play_game(client, args.game, args.seed)
    for i, turn in enumerate(game.turns, 1):
        steps = [f"{dice} keep {kept}" for dice, kept in zip(turn.throws, turn.kept, strict=False)]
        steps.append(str(turn.throws[-1]))
        bonus = f" +{turn.bonus}" if turn.bonus else ""
        print(f"{i:2}. {' -> '.join(steps)}: {turn.box} {turn.points}{bonus}")
    print(f"{game.game}, seed {args.seed}: {game.total} points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
