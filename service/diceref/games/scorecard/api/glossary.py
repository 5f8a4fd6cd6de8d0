"""What the property names only the scorecard games' requests and answers use mean (the names
every family shares, and the rules all of them follow: `diceref.http.glossary`)."""

GLOSSARY: dict[str, str] = {
    "blocked": "The open boxes these dice may not fill now, each with the rule that closes it.",
    "bonus": "All the bonus points this placement earns: `upper_bonus` + `extra_bonus`.",
    "claimed_total": "The total written on the sheet, to check (null: not written).",
    "claimed_upper_bonus": "The upper bonus written on the sheet, to check (null: not written).",
    "complete": "Whether every box of the card (or sheet) is filled.",
    "entries": "The boxes written on the sheet, in the order they were filled.",
    "filled": "The boxes filled so far: box id to the points written.",
    "problems": "Every problem found on the sheet.",
    "scorecard": "The player's card so far (omit for an empty card).",
    "sheets": "One sheet per player.",
    "upper_bonus": "Points of the upper bonus earned.",
    "upper_subtotal": "Points in the upper section.",
    "valid": "Whether the sheet has no problem.",
    "final_total": "The card's (or banked) total after the turns reviewed.",
    "keeps": "The dice kept after each throw but the last, one list per throw.",
}
