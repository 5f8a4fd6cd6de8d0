"""The `code`s of Scorecard games's rule violations, as the OpenAPI document lists them
(`x-error-codes`, with the codes every family shares: `diceref.http.problem_catalogue`)."""

ERROR_CODES: dict[str, str] = {
    "unknown_box": "a box the game does not have",
    "impossible_points": "points no throw can score in that box",
    "card_full": "a scorecard with no box left to fill",
    "series_order": "a second-series box before the first series is complete",
    "forced_order": "a box filled before an earlier one (forced order)",
    "throw_mismatch": "a throw number that contradicts the throws left",
    "impossible_bonus": "an extra bonus that is negative or not a multiple of the bonus",
    "no_such_bonus": "an extra bonus in a game without one",
    "bonus_without_basis": "an extra bonus while the five-of-a-kind box does not hold its points",
    "too_many_bonuses": "more extra bonuses than filled boxes allow",
    "exclusive_fields": "two fields a request may not carry together (`game` and `ruleset`; "
    "`rules` with a `ruleset`)",
    "invalid_id": "a ruleset id that is not lower-case letters, digits, '_' and '-'",
    "unknown_pattern": "a box pattern outside the vocabulary (docs/rules/house-rules.md)",
    "unknown_scoring": "a box scoring rule outside the vocabulary",
    "scoring_mismatch": "a scoring rule the box's pattern does not take",
    "wrong_section": "a box in the other section than its pattern's",
    "not_applicable": "a box field its pattern and scoring do not take",
    "invalid_run": "a straight's run whose faces are not different and ascending",
    "duplicate_box": "two boxes with one id",
    "upper_section": "an upper section other than six face boxes, ones to sixes, first",
    "five_of_a_kind_box": "a five-of-a-kind rule on a box that scores no five of a kind at "
    "fixed points",
    "forced_joker": "a five of a kind placed where the Joker rule does not send it",
    "box_filled": "a box filled a second time",
    "kept_not_thrown": "a kept die that was not in the throw",
    "kept_die_changed": "a kept die that changed in the next throw",
    "kept_all_dice": "all five dice kept (a throw throws at least one)",
    "keeps_mismatch": "not one keep per throw but the last",
}
