"""The win and distribution tables against an exhaustive recursion (`brute_play_to_win`).

Cards with two to four open boxes on every built-in game, each Joker reading, scratched and
top-valued five-of-a-kind boxes, undecided upper bonuses, russian-poker's doubled first
throw, one, two and four throws a turn, forced order, changed upper bonuses and lower boxes
doubled on the first throw.  The tables the service solves (the kernel's) and target.py's
numpy solves agree with it to 1e-9: the win table at every need, the keeps' win chances,
the final total's distribution under expected-points play from the turn's start and with
dice showing; the distribution sums to 1 and its mean is the value table's.  Target play,
simulated with the tables, reaches the target as often as the win table says.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache, cached_property

import numpy as np
import pytest
from brute_play_to_win import BruteForce, Dice, Placement, State

from diceref.core.arrays import FloatArray
from diceref.core.dice import KEEP_INDEX, sub_multisets
from diceref.games.scorecard.rules.games import variant
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import Scorecard, card_total, validate_scorecard
from diceref.games.scorecard.rules.turn import card_state
from diceref.games.scorecard.solver.advice import advise, expected_final_score
from diceref.games.scorecard.solver.bands import Bands, BandTable
from diceref.games.scorecard.solver.dist_kernel import solve_distribution_fast
from diceref.games.scorecard.solver.packed import PackedBands, pack, unpack
from diceref.games.scorecard.solver.request_turn import RequestTurn
from diceref.games.scorecard.solver.statespace import state_space
from diceref.games.scorecard.solver.target import (
    FinalDistribution,
    _five_rows,
    candidates,
    final_distribution,
    solve_distribution,
    solve_win,
    stand_win,
    win_turn,
)
from diceref.games.scorecard.solver.win_solve import solve_win_fast

YAHTZEE_CARD = {
    "ones": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "sixes": 18,
    "three_of_a_kind": 24,
    "four_of_a_kind": 22,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 40,
    "yahtzee": 50,
    "chance": 22,
}
DICE_POKER_CARD = {
    **{b: v for b, v in YAHTZEE_CARD.items() if b != "yahtzee"},
    "pair": 10,
    "two_pairs": 18,
    "poker": 50,
}
RUSSIAN_CARD = {
    "ones": 0,
    "twos": 2,
    "threes": -3,
    "fours": 4,
    "fives": 0,
    "sixes": 6,
    "pair": 10,
    "two_pairs": 14,
    "three_of_a_kind": 12,
    "small_straight": 15,
    "large_straight": 20,
    "full_house": 18,
    "four_of_a_kind": 16,
    "poker": 70,
    "chance": 21,
}
CHUTE_CARD = {
    "aces": 2,
    "twos": 3,
    "threes": 4,
    "fours": 5,  # 14: fives and sixes decide the bonus (21)
    "fives": 5,
    "sixes": 7,
    "three_of_a_kind": 4,
    "four_of_a_kind": 8,
    "full_house": 6,
    "small_straight": 7,
    "break": 8,
    "large_straight": 9,
    "chute_5": 20,
}
YATZY_CARD = {
    "ones": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "sixes": 18,
    "one_pair": 10,
    "two_pairs": 14,
    "three_of_a_kind": 12,
    "four_of_a_kind": 16,
    "small_straight": 15,
    "large_straight": 20,
    "full_house": 18,
    "chance": 22,
    "yatzy": 50,
}


@dataclass(frozen=True)
class Case:
    name: str
    game: str
    rules: dict[str, object]
    card: dict[str, int]  # every box's value; the open ones are left out of the card
    open_boxes: tuple[str, ...]
    extra_bonus: int = 0
    changed: dict[str, int] = field(default_factory=dict)
    doubled: tuple[str, ...] = ()  # lower boxes whose first throw scores double

    @property
    def ruleset(self) -> Ruleset:
        return ruleset_of(self.game, tuple(sorted(self.rules.items())), self.doubled)

    @property
    def scorecard(self) -> Scorecard:
        card = {**self.card, **self.changed}
        return Scorecard(
            {b: v for b, v in card.items() if b not in self.open_boxes}, self.extra_bonus
        )


@cache
def ruleset_of(
    game: str, rules: tuple[tuple[str, object], ...], doubled: tuple[str, ...]
) -> Ruleset:
    built = variant(game, **dict(rules))
    boxes = [replace(b, first_throw_multiplier=2) if b.id in doubled else b for b in built.boxes]
    return replace(built, boxes=tuple(boxes))


VERHOEFF = {"joker": "free_choice", "matching_upper_forced": False}
CASES = [
    # forced Joker: to the matching upper box while it is open, else a lower box; extra bonus
    Case("yahtzee-joker-matching", "yahtzee", {}, YAHTZEE_CARD, ("ones", "four_of_a_kind"), 100),
    Case(
        "yahtzee-joker-lower",
        "yahtzee",
        {},
        YAHTZEE_CARD,
        ("full_house", "large_straight", "chance"),
        100,
    ),
    Case(
        "yahtzee-scratched",
        "yahtzee",
        {},
        YAHTZEE_CARD,
        ("full_house", "small_straight", "chance"),
        changed={"yahtzee": 0},
    ),
    Case(
        "yahtzee-five-open", "yahtzee", {}, YAHTZEE_CARD, ("three_of_a_kind", "yahtzee", "chance")
    ),
    # a Joker may go to an upper box at 0, keeping chance open
    Case("yardzee-free-choice", "yardzee", {}, YAHTZEE_CARD, ("ones", "chance"), 200),
    Case("verhoeff", "yahtzee", VERHOEFF, YAHTZEE_CARD, ("ones", "four_of_a_kind"), 100),
    Case(
        "joker-none",
        "yahtzee",
        {"joker": "none"},
        YAHTZEE_CARD,
        ("full_house", "small_straight", "chance"),
        100,
    ),
    Case(
        "scratched-no-joker",
        "yahtzee",
        {"joker_when_scratched": False},
        YAHTZEE_CARD,
        ("full_house", "small_straight", "chance"),
        changed={"yahtzee": 0},
    ),
    # the bonus needs more than 63: 12 fours give exactly 63
    Case("dice-poker", "dice-poker", {}, DICE_POKER_CARD, ("fours", "two_pairs")),
    Case(
        "dice-poker-five-open", "dice-poker", {}, DICE_POKER_CARD, ("two_pairs", "poker", "chance")
    ),
    Case(
        "dice-poker-extra",
        "dice-poker",
        {},
        DICE_POKER_CARD,
        ("full_house", "chance"),
        100,
        {"sixes": 24},
    ),
    Case(
        "dice-poker-scratched",
        "dice-poker",
        {},
        DICE_POKER_CARD,
        ("pair", "full_house", "chance"),
        changed={"poker": 0},
    ),
    Case("russian-poker", "russian-poker", {}, RUSSIAN_CARD, ("pair", "poker", "chance")),
    Case(
        "russian-poker-straights",
        "russian-poker",
        {},
        RUSSIAN_CARD,
        ("small_straight", "large_straight", "four_of_a_kind"),
    ),
    Case(
        "russian-poker-1-throw",
        "russian-poker",
        {"throws_per_turn": 1},
        RUSSIAN_CARD,
        ("pair", "full_house", "poker"),
    ),
    Case(
        "russian-poker-2-throws",
        "russian-poker",
        {"throws_per_turn": 2},
        RUSSIAN_CARD,
        ("three_of_a_kind", "chance"),
    ),
    Case(
        "russian-poker-forced",
        "russian-poker",
        {"order": "forced"},
        RUSSIAN_CARD,
        ("four_of_a_kind", "poker", "chance"),
    ),
    Case("chute-5", "chute-5", {}, CHUTE_CARD, ("fives", "sixes", "break", "chute_5")),
    Case(
        "chute-5-1-throw",
        "chute-5",
        {"throws_per_turn": 1},
        CHUTE_CARD,
        ("fives", "sixes", "chute_5"),
    ),
    Case(
        "chute-5-2-throws",
        "chute-5",
        {"throws_per_turn": 2},
        CHUTE_CARD,
        ("sixes", "full_house", "chute_5"),
    ),
    Case(
        "chute-5-4-throws",
        "chute-5",
        {"throws_per_turn": 4},
        CHUTE_CARD,
        ("fives", "small_straight", "chute_5"),
    ),
    Case(
        "chute-5-bonus",
        "chute-5",
        {"upper_bonus_threshold": 18, "upper_bonus_points": 15},
        CHUTE_CARD,
        ("fives", "sixes", "large_straight"),
    ),
    Case("yatzy", "yatzy", {}, YATZY_CARD, ("one_pair", "two_pairs", "yatzy")),
    Case("yatzy-bonus-open", "yatzy", {}, YATZY_CARD, ("sixes", "full_house")),
    Case(
        "yatzy-forced", "yatzy", {"order": "forced"}, YATZY_CARD, ("full_house", "chance", "yatzy")
    ),
    Case(
        "yahtzee-bonus",
        "yahtzee",
        {
            "upper_bonus_threshold": 60,
            "upper_bonus_points": 50,
            "upper_bonus_strictly_greater": True,
        },
        YAHTZEE_CARD,
        ("ones", "chance"),
        changed={"yahtzee": 0},
    ),
    # a Joker thrown first, at natural value while its upper box is open: chance scores double
    Case(
        "doubled-chance",
        "yahtzee",
        VERHOEFF,
        YAHTZEE_CARD,
        ("ones", "chance"),
        100,
        doubled=("chance",),
    ),
]
# a five of a kind thrown first scores 100 in its doubled box, not the top score (50): no
# extra bonus follows, in the value table as in the rules
CASES.append(
    Case(
        "doubled-five-box",
        "yahtzee",
        {},
        YAHTZEE_CARD,
        ("full_house", "yahtzee"),
        doubled=("yahtzee",),
    )
)
# target.py's numpy win solve, held to the recursion on a cheap case of each reading (the
# kernel solve, which the service's tables come from, on every case)
NUMPY_CASES = {
    "yahtzee-joker-matching",
    "yahtzee-scratched",
    "verhoeff",
    "joker-none",
    "dice-poker-extra",
    "russian-poker",
    "russian-poker-1-throw",
    "russian-poker-2-throws",
    "chute-5-1-throw",
    "chute-5-4-throws",
    "chute-5-bonus",
    "yatzy-forced",
    "doubled-five-box",
}
DICE: tuple[tuple[Dice, int], ...] = (
    ((2, 3, 4, 5, 5), 2),
    ((4, 4, 4, 4, 4), 2),
    ((4, 4, 4, 4, 4), 0),
    ((6, 6, 6, 6, 6), 1),
    ((1, 2, 3, 4, 6), 0),
    ((3, 3, 5, 5, 6), 1),
)


@dataclass
class SubGame:
    """A case's card with its tables solved for the states it can reach."""

    case: Case
    ruleset: Ruleset
    card: Scorecard
    mask: int
    sub: int
    flag: int
    index: int
    total: int
    values: FloatArray
    dist: BandTable  # target.py's numpy solve
    win_fast: BandTable  # the kernel solve the service's tables come from
    dist_fast: BandTable
    brute: BruteForce
    state: State

    @cached_property
    def win(self) -> BandTable:
        """target.py's numpy solve of the win table (the kernel's reference)."""
        return solve_win(self.ruleset, within=self.mask)

    @cached_property
    def dist_stored(self) -> PackedBands:
        """The kernel's distribution table as the service stores and reads it."""
        return unpack(pack(self.dist_fast))

    def final(
        self,
        dice: Dice | None = None,
        throws_left: int = 0,
        fast: bool = False,
        stored: bool = False,
    ) -> FinalDistribution:
        table: Bands = self.dist_stored if stored else self.dist_fast if fast else self.dist
        return final_distribution(
            self.ruleset,
            self.values,
            table,
            self.mask,
            self.sub,
            self.flag,
            self.total,
            dice,
            throws_left,
        )


@pytest.fixture(scope="session")
def sub_game(solved_ruleset: Callable[[Ruleset], FloatArray]) -> Callable[[Case], SubGame]:
    games: dict[str, SubGame] = {}

    def get(case: Case) -> SubGame:
        if case.name not in games:
            ruleset, card = case.ruleset, case.scorecard
            validate_scorecard(ruleset, card)
            values = solved_ruleset(ruleset)
            mask, sub, flag = card_state(ruleset, card.boxes)
            brute = BruteForce(ruleset)
            state = brute.state_of(card.boxes)
            assert state == State(mask, sub, flag)
            games[case.name] = SubGame(
                case, ruleset, card, mask, sub, flag,
                state_space(ruleset).index_one(mask, sub, flag),
                card_total(ruleset, card), values,
                solve_distribution(ruleset, values, within=mask),
                solve_win_fast(ruleset, within=mask),
                solve_distribution_fast(ruleset, values, within=mask),
                brute, state,
            )  # fmt: skip
        return games[case.name]

    return get


def dice_for(ruleset: Ruleset) -> list[tuple[Dice, int]]:
    last = ruleset.throws_per_turn - 1
    return sorted({(d, min(left, last)) for d, left in DICE})


def as_dict(dist: FinalDistribution) -> dict[int, float]:
    return {int(t): float(p) for t, p in zip(dist.totals, dist.probabilities, strict=True)}


def assert_same_distribution(got: dict[int, float], want: dict[int, float], where: str) -> None:
    worst = max((abs(got.get(t, 0.0) - want.get(t, 0.0)), t) for t in set(got) | set(want))
    assert worst[0] < 1e-9, (
        f"{where}: at total {worst[1]} got {got.get(worst[1])}, want {want.get(worst[1])}"
    )


def some_needs(game: SubGame, count: int) -> list[int]:
    """Needs whose win chance is neither sure nor hopeless, spread over the band."""
    lo, hi = game.brute.bounds(game.state)
    open_needs = [n for n in range(lo, hi + 1) if 0.02 < game.brute.win(game.state, n) < 0.98]
    assert open_needs
    picks = np.linspace(0, len(open_needs) - 1, count).round().astype(int)
    return sorted({open_needs[i] for i in picks})


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_win_table_equals_the_brute_force(case: Case, sub_game: Callable[[Case], SubGame]) -> None:
    game = sub_game(case)
    stored = unpack(pack(game.win_fast))  # packed, as served
    lo, hi = game.brute.bounds(game.state)
    for need in range(lo - 3, hi + 4):
        want = game.brute.win(game.state, need)
        got = game.win_fast.at(game.index, need)
        assert got == pytest.approx(want, abs=1e-9), f"{case.name}: need {need}"
        if case.name in NUMPY_CASES:
            got = game.win.at(game.index, need)
            assert got == pytest.approx(want, abs=1e-9), f"{case.name}: need {need} (numpy)"
        assert stored.at(game.index, need) == pytest.approx(want, abs=1e-7), f"stored, need {need}"
    # the chances to reach the need fall from 1 to 0 as it grows
    row = game.win_fast.row(game.index, lo - 1, hi + 2)
    assert row[0] == 1.0 and row[-1] == 0.0 and np.all(np.diff(row) <= 1e-12)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_keeps_win_chances_equal_the_brute_force(
    case: Case, sub_game: Callable[[Case], SubGame]
) -> None:
    game = sub_game(case)
    throws = game.ruleset.throws_per_turn
    for need in some_needs(game, 3):
        turn = win_turn(game.ruleset, game.win_fast, game.mask, game.sub, game.flag, need)
        for left in range(1, throws):
            got = turn.keeps_with(left)
            want = game.brute.win_keeps(game.state, need, left)
            for dice, _ in DICE:
                for keep in sub_multisets(dice):
                    assert got[KEEP_INDEX[keep]] == pytest.approx(want[keep], abs=1e-9), (
                        f"{case.name}: need {need}, keep {keep}, {left} throw(s) left"
                    )
        if throws == 1:
            with pytest.raises(ValueError):
                turn.keeps_with(1)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_one_need_looks_up_each_pair_once_and_equals_every_cell_looked_up(
    case: Case, sub_game: Callable[[Case], SubGame]
) -> None:
    """A request's one need is looked up per distinct (next state, points) pair and spread
    to the (box, throw) cells: the same chances, bit for bit, as looking up every cell."""
    game = sub_game(case)
    lo, hi = game.brute.bounds(game.state)
    for first in (False, True):
        cand = candidates(game.ruleset, game.mask, game.sub, game.flag, first)
        assert len(cand.pair_succ) < cand.succ.size
        assert np.array_equal(cand.pair_succ[cand.pair_of], cand.succ)
        assert np.array_equal(cand.pair_shift[cand.pair_of], cand.shift)
        for need in range(lo - 2, hi + 3):
            legal = cand.legal()
            shift = np.where(legal, cand.shift, 0.0).astype(np.int64)
            cells = np.where(legal, game.win_fast.lookup(cand.succ, need - shift), -np.inf)
            want = cells.max(axis=0)[:, None]
            _five_rows(game.win_fast, cand, np.array([need]), want)
            got = stand_win(game.win_fast, cand, np.array([need]))
            assert np.array_equal(got, want), f"{case.name}: need {need}, first throw {first}"


def probes(ruleset: Ruleset) -> list[tuple[Dice | None, int]]:
    """The turn's start, then dice showing with throws to come."""
    return [(None, 0), *dice_for(ruleset)]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_final_distribution_equals_the_brute_force(
    case: Case, sub_game: Callable[[Case], SubGame]
) -> None:
    game = sub_game(case)
    for dice, left in probes(game.ruleset):
        where = f"{case.name}: dice {dice}, {left} throw(s) left"
        points = game.brute.distribution(game.state, dice, left)
        want = {game.total + k: p for k, p in points.items()}
        assert_same_distribution(as_dict(game.final(dice, left, fast=True)), want, where)
        dist = game.final(dice, left)
        assert_same_distribution(as_dict(dist), want, where)
        assert dist.probabilities.sum() == pytest.approx(1.0, abs=1e-7), where
        assert np.all(dist.probabilities >= 0.0), where
        # as served: each probability within 2**-24 of the brute force's, their sum 1
        stored = as_dict(game.final(dice, left, stored=True))
        worst = max(abs(stored.get(t, 0.0) - want.get(t, 0.0)) for t in set(stored) | set(want))
        assert worst <= 2.0**-24 + 1e-10, (where, worst)
        assert sum(stored.values()) == pytest.approx(1.0, abs=1e-12), where
        assert min(stored.values()) >= 0.0, where


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_distribution_mean_is_the_value_table(
    case: Case, sub_game: Callable[[Case], SubGame]
) -> None:
    game = sub_game(case)
    ruleset = game.ruleset
    # the recursion's own expected points are the value table's
    assert game.brute.expected(game.state) == pytest.approx(game.values[game.index], abs=1e-9)
    for dice, left in probes(ruleset):
        where = f"{case.name}: dice {dice}, {left} throw(s) left"
        if dice is None:
            mean = expected_final_score(ruleset, game.values, game.card)
        else:
            mean = max(
                o.expected_total for o in advise(ruleset, game.values, game.card, dice, left)
            )
        assert game.final(dice, left).mean == pytest.approx(mean, abs=1e-7), where
        # as served: the stored moments, not the rounded probabilities, give mean and sd
        stored, exact = game.final(dice, left, stored=True), game.final(dice, left, fast=True)
        assert stored.mean == pytest.approx(mean, abs=1e-7), where
        assert stored.sd == pytest.approx(exact.sd, abs=1e-9), where


def play_for_target(game: SubGame, target: int, games: int, seed: int) -> int:
    """Games from the card that reach `target`, each decision the best for the target by
    the solver's tables (keeps by `win_turn`, boxes by the win table at the state each
    leads to); the rules of each placement are the brute force's."""
    ruleset, brute, win = game.ruleset, game.brute, game.win_fast
    space = state_space(ruleset)
    rng = np.random.default_rng(seed)
    throws = ruleset.throws_per_turn
    turns: dict[tuple[State, int], RequestTurn] = {}
    reached = 0
    for _ in range(games):
        state, total = game.state, game.total
        while not brute.full(state):
            need = target - total
            if (state, need) not in turns:
                turns[state, need] = win_turn(ruleset, win, state.mask, state.sub, state.flag, need)
            turn = turns[state, need]
            keep: Dice = ()
            for throw in range(1, throws + 1):
                rolled = rng.integers(1, 7, 5 - len(keep)).tolist()
                dice = tuple(sorted(keep + tuple(rolled)))
                # (chance, placement or None, keep): placements first, so they win ties
                options: list[tuple[float, Placement | None, Dice]] = [
                    (win.at(space.index_one(*p.after), need - p.gain), p, ())
                    for p in brute.placements(state, brute.d.throws.index(dice), throw == 1)
                ]
                left = throws - throw
                if left:
                    chances = turn.keeps_with(left)
                    options += [
                        (float(chances[KEEP_INDEX[k]]), None, k) for k in sub_multisets(dice)
                    ]
                _, placement, keep = max(options, key=lambda o: o[0])
                if placement is not None:
                    total += placement.gain
                    state = placement.after
                    break
        reached += total >= target
    return reached


SIMULATED = Case(
    "simulated",
    "yahtzee",
    {},
    YAHTZEE_CARD,
    ("full_house", "small_straight", "large_straight", "chance"),
    100,
)


def test_target_play_reaches_the_target_as_often_as_the_win_table_says(
    sub_game: Callable[[Case], SubGame],
) -> None:
    game = sub_game(SIMULATED)
    # the need whose win chance is nearest one half: the widest spread of outcomes
    lo, hi = game.brute.bounds(game.state)
    need = min(range(lo, hi + 1), key=lambda n: abs(game.win_fast.at(game.index, n) - 0.5))
    chance = game.win_fast.at(game.index, need)
    assert chance == pytest.approx(game.brute.win(game.state, need), abs=1e-9)
    games = 3000
    reached = play_for_target(game, game.total + need, games, seed=20261202)
    se = np.sqrt(chance * (1 - chance) / games)
    assert abs(reached / games - chance) < 4 * se, (reached / games, chance, se)
