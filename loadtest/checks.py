"""What the load test expects of each answer, from diceref's own rules (no locust import here,
so the test suite can check the checks).

Requests come from a pool of positions reached by playing random legal games; each answer is
compared with what the rules say locally.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass
from itertools import product
from typing import Any

from diceref.core.dice import canonical
from diceref.games.chicago.rules.ruleset import CHICAGO, Call, special
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.scorecard import (
    Scorecard,
    card_total,
    extra_bonus_for,
    is_complete,
    legal_options,
    validate_scorecard,
)
from diceref.games.yardkle.rules.scoring import DEFAULT_RULES as YARDKLE_RULES
from diceref.games.yardkle.rules.scoring import set_asides


def _games(variable: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """A comma list of games from the environment, `default` when it is unset."""
    raw = os.environ.get(variable, ",".join(default))
    return tuple(g.strip() for g in raw.split(",") if g.strip())


GAMES = _games("LOADTEST_GAMES", tuple(SCORECARD_GAMES))
MAX_SCORES = {"yahtzee": 1575, "yardzee": 1575, "dice-poker": 1835, "russian-poker": 510,
              "chute-5": 99}  # fmt: skip
ALL_GAME_IDS = [*SCORECARD_GAMES, "chicago", "yardkle"]


class WrongAnswer(Exception):
    """The service answered, but not what the rules say."""


@dataclass(frozen=True)
class Position:
    game: str
    card: Scorecard
    dice: tuple[int, ...]

    def card_json(self) -> dict[str, Any]:
        return {"filled": dict(self.card.boxes), "extra_bonus": self.card.extra_bonus}


def positions(seed: int, games: tuple[str, ...] = GAMES, per_game: int = 60) -> list[Position]:
    """Cards reached by playing random legal turns: valid by construction (and checked)."""
    rng = random.Random(seed)
    found = []
    for game in games:
        ruleset = SCORECARD_GAMES[game]
        for _ in range(per_game):
            card = Scorecard()
            for _ in range(rng.randrange(len(ruleset.boxes))):
                dice = tuple(rng.randint(1, 6) for _ in range(5))
                option = rng.choice(legal_options(ruleset, card, dice, 3))
                extra = extra_bonus_for(ruleset, card.boxes, dice)
                boxes = {**card.boxes, option.box: option.points}
                card = Scorecard(boxes, card.extra_bonus + extra)
            if is_complete(ruleset, card.boxes):
                continue
            validate_scorecard(ruleset, card)
            found.append(Position(game, card, tuple(rng.randint(1, 6) for _ in range(5))))
    return found


def _boxes(position: Position, throw: int) -> list[tuple[str, int, int]]:
    ruleset = SCORECARD_GAMES[position.game]
    return sorted(
        (o.box, o.points, o.bonus)
        for o in legal_options(ruleset, position.card, list(position.dice), throw)
    )


def _distinct_keeps(dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    counts = Counter(dice)
    faces = sorted(counts)
    return {
        tuple(f for f, n in zip(faces, taken, strict=True) for _ in range(n))
        for taken in product(*(range(counts[f] + 1) for f in faces))
    }


def check_score(position: Position, throw: int, body: dict[str, Any]) -> None:
    """Exactly the legal boxes, with the rules' points and bonuses, and the card's total."""
    ruleset = SCORECARD_GAMES[position.game]
    got = sorted((o["box"], o["points"], o["bonus"]) for o in body["options"])
    if got != _boxes(position, throw):
        raise WrongAnswer(f"/score boxes {got} differ from the rules")
    if body["total"] != card_total(ruleset, position.card) or body["game"] != position.game:
        raise WrongAnswer(f"/score total {body['total']} or game {body['game']} wrong")


def check_holds(position: Position, throws_left: int, body: dict[str, Any]) -> None:
    """Sorted best first; the legal boxes as /score gives them; every distinct keep once."""
    ruleset = SCORECARD_GAMES[position.game]
    options = body["options"]
    values = [o["expected_total"] for o in options]
    if values != sorted(values, reverse=True):
        raise WrongAnswer("/holds options are not sorted by expected_total")
    boxes = sorted((o["box"], o["points"], o["bonus"]) for o in options if o["kind"] == "box")
    if boxes != _boxes(position, 3 - throws_left):
        raise WrongAnswer(f"/holds boxes {boxes} differ from the rules")
    keeps = [tuple(o["keep"]) for o in options if o["kind"] == "keep"]
    expected_keeps = _distinct_keeps(canonical(position.dice)) if throws_left else set()
    if len(keeps) != len(set(keeps)) or set(keeps) != expected_keeps:
        raise WrongAnswer(f"/holds keeps {sorted(keeps)} are not every distinct keep once")
    if body["total"] != card_total(ruleset, position.card):
        raise WrongAnswer(f"/holds total {body['total']} wrong")


# The scorecard games whose play-to-win tables the server holds (`diceref precompute
# --target`): /distributions is asked of these only (default: the games above).
TARGET_GAMES = _games("LOADTEST_TARGET_GAMES", GAMES)
# Target play is followed turn by turn; a card with at most this many open boxes is near
# enough its end for every built-in game (earlier cards ask for expected-points play).
TARGET_PLAY_OPEN_BOXES = 2
QUANTILES = (1, 5, 25, 50, 75, 95, 99)


def distribution_request(
    rng: random.Random, positions: list[Position], games: tuple[str, ...] = TARGET_GAMES
) -> tuple[Position, dict[str, Any]]:
    """A /distributions request from a position of one of `games`, from the next
    turn's start or from its dice: target play with a target near the card's reach when the
    card is near its end, else expected-points play (with a target half the time, for the
    chance to reach it)."""
    position = rng.choice([p for p in positions if p.game in games])
    ruleset = SCORECARD_GAMES[position.game]
    payload: dict[str, Any] = {"game": position.game, "scorecard": position.card_json()}
    if rng.random() < 0.5:
        payload |= {"dice": list(position.dice), "throws_left": rng.randint(0, 2)}
    open_boxes = len(ruleset.boxes) - len(position.card.boxes)
    near_end = open_boxes <= TARGET_PLAY_OPEN_BOXES
    if near_end or rng.random() < 0.5:
        payload["target"] = card_total(ruleset, position.card) + rng.randint(0, 40)
    payload["play"] = "target" if near_end else "expected_points"
    return position, payload


def check_distribution(position: Position, payload: dict[str, Any], body: dict[str, Any]) -> None:
    """A distribution of totals from the card's own total up: probabilities adding up to 1,
    the extremes, mean and percentiles consistent with them, and with a target under target
    play, its chance the distribution's mass at or above it."""
    total = card_total(SCORECARD_GAMES[position.game], position.card)
    chances = [(t["total"], t["probability"]) for t in body["distribution"]]
    totals = [t for t, _ in chances]
    if body["total"] != total or totals != sorted(set(totals)) or totals[0] < total:
        raise WrongAnswer(f"/distributions totals {totals[:5]}... from card total {total}")
    if abs(sum(p for _, p in chances) - 1) > 1e-6 or min(p for _, p in chances) <= 0:
        raise WrongAnswer("/distributions probabilities do not add up to 1")
    if (body["min"], body["max"]) != (totals[0], totals[-1]):
        raise WrongAnswer(f"/distributions min/max {body['min']}/{body['max']} wrong")
    mean = sum(t * p for t, p in chances)
    if body["play"] != payload["play"] or abs(body["mean"] - mean) > 1e-3:
        raise WrongAnswer(f"/distributions mean {body['mean']} differs from {mean}")
    percentiles = [body[f"p{q}"] for q in QUANTILES]
    if percentiles != sorted(percentiles) or not set(percentiles) <= set(totals):
        raise WrongAnswer(f"/distributions percentiles {percentiles} wrong")
    if "target" in payload:
        chance = body["win_probability"]
        reached = sum(p for t, p in chances if t >= payload["target"])
        if not 0 <= chance <= 1 or (payload["play"] == "target" and abs(chance - reached) > 1e-6):
            raise WrongAnswer(f"/distributions win_probability {chance} (reached {reached})")
    elif "win_probability" in body:
        raise WrongAnswer("/distributions win_probability without a target")


def check_chicago_throw(dice: list[int], body: dict[str, Any]) -> None:
    want = {c.value: CHICAGO.value(canonical(dice), c) for c in Call}
    if body["scores"] != want or body["dice"] != sorted(dice):
        raise WrongAnswer(f"/chicago/throws scores {body['scores']} != {want}")


def check_chicago_holds(body: dict[str, Any]) -> None:
    """The starter (no call) gets a ranking per call: high most expected first, low least."""
    if [r["call"] for r in body["rankings"]] != ["high", "low"]:
        raise WrongAnswer("/chicago/holds: the starter gets one ranking per call")
    for ranking in body["rankings"]:
        values = [o["expected_points"] for o in ranking["options"]]
        if not values or values != sorted(values, reverse=ranking["call"] == "high"):
            raise WrongAnswer("/chicago/holds options not ranked by expectation")


def check_yardkle_throw(dice: list[int], body: dict[str, Any]) -> None:
    expected = [list(s.dice) for s in set_asides(dice)]
    got = [s["dice"] for s in body["set_asides"]]
    if got != expected or body["yardkle"] != (not expected):
        raise WrongAnswer(f"/yardkle/throws set-asides {got} != {expected}")


def check_yardkle_holds(dice: list[int], body: dict[str, Any]) -> None:
    expected = sorted(list(s.dice) for s in set_asides(dice))
    options = body["options"]
    if sorted(o["set_aside"] for o in options) != expected:
        raise WrongAnswer("/yardkle/holds set-asides differ from the rules")
    values = [o["expected_points"] for o in options]
    if values != sorted(values, reverse=True):
        raise WrongAnswer("/yardkle/holds options not ranked")
    if options and (body["best_option"]["expected_points"] != values[0] or not options[0]["best"]):
        raise WrongAnswer("/yardkle/holds best is not the first option")


def check_games(body: list[dict[str, Any]]) -> None:
    if [g["id"] for g in body] != ALL_GAME_IDS:
        raise WrongAnswer("/games does not list every game in order")


def check_game(game: str, body: dict[str, Any]) -> None:
    if body["id"] != game:
        raise WrongAnswer(f"/games/{game} describes {body['id']}")
    if body.get("tables") == "loading":  # answered at once, before the tables are loaded
        if body["max_score"] is not None:
            raise WrongAnswer(f"/games/{game} gives max_score while its tables load")
    elif game in MAX_SCORES and body["max_score"] != MAX_SCORES[game]:
        raise WrongAnswer(f"/games/{game} max_score {body['max_score']}")


# --- score sheets, Chicago rounds and games, Yardkle turns and games ----------------------------


def competition_ranks(scores: list[int]) -> list[int]:
    """Ranks for scores listed best first: equal scores share a rank, the next skips."""
    return [1 + sum(1 for other in scores if other > s) for s in scores]


def sheets_request(
    rng: random.Random, pool: list[Position]
) -> tuple[dict[str, Any], list[tuple[Position, bool]]]:
    """A scorekeeper's table: 2 to 4 sheets of one game, as filled in play, each with a
    claimed total that is right, or (one time in four) one point off."""
    game = rng.choice(sorted({p.game for p in pool}))
    mine = [p for p in pool if p.game == game]
    chosen = [rng.choice(mine) for _ in range(rng.randint(2, 4))]
    sheets, expected = [], []
    for i, position in enumerate(chosen):
        total = card_total(SCORECARD_GAMES[game], position.card)
        right = rng.random() < 0.75
        entries = [{"box": b, "points": p} for b, p in position.card.boxes.items()]
        sheets.append({"player": f"P{i}", "entries": entries,
                       "extra_bonus": position.card.extra_bonus,
                       "claimed_total": total if right else total + 1})  # fmt: skip
        expected.append((position, right))
    return {"game": game, "sheets": sheets}, expected


def check_sheets(expected: list[tuple[Position, bool]], body: dict[str, Any]) -> None:
    """Each sheet's total from the rules, valid exactly when its claim is right, a problem
    naming the wrong claim otherwise; standings by total with competition ranks."""
    totals = []
    for i, ((position, right), sheet) in enumerate(zip(expected, body["sheets"], strict=True)):
        total = card_total(SCORECARD_GAMES[position.game], position.card)
        totals.append(total)
        if sheet["total"] != total or sheet["player"] != f"P{i}":
            raise WrongAnswer(f"/scorecards/check sheet {i}: total {sheet['total']} != {total}")
        if sheet["valid"] is not right or bool(sheet["problems"]) is right:
            raise WrongAnswer(f"/scorecards/check sheet {i}: valid {sheet['valid']}, claim {right}")
        if not right and not any(p["field"].endswith("claimed_total") for p in sheet["problems"]):
            raise WrongAnswer(f"/scorecards/check sheet {i}: the wrong claim is not named")
    standings = body["standings"]
    ordered = sorted(totals, reverse=True)
    if [s["total"] for s in standings] != ordered:
        raise WrongAnswer("/scorecards/check standings not ordered by total")
    if [s["rank"] for s in standings] != competition_ranks(ordered):
        raise WrongAnswer("/scorecards/check ranks are not competition ranks")


def chicago_dice(rng: random.Random) -> list[int]:
    """Three dice of an ordinary throw: no special combination and at most one 6 (so no
    conversion is due and no victim has to be named)."""
    while True:
        dice = [rng.randint(1, 6) for _ in range(3)]
        if dice.count(6) < 2 and special(canonical(dice)) is None:
            return dice


def chicago_turns(rng: random.Random, players: list[str]) -> tuple[list[dict[str, Any]], str]:
    """One round where every player throws once, the starter calling high or low."""
    call = rng.choice(["high", "low"])
    turns = [{"player": p, "throws": [{"dice": chicago_dice(rng)}]} for p in players]
    turns[0]["throws"][0]["call"] = call
    return turns, call


def chicago_round_request(
    rng: random.Random, players: list[str], turns: list[dict[str, Any]]
) -> tuple[dict[str, Any], dict[str, int]]:
    """A round later in a game: some players may be out already, each still in has one
    life or more of those the table started with."""
    at_start = min(CHICAGO.max_players, len(players) + rng.randint(0, 2))
    lives = {p: rng.randint(1, CHICAGO.lives_for(at_start)) for p in players}
    body = {
        "turns": [dict(t, lives=lives[t["player"]]) for t in turns],
        "players_at_start": at_start,
    }
    return body, lives


def check_chicago_round(
    turns: list[dict[str, Any]], call: str, lives: dict[str, int], body: dict[str, Any]
) -> None:
    """Each turn's score is the rules' value under the call; the losers have the worst
    score (the lowest under high, the highest under low) and lose one life each."""
    if body["call"] != call:
        raise WrongAnswer(f"/chicago/rounds call {body['call']} != {call}")
    scores = {}
    for turn, out in zip(turns, body["turns"], strict=True):
        dice = turn["throws"][0]["dice"]
        scores[out["player"]] = want = CHICAGO.value(canonical(dice), Call(call))
        if out["player"] != turn["player"] or out["score"] != want or out["dice"] != sorted(dice):
            raise WrongAnswer(f"/chicago/rounds {out['player']} scored {out['score']} != {want}")
        if out["lives_after"] != lives[out["player"]] - out["lives_lost"]:
            raise WrongAnswer(f"/chicago/rounds {out['player']}: lives do not add up")
    worst = (min if call == "high" else max)(scores.values())
    losers = {o["player"] for o in body["turns"] if o["lives_lost"]}
    if not losers or any(scores[p] != worst for p in losers):
        raise WrongAnswer(f"/chicago/rounds losers {sorted(losers)} lack the worst score {worst}")


def check_chicago_game(
    turns: list[dict[str, Any]], call: str, players: list[str], body: dict[str, Any]
) -> None:
    """The one round as /chicago/rounds rules it, standings by lives left."""
    start = dict.fromkeys(players, body["starting_lives"])
    (ruling,) = body["rounds"]
    check_chicago_round(turns, call, start, ruling)
    after = {t["player"]: t["lives_after"] for t in ruling["turns"]}
    standings = body["standings"]
    lives = [s["lives"] for s in standings]
    if lives != sorted(after.values(), reverse=True) or any(
        after[s["player"]] != s["lives"] for s in standings
    ):
        raise WrongAnswer("/chicago/games standings differ from the round's lives")
    if [s["rank"] for s in standings] != competition_ranks(lives) or body["game_over"]:
        raise WrongAnswer("/chicago/games ranks or game_over wrong")


def yardkle_turn(rng: random.Random, banked_total: int) -> tuple[dict[str, Any], int]:
    """A turn as a player plays it: random legal set-asides (hot dice thrown again), banking
    after one to four throws once the entry minimum allows it, or a Yardkle.  Returns the
    turn and the points it banks by the rules."""
    throws: list[dict[str, Any]] = []
    dice_left, points = 6, 0
    while True:
        dice = [rng.randint(1, 6) for _ in range(dice_left)]
        options = set_asides(dice)
        if not options:
            throws.append({"dice": dice})
            return {"throws": throws, "end": "yardkle", "banked_total": banked_total}, 0
        chosen = rng.choice(options)
        throws.append({"dice": dice, "set_aside": list(chosen.dice)})
        points += chosen.points
        dice_left = dice_left - len(chosen.dice) or 6
        on_pad = banked_total > 0 or points >= YARDKLE_RULES.entry_minimum
        if on_pad and (len(throws) >= 4 or rng.random() < 0.4):
            return {"throws": throws, "end": "bank", "banked_total": banked_total}, points


def check_yardkle_turn(turn: dict[str, Any], points: int, body: dict[str, Any]) -> None:
    if body["end"] != turn["end"] or body["points"] != points:
        raise WrongAnswer(f"/yardkle/turns points {body['points']} != {points}")
    if body["new_total"] != turn["banked_total"] + points:
        raise WrongAnswer("/yardkle/turns new_total does not add up")
    running = 0
    for sent, out in zip(turn["throws"], body["throws"], strict=True):
        aside = sent.get("set_aside")
        if aside is not None:
            running += next(s.points for s in set_asides(sent["dice"]) if list(s.dice) == aside)
        if out["dice"] != sorted(sent["dice"]) or (
            aside is not None and out["running_total"] != running
        ):
            raise WrongAnswer("/yardkle/turns throws differ from the rules")


def yardkle_game(rng: random.Random) -> tuple[dict[str, Any], dict[str, int]]:
    """Two or three players taking 2 to 8 turns in order, far from the target."""
    players = [f"P{i}" for i in range(rng.randint(2, 3))]
    totals = dict.fromkeys(players, 0)
    turns = []
    for i in range(rng.randint(2, 8)):
        player = players[i % len(players)]
        turn, points = yardkle_turn(rng, totals[player])
        totals[player] += points
        turns.append({"player": player, "throws": turn["throws"], "end": turn["end"]})
    return {"players": players, "turns": turns}, totals


def check_yardkle_game(totals: dict[str, int], body: dict[str, Any]) -> None:
    standings = body["standings"]
    ordered = sorted(totals.values(), reverse=True)
    if [s["total"] for s in standings] != ordered or any(
        totals[s["player"]] != s["total"] for s in standings
    ):
        raise WrongAnswer(f"/yardkle/games standings differ from the turns' points {totals}")
    if [s["rank"] for s in standings] != competition_ranks(ordered) or body["finished"]:
        raise WrongAnswer("/yardkle/games ranks or finished wrong")


def check_ruleset(game: str, body: dict[str, Any], known: dict[str, str]) -> None:
    """A game's built-in rules as a ruleset: described, ready (the server holds its
    tables), the known maximum score, and one `ruleset_id` per game, call after call."""
    if body["game"] != game or body["ruleset"]["id"] != game or body["status"] != "ready":
        raise WrongAnswer(f"/rulesets {game}: {body['game']}, status {body['status']}")
    if game in MAX_SCORES and body["max_score"] != MAX_SCORES[game]:
        raise WrongAnswer(f"/rulesets {game} max_score {body['max_score']}")
    if known.setdefault(game, body["ruleset_id"]) != body["ruleset_id"]:
        raise WrongAnswer(f"/rulesets {game}: ruleset_id changed to {body['ruleset_id']}")


# --- game reviews -------------------------------------------------------------------------------

LOSS_TOLERANCE = 1e-9


@dataclass(frozen=True)
class PlayedTurn:
    """What the rules say of a generated scorecard turn: its throws (in canonical order),
    its keeps, the box filled, what the turn added and the card's total after it."""

    throws: tuple[tuple[int, ...], ...]
    keeps: tuple[tuple[int, ...], ...]
    box: str
    points: int
    total: int


def scorecard_game(
    rng: random.Random, game: str, turn_count: int | None = None
) -> tuple[dict[str, Any], list[PlayedTurn], bool]:
    """A game as a player plays it, from the empty card: `turn_count` turns (default 1 to a
    full card, at random), each of 1 to
    the game's throws a turn, keeping a random part (never all five) of each throw but the
    last, then filling a random legal box for the last throw.  Returns the /reviews
    request, each turn as the rules score it, and whether the card is full."""
    ruleset = SCORECARD_GAMES[game]
    card = Scorecard()
    turns, played = [], []
    for _ in range(turn_count or rng.randint(1, len(ruleset.boxes))):
        dice = [rng.randint(1, 6) for _ in range(5)]
        throws, keeps = [dice], []
        for _ in range(rng.randint(1, ruleset.throws_per_turn) - 1):
            keep = rng.sample(dice, rng.randint(0, 4))
            dice = keep + [rng.randint(1, 6) for _ in range(5 - len(keep))]
            keeps.append(keep)
            throws.append(dice)
        option = rng.choice(legal_options(ruleset, card, dice, len(throws)))
        card = Scorecard(
            {**card.boxes, option.box: option.points}, card.extra_bonus + option.extra_bonus
        )
        turns.append({"throws": throws, "keeps": keeps, "box": option.box})
        played.append(
            PlayedTurn(
                tuple(canonical(t) for t in throws),
                tuple(canonical(k) for k in keeps),
                option.box,
                option.points + option.bonus,
                card_total(ruleset, card),
            )
        )
    return {"game": game, "turns": turns}, played, is_complete(ruleset, card.boxes)


def _check_losses(
    where: str, decisions: list[dict[str, Any]], loss: float, turn_index: int
) -> None:
    """Decisions in order, none negative, summing to the turn's loss."""
    if [(d["turn_index"], d["decision_index"], d["throw"]) for d in decisions] != [
        (turn_index, j, j + 1) for j in range(len(decisions))
    ]:
        raise WrongAnswer(f"{where} turn {turn_index}: decisions out of order")
    if any(d["loss"] < 0 for d in decisions) or loss < 0:
        raise WrongAnswer(f"{where} turn {turn_index}: a negative loss")
    if abs(sum(d["loss"] for d in decisions) - loss) > LOSS_TOLERANCE:
        raise WrongAnswer(f"{where} turn {turn_index}: loss {loss} is not its decisions' sum")


def _check_sums(where: str, turns: list[dict[str, Any]], body: dict[str, Any]) -> None:
    """The game's decision count, expected and mean loss from its turns."""
    count = sum(len(t["decisions"]) for t in turns)
    if body["decision_count"] != count:
        raise WrongAnswer(f"{where} decision_count {body['decision_count']} != {count}")
    loss = sum(t["loss"] for t in turns)
    if abs(body["expected_loss"] - loss) > LOSS_TOLERANCE:
        raise WrongAnswer(f"{where} expected_loss {body['expected_loss']} != the turns' {loss}")
    if count and abs(body["mean_loss"] - body["expected_loss"] / count) > LOSS_TOLERANCE:
        raise WrongAnswer(f"{where} mean_loss {body['mean_loss']} is not per decision")


def check_review(game: str, played: list[PlayedTurn], complete: bool, body: dict[str, Any]) -> None:
    """The turns sent, scored by the rules; one decision per throw (the keeps, then the box,
    as chosen); no negative loss, the losses summing to each turn's and the game's; the
    final total, completeness and luck (exactly the gap it closes on a full card)."""
    if body["game"] != game or len(body["turns"]) != len(played):
        raise WrongAnswer(f"/reviews game {body['game']} or turn count differs from the game")
    for i, (turn, out) in enumerate(zip(played, body["turns"], strict=True)):
        if (out["turn_index"], out["box"], out["points"], out["total"]) != (
            i, turn.box, turn.points, turn.total
        ):  # fmt: skip
            raise WrongAnswer(f"/reviews turn {i}: {out['box']} {out['points']} != {turn}")
        decisions = out["decisions"]
        if [tuple(d["dice"]) for d in decisions] != list(turn.throws):
            raise WrongAnswer(f"/reviews turn {i}: decisions' dice differ from the throws")
        chosen = [tuple(d["chosen"].get("keep", ())) for d in decisions[:-1]]
        if chosen != list(turn.keeps) or decisions[-1]["chosen"].get("box") != turn.box:
            raise WrongAnswer(f"/reviews turn {i}: chosen options differ from the play")
        _check_losses("/reviews", decisions, out["loss"], i)
    _check_sums("/reviews", body["turns"], body)
    if body["final_total"] != (played[-1].total if played else 0):
        raise WrongAnswer(f"/reviews final_total {body['final_total']} wrong")
    if body["complete"] is not complete or (body["luck"] is None) is complete:
        raise WrongAnswer(f"/reviews complete {body['complete']} or luck {body['luck']} wrong")
    if complete:
        gap = body["optimal_expected_score"] - body["expected_loss"] + body["luck"]
        if abs(gap - body["final_total"]) > 1e-6:
            raise WrongAnswer("/reviews luck does not close final_total = optimal - loss + luck")


def yardkle_review_request(rng: random.Random) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One to five turns as `yardkle_turn` plays them, each from its own banked total.
    Returns the request and, per turn, its end, points and number of scoring throws."""
    turns, expected = [], []
    for _ in range(rng.randint(1, 5)):
        turn, points = yardkle_turn(rng, rng.choice([0, 0, 1500, 6050]))
        turns.append(turn)
        scoring = sum(1 for t in turn["throws"] if "set_aside" in t)
        expected.append({"end": turn["end"], "points": points, "decisions": scoring})
    return {"turns": turns}, expected


def check_yardkle_review(expected: list[dict[str, Any]], body: dict[str, Any]) -> None:
    """Each turn's end and points by the rules, one decision per throw that scored, no
    negative loss, the losses and points summing to the turns' and the review's."""
    if len(body["turns"]) != len(expected):
        raise WrongAnswer("/yardkle/reviews turn count differs from the turns sent")
    for i, (want, out) in enumerate(zip(expected, body["turns"], strict=True)):
        got = {"end": out["end"], "points": out["points"], "decisions": len(out["decisions"])}
        if out["turn_index"] != i or got != want:
            raise WrongAnswer(f"/yardkle/reviews turn {i}: {got} != {want}")
        _check_losses("/yardkle/reviews", out["decisions"], out["loss"], i)
    _check_sums("/yardkle/reviews", body["turns"], body)
    if body["points"] != sum(t["points"] for t in expected):
        raise WrongAnswer(f"/yardkle/reviews points {body['points']} != the turns' total")
