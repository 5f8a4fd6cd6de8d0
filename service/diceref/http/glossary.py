"""The API's vocabulary: one name per concept across every family, and what it means.

Every property of every request and response in the OpenAPI document is described from
here or from the glossary of the one family whose models use it (`FamilyApi.glossary`;
`diceref.http.vocabulary.glossary()` joins them); a field whose type carries its own
description keeps it.  A property whose name no glossary has stops the document's
generation, so a new field cannot ship undescribed.  docs/contract.md prints the joined
table (a test keeps the two equal) and the rules the names follow (`standings`,
`expected_*` with `_exact` twins, `_count`, `player`).
"""

from __future__ import annotations

GLOSSARY: dict[str, str] = {
    "api_version": "The version of the API document the service speaks (`info.version`), "
    "as in every response's `X-API-Version` header.",
    "best": "Whether this option is among the best (ties included).",
    "box": "A box's id, as `GET /games/{game}` lists them.",
    "boxes": "The game's boxes, in scorecard order.",
    "code": "A stable, machine-readable code for the reason (`series_order`, ...).",
    "description": "What the parameter means, in English.",
    "detail": "What went wrong, in English, naming the fields (RFC 9457).",
    "dice": "Dice as faces, 1 to 6 each, in ascending order in answers.",
    "dice_count": "How many dice the game throws.",
    "errors": "Every offending field, with a reason.",
    "expected_points": "Expected points still to come in this turn under best play (Chicago: "
    "the expected final score of the throw).",
    "expected_points_exact": "`expected_points` as an exact fraction.",
    "expected_total": "Expected final score of the card under optimal play from here, "
    "bonuses included.",
    "extra_bonus": "Points of the extra five-of-a-kind bonus (earned so far on a card; per "
    "further five of a kind in a rule).",
    "face_labels": "How each face 1 to 6 is written in this game.",
    "family": "The game's family: `scorecard`, `chicago` or `yardkle`.",
    "field": "Where the problem is, as a path into the request (`dice[4]`, "
    "`scorecard.filled.ones`).",
    "five_of_a_kind": "The five-of-a-kind rule: its box, extra bonus and Joker.",
    "game": "A game's id, as `GET /games` lists them.",
    "how": "How the box scores, in English.",
    "id": "A stable identifier, lower case (`yahtzee`, `full_house`).",
    "label": 'The parameter\'s short human name ("Upper bonus threshold"), for a page to show; '
    "`name` is what a request sets.",
    "instance": "The path of the request that failed (RFC 9457).",
    "joker": "The Joker rule: `forced`, `free_choice` or `none`.",
    "joker_when_scratched": "Whether a 0 in the five-of-a-kind box still allows the Joker.",
    "keep": "The dice to keep (ascending); the others are thrown again.",
    "kind": "Which kind of item this is (the tag of a tagged union, or an event's kind).",
    "loss": "What this option costs against the best, in the coach's unit (expected points or "
    "total, or win probability); 0 for a best option.",
    "max_players": "The most players a game takes (null: no limit).",
    "max_points": "The most points this can score.",
    "max_score": "The most points the game can give from an empty card, null while its table "
    "is loading.",
    "min_players": "The fewest players a game takes.",
    "name": "A display name, in the game's language.",
    "optimal_expected_score": "The game's expected_total from an empty card under optimal "
    "play, null while its table is loading.",
    "options": "Every choice, best first.",
    "parameters": "Every rule setting, each reading of an unclear rulebook marked.",
    "pattern": "What the dice must show for the box to score: `face`, `n_of_a_kind`, `pair`, "
    "`two_pairs`, `full_house`, `straight`, `chance` or `sum_over` (docs/rules/house-rules.md).",
    "player": "A player's name, unique at the table.",
    "players": "The players' names, in seating order.",
    "points": "The points this scores.",
    "rank": "Competition rank: 1 is best, equal results share a rank (1, 1, 3).",
    "reading": "Whether this is a reading of an unclear rulebook passage.",
    "reason": "Why, in English.",
    "request_id": "The request's id, as in the `X-Request-ID` response header (the client's "
    "own when it sent a well-formed one): quote it when reporting a problem.",
    "retry_after": "Seconds to wait before retrying (also the `Retry-After` header).",
    "scoring": "How the box's points are counted: `face_sum`, `face_relative`, `notches` (upper "
    "boxes), `sum_all`, `sum_formed` or `fixed` (lower boxes).",
    "section": "The scorecard section: `upper` or `lower`.",
    "series_order": "Whether the second series opens only once the first is complete (`order` "
    "is `series`).",
    "source": "The rulebook this ruleset follows.",
    "standings": "The players ranked: best first, equal results sharing a rank (1, 1, 3).",
    "status": "`ok` while the process answers; of a ruleset's tables: `ready`, `solving`, "
    "`queued` or `failed` (in a problem: the HTTP status, RFC 9457).",
    "strictly_greater": "Whether the total must exceed the threshold (not just reach it).",
    "summary": "The ruleset in one paragraph.",
    "tables": "Whether the game's solved tables are `ready` or still `loading` (the figures "
    "that need them are null until then).",
    "threshold": "The total that must be reached (or exceeded).",
    "throw": "Which throw of the turn (1 first).",
    "throws": "The throws of the turn, in order.",
    "throws_left": "Throws still allowed after these dice.",
    "throws_per_turn": "How many throws a turn allows.",
    "title": "A short summary of the problem type (RFC 9457).",
    "total": "Points in all: a card's total, or a player's banked total.",
    "turn_index": "The turn's index in the game (0 first).",
    "turns": "Each player's turn, in turn order.",
    "type": "The problem type, a URI (RFC 9457).",
    "upper_bonus_rule": "The upper bonus: its threshold and points.",
    "value": "The setting's value.",
    "win_probability": "Exact chance of winning, as a number (null without a target): Chicago, "
    "of ending strictly better than the target; Yardkle, of ending the turn with at least "
    "`need` points banked, or with an `opponent` of winning the two-player game under "
    "optimal play by both.",
    "win_probability_exact": "`win_probability` as an exact fraction.",
    "choices": "The values a string parameter allows (null: any).",
    "choice_descriptions": "What each of `choices` means, by choice: `description` says what "
    "the game plays, this what another choice would play (null: no choices, or one).",
    "minimum": "The least value an integer parameter (or each item of a list) allows (null: none).",
    "maximum": "The greatest value an integer parameter (or each item of a list) allows (null: "
    "none).",
    "length": "The number of items an integer-list parameter takes (null: any).",
    "settable": "Whether a request may set this parameter under `rules` (false: reported for "
    "information).",
    "value_type": "The JSON type of the parameter's value: `boolean`, `integer`, `string` or "
    "`integer_list`.",
    "best_options": "The best options of the decision (ties included), each with its value.",
    "chosen": "The option the player chose, with its value and loss.",
    "costliest": "The costliest decisions of the game (at most three), costliest first.",
    "decision_count": "How many decisions the review valued.",
    "decision_index": "The decision's index in its turn (0 first, one per throw).",
    "decisions": "Every decision of the turn, in the order made: a keep after each throw but "
    "the last, then the box (Yardkle: a set-aside and bank or throw on, per throw).",
    "expected_loss": "The sum of the decisions' `loss`: what the play gave away in expectation.",
    "luck": "Final total minus optimal expected score plus expected loss: what the dice gave "
    "beyond expectation (null for a part-played game).",
    "mean_loss": "`expected_loss` per decision (0 with none).",
    "rules": "Parameter overrides by name, as `GET /games/{game}` lists them under `parameters` "
    "(house rules); omitted: the built-in rules.",
    "ruleset_id": "Content hash of the effective rules, also the key of their solved tables; "
    "present when the request carried `rules` or `ruleset`.",
    "progress": "How far the solve of a ruleset's tables is, 0 to 1 (1: ready).",
    "ruleset": "A game's complete rules, in the shape `GET /games/{game}` returns (in a "
    "scorecard request: a custom ruleset instead of a built-in `game`).",
    "order": "Which open boxes a turn may fill: `free` (any), `series` (the upper boxes first) "
    "or `forced` (only the first open box, in scorecard order).",
    "face": "The face the box counts, 1 to 6 (pattern `face`).",
    "of_a_kind_count": "How many dice of one face the box needs (pattern `n_of_a_kind`: 3 is "
    "three of a kind, 5 five of a kind).",
    "runs": "The runs of faces that make the straight, any one of them (ascending faces).",
    "total_over": "The dice must total more than this (pattern `sum_over`).",
    "fixed_points": "The points the box scores when its pattern is met (scoring `fixed`).",
    "target_count": "The box scores (dice showing its face - target_count) x face, negative "
    "below it (scoring `face_relative`).",
    "notches": "Points for three dice of the face, then for four or five (scoring `notches`; "
    "fewer score 0).",
    "two_pairs_distinct": "Whether two pairs need two different faces (false: four of a kind "
    "counts too).",
    "full_house_distinct": "Whether a full house needs two different faces (false: five of a "
    "kind counts too).",
    "first_throw_multiplier": "The box's points are multiplied by this when made on the turn's "
    "first throw (1: no multiplier).",
    "premium": "Points added whenever the box scores its pattern.",
    "premium_doubled": "Whether the premium is multiplied with the points on a first throw.",
    "matching_upper_forced": "Whether a Joker must go to the matching upper box while it is "
    "open (false: any open box at natural value).",
}
