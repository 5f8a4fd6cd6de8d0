"""A game played badly on purpose, then reviewed: where did the points go?

The weak policy is a common beginner's: keep the dice of the face seen most often (the
higher face on a tie), throw the others, and after the last throw fill the open box that
scores the most now (the first listed on a tie), never thinking ahead.  `/score` says
which boxes the dice may fill; `/reviews` then values every decision against optimal play
and the script prints the costliest ones and the luck/skill split.

    uv run python examples/review_game.py --url http://127.0.0.1:8000 --game yahtzee

Needs a server whose table for the game is loaded (the client retries while it loads).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from diceref_client import Client, ReviewTurnIn, ScorecardIn
from diceref_client.models import BoxOption, KeepOption, ReviewResponse


def most_common_face(dice: list[int]) -> list[int]:
    counts = Counter(dice)
    face = max(counts, key=lambda f: (counts[f], f))
    return [face] * counts[face]


def play_weakly(client: Client, game: str, seed: int) -> list[ReviewTurnIn]:
    """One whole game by the weak policy, recorded as `/reviews` takes it."""
    rng = random.Random(seed)
    boxes = client.games_by_game(game).boxes or []
    card = ScorecardIn()
    turns: list[ReviewTurnIn] = []
    for _ in boxes:
        dice = sorted(rng.randint(1, 6) for _ in range(5))
        throws, keeps = [dice], []
        for _ in range(2):  # two more throws, keeping the most common face each time
            keep = most_common_face(dice)
            if len(keep) == 5:
                break
            keeps.append(keep)
            dice = sorted(keep + [rng.randint(1, 6) for _ in range(5 - len(keep))])
            throws.append(dice)
        scored = client.score(game, dice, throw=len(throws), scorecard=card)
        option = max(scored.options, key=lambda o: o.points + o.bonus)
        card.filled[option.box] = option.points
        card.extra_bonus += option.extra_bonus
        turns.append(ReviewTurnIn(throws=throws, keeps=keeps, box=option.box))
    return turns


def name(option: KeepOption | BoxOption) -> str:
    return (
        f"{option.box} ({option.points})"
        if isinstance(option, BoxOption)
        else (f"keep {option.keep}")
    )


def report(review: ReviewResponse) -> str:
    lines = [
        f"{review.game}: {review.final_total} points; optimal play expects "
        f"{review.optimal_expected_score:.1f}",
        f"lost to decisions (skill): {review.expected_loss:.1f} points in expectation, "
        f"{review.mean_loss:.2f} per decision over {review.decision_count}",
    ]
    if review.luck is not None:
        lines.append(f"luck of the dice: {review.luck:+.1f}")
    lines.append("where the points went:")
    for d in review.costliest:
        best = d.best_options[0]
        lines.append(
            f"  turn {d.turn_index + 1}, throw {d.throw} ({d.dice}): {name(d.chosen)} instead "
            f"of {name(best)}, -{d.loss:.1f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play a game weakly, then review it.")
    parser.add_argument("--url", help="the API's base URL (default: $DICEREF_URL)")
    parser.add_argument("--game", default="yahtzee", help="a scorecard game (GET /games)")
    parser.add_argument("--seed", type=int, default=1, help="the dice's random seed")
    args = parser.parse_args(argv)
    with Client(args.url) as client:
        turns = play_weakly(client, args.game, args.seed)
        review = client.reviews(args.game, turns)
    print(report(review))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
