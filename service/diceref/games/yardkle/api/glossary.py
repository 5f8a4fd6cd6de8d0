"""What the property names only Yardkle's requests and answers use mean (the names
every family shares, and the rules all of them follow: `diceref.http.glossary`)."""

GLOSSARY: dict[str, str] = {
    "applied": "Whether the rule applies to this turn.",
    "bank_allowed": "Whether banking is allowed now (off the pad, only at the entry minimum).",
    "bank_expected_points": "Expected points of banking now: the turn points, or 0 if banking "
    "is not allowed.",
    "banked_total": "The player's total before this turn.",
    "best_option": "The best option (ties: the first listed), or null when there is none.",
    "combination": "A scoring combination's id.",
    "decision": "After the set-aside: `bank` the turn points or `throw_on` with the dice left.",
    "dice_left_count": "How many dice the next throw uses (all of them again after hot dice).",
    "end": "How the turn ended: `bank` or `yardkle` (nothing to set aside).",
    "entry_rule": "The entry minimum: whether it applied to this turn and was met.",
    "finished": "Whether the game is over (every last turn played).",
    "hot_dice": "Whether every die is set aside, so all of them may be thrown again.",
    "last_turn": "Whether this is the player's last turn (after someone reached the target).",
    "last_turns": "The turn indices of the last turns played so far.",
    "last_turns_due": "The players still owed their last turn.",
    "met": "Whether the entry minimum was met.",
    "new_total": "The player's total after this turn.",
    "next_player": "Whose turn is next (null: the game is over).",
    "on_pad": "Whether the player has reached the entry minimum once (is on the pad).",
    "reached": "The turn that first reached the target (null: not yet).",
    "running_total": "The turn's points after this throw.",
    "set_aside": "The dice set aside, as faces.",
    "set_asides": "Every legal set-aside, best first.",
    "split": "How the set-aside divides into scoring combinations.",
    "throw_on_expected_points": "Expected points of throwing on with the dice left under the "
    "optimal policy.",
    "turn_count": "How many turns the player has played.",
    "turn_points": "Points accumulated in this turn so far.",
    "winners": "The winners (ties share), empty until the game is over.",
    "yardkle": "Whether the throw scores nothing (a Yardkle: the turn is lost).",
    "need": "The turn points that win: reached at least, the turn counts as won "
    "(`win_probability`); to pass the leader on a last turn, or to get on the pad.",
    "optimal_expected_points": "Expected points of the turn(s) from the first throw under the "
    "optimal expected-points policy.",
}
