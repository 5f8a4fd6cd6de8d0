"""The `code`s of Yardkle's rule violations, as the OpenAPI document lists them
(`x-error-codes`, with the codes every family shares: `diceref.http.problem_catalogue`)."""

ERROR_CODES: dict[str, str] = {
    "entry_minimum": "banking under the entry minimum while off the pad",
    "out_of_turn": "a turn out of the players' order",
    "impossible_turn_points": "turn points no set-asides can add up to",
    "impossible_total": "a banked total no sequence of turns can produce",
    "not_a_yardkle": "a turn declared a Yardkle whose last throw scores",
    "set_aside_after_yardkle": "dice set aside from a Yardkle (nothing in it scores)",
    "throw_after_yardkle": "a throw after a Yardkle, which ends the turn",
    "banked_yardkle": "a turn banked after a Yardkle, whose points are lost",
    "banked_hot_dice": "a turn banked right after hot dice while hot dice are forced "
    "(`hot_dice_optional: false`)",
    "nothing_set_aside": "a scoring throw with nothing set aside",
    "dice_not_thrown": "set-aside dice the throw did not show",
    "set_aside_not_scoring": "a set-aside with a die outside every scoring combination",
    "pad_mismatch": "an `on_pad` that contradicts the banked total",
}
