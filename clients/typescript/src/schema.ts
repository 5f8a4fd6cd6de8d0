// GENERATED from openapi/openapi.json by openapi-typescript (`npm run generate`): do not edit.

export interface paths {
    "/chicago/games": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rule on a Chicago game
         * @description Every round's ruling with the lives carried from round to round, and the standings.
         *     A round must start with the player the previous ruling named and go round the table.
         */
        post: operations["chicagoGames"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chicago/holds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Coach a Chicago throw
         * @description Every legal keep and conversion, ranked by the exact chance of ending strictly better
         *     than the target (then by expected score), with the expected final score under best play
         *     after it.  Without a call (the starter) there is one ranking per call, by expected score.
         */
        post: operations["chicagoHolds"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chicago/rounds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rule on a Chicago round
         * @description Each player's final dice and score, the Chicago, 1-6-5 and worst-score events, lives
         *     lost and left, who is out, who starts next (null when drawn by lot) and the winner.
         *     An illegal record is a 422 naming the player, the throw and the rule broken.
         */
        post: operations["chicagoRounds"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chicago/throws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Value a Chicago throw
         * @description The throw's score under high and low (or the call given), whether it is a Chicago or
         *     a 1-6-5, and the conversion it allows or forces; without a throw number the conversion
         *     is listed as it would apply with a throw left.  Mid-turn, `kept` and `set_aside_count`
         *     say what stayed on the table: the set-aside 1s are then not among `may_keep`.
         */
        post: operations["chicagoThrows"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/distributions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Forecast the final total
         * @description The distribution of the card's final total (bonuses included), from the start of the
         *     card's next turn or from the `dice` of the turn under way with `throws_left`: every total
         *     with its chance, the mean, standard deviation, extremes and percentiles (`p50`: the
         *     least total reached or passed with probability 1/2 from below).  `play` says whose play
         *     it follows: for the greatest expected total, or with a `target` (the default then) for
         *     the greatest chance to reach it, which is followed turn by turn and so is answered for
         *     cards near their end (a 422 `target_too_early` before).  With a `target`,
         *     `win_probability` is the chance to reach it playing for it.  The tables are solved when
         *     first asked for: a 503 with `progress` until then.
         */
        post: operations["distributions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/games": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the games
         * @description Every game the service referees, with its boxes in scorecard order.  Cacheable
         *     (`ETag`, `Cache-Control`): `If-None-Match` with the ETag held gets a 304.
         */
        get: operations["games"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/games/{game}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A game's full ruleset
         * @description Boxes with how each scores, bonuses, every reading with its value, and, once the
         *     game's tables are loaded, the maximum score and the optimal expected score from an
         *     empty card.  Never waits for a table: while one is loading both figures are null and
         *     `tables` is `loading` (the load has been started in the background).  Cacheable
         *     (`ETag`, `Cache-Control`; always revalidated while the tables load).
         */
        get: operations["gamesByGame"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Answers `ok` while the process serves requests, with the version of the API it
         *     speaks (`api_version`, also every response's `X-API-Version` header); touches no
         *     table, store or Redis.
         */
        get: operations["healthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/holds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rank every keep and every box
         * @description Every distinct keep (none to all five, when a throw is left) and every legal box, by
         *     exact expected final score under optimal play (`expected_total`, bonuses included).
         *     With a `target`, by the chance to reach it instead (`win_probability`, ties by expected
         *     total; `best` and `loss` in that chance), from the ruleset's win table (solved when
         *     first asked for: a 503 with `progress` until then).
         */
        post: operations["holds"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Review a played game
         * @description Every decision of the game (the keep after each throw but the last, then the box)
         *     against every option it had, by exact expected final score under optimal play: what
         *     was chosen, the best options (ties included) and the `loss`; per turn its points and
         *     loss; for the game the expected loss, the mean loss per decision, the final total, the
         *     optimal expected score, the luck (for a complete game) and the three costliest
         *     decisions.  An impossible record is a 422 naming the turn, the throw or keep, and the
         *     rule.  With a `target`, each decision also gives its `win_loss`, the chance to reach
         *     the target it gave away (from the win table, solved when first asked for), and its
         *     options their `win_probability`.
         */
        post: operations["reviews"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rulesets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check house rules and start solving their tables
         * @description The effective rules of `game` under `rules` (as `GET /games/{game}` shows a game),
         *     their `ruleset_id`, and where their solved tables stand.  The first call queues the
         *     solve (a 429 with Retry-After when too many rulesets already wait); later calls report
         *     its `status` and `progress`, then `max_score` and `optimal_expected_score`.
         */
        post: operations["rulesets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/score": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Score a throw
         * @description Every box the throw may legally fill now (Joker and series order applied), a scratch
         *     listed with 0 points, and the card's total before the throw.
         */
        post: operations["score"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scorecards/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check score sheets
         * @description Every problem on every sheet (impossible values, points that do not match the dice,
         *     unknown boxes, bonuses without a basis, series order), the totals, and the ranking.
         */
        post: operations["scorecardsCheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/yardkle/games": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Referee a Yardkle game
         * @description Standings after the turns given, the turn that reached the target, the last turns
         *     owed and played, and the winners once every other player has had a last turn.  With
         *     `chances` (two players only, a 422 beyond), each standing of a game in progress also
         *     gives the player's `win_probability` under optimal play by both, from the rules'
         *     two-player table once it is loaded; until then it is left out (the table is solved
         *     in the background), never a 503.
         */
        post: operations["yardkleGames"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/yardkle/holds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Coach a Yardkle set-aside
         * @description Every legal set-aside with the expected turn points of banking and of throwing on under
         *     the optimal policy (maximum expected points per turn, entry rule included when off the
         *     pad), ranked, and the best decision.  With `need` (the turn points to reach: to pass the
         *     leader on a last turn, or to get on the pad), every option also gives its exact
         *     `win_probability` of ending the turn with at least `need`, and the ranking, the
         *     decision and the loss follow it; the expected points stay beside it (a need is raced up
         *     to 2,000 scoring units: every need at the built-in unit of 50; under a finer unit a
         *     larger one is a 422).  With an `opponent` (a two-player game, beside the thrower's
         *     banked `total`), each option's `win_probability` is instead the chance to win the game
         *     under optimal play by both, and the ranking, the decision and the loss follow it, from
         *     the rules' two-player table (solved when first asked for: a 503 with `progress` until
         *     then); under `last_turns: complete_the_round` the chance depends on whether the
         *     thrower started the round, `first_in_round` (required there, ignored otherwise).  Any
         *     turn points are answered: with hot dice forced a throw after hot dice can come past
         *     the turn's cap, where keeping dice back banks and hot dice throw again.
         *     Under house rules the coach reads the tables solved for them (503 with
         *     Retry-After while they are not ready) and races by their scoring.
         */
        post: operations["yardkleHolds"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/yardkle/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Review played Yardkle turns
         * @description Every decision of the turns (after each throw that scored: the set-aside, then bank
         *     or throw on) against the optimal expected-points policy under the request's rules:
         *     what was chosen, the best options (ties included) and the `loss` in expected turn
         *     points; per turn its points, the policy's expected points, its loss and its luck; in
         *     all, the same sums and the three costliest decisions.  An illegal turn is a 422 naming
         *     `turns[i]` and the rule; under house rules whose table is not solved yet, a 503 with
         *     `Retry-After` (the solve is queued).  A turn sent with its `opponent` also gives each
         *     decision's `win_loss` and the chosen choice's `win_probability`, against that
         *     opponent under two-player optimal play (the rules' two-player table: a 503 with
         *     `progress` until it is solved); under `last_turns: complete_the_round` such a turn
         *     also says whether its player started the round (`first_in_round`).
         */
        post: operations["yardkleReviews"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/yardkle/throws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Every set-aside a Yardkle throw allows
         * @description Every multiset of the thrown dice that scores completely, with its points and its best
         *     split into combinations (best first), the most the throw can score, and whether it is a
         *     Yardkle (nothing to set aside).
         */
        post: operations["yardkleThrows"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/yardkle/turns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Referee a Yardkle turn
         * @description Replays the turn against the player's banked total: the points earned, the new total
         *     and the entry rule; the first illegal step (dice not thrown, a set-aside that does not
         *     score completely, nothing set aside, banking under the entry minimum off the pad,
         *     throwing after a Yardkle) is refused naming the throw and the rule.
         */
        post: operations["yardkleTurns"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * AnyGame
         * @enum {string}
         */
        AnyGame: "yahtzee" | "yardzee" | "dice-poker" | "russian-poker" | "chute-5" | "yatzy" | "chicago" | "yardkle";
        /** BestOut */
        BestOut: {
            /** @description After the set-aside: `bank` the turn points or `throw_on` with the dice left. */
            decision: components["schemas"]["Decision"];
            /** @description Expected points still to come in this turn under best play (Chicago: the expected final score of the throw). */
            expected_points: number;
            /** @description The dice set aside, as faces. */
            set_aside: number[];
            /** @description Exact chance of winning, as a number (null without a target): Chicago, of ending strictly better than the target; Yardkle, of ending the turn with at least `need` points banked, or with an `opponent` of winning the two-player game under optimal play by both. */
            win_probability: number | null;
        };
        /**
         * BlockedOut
         * @description An open box these dice may not fill now.
         */
        BlockedOut: {
            /** @description A box's id, as `GET /games/{game}` lists them. */
            box: string;
            /** @description A stable, machine-readable code for the reason (`series_order`, ...). */
            code: components["schemas"]["BlockReason"];
            /** @description A display name, in the game's language. */
            name: string;
            /** @description Why, in English. */
            reason: string;
        };
        /**
         * BlockReason
         * @description Why an open box may not take these dice now.
         * @enum {string}
         */
        BlockReason: "series_order" | "forced_order" | "forced_joker";
        /**
         * BoxOption
         * @description End the turn now in this box.
         */
        BoxOption: {
            /** @description Whether this option is among the best (ties included). */
            best: boolean;
            /** @description All the bonus points this placement earns: `upper_bonus` + `extra_bonus`. */
            bonus: number;
            /** @description A box's id, as `GET /games/{game}` lists them. */
            box: string;
            /** @description Expected final score of the card under optimal play from here, bonuses included. */
            expected_total: number;
            /** @description Points of the extra five-of-a-kind bonus (earned so far on a card; per further five of a kind in a rule). */
            extra_bonus: number;
            /**
             * @description Which kind of item this is (the tag of a tagged union, or an event's kind).
             * @constant
             */
            kind: "box";
            /** @description What this option costs against the best, in the coach's unit (expected points or total, or win probability); 0 for a best option. */
            loss: number;
            /** @description A display name, in the game's language. */
            name: string;
            /** @description The points this scores. */
            points: number;
            /** @description Points of the upper bonus earned. */
            upper_bonus: number;
            /** @description The chance to reach `target` from here, playing every later decision for the greatest chance (present when the request has a `target`) */
            win_probability?: number;
        };
        /**
         * BoxRules
         * @description A box as a client reads it, and may send it back in a custom `ruleset`.
         */
        BoxRules: {
            /** @description The face the box counts, 1 to 6 (pattern `face`). */
            face?: number;
            /** @description The box's points are multiplied by this when made on the turn's first throw (1: no multiplier). */
            first_throw_multiplier?: number;
            /** @description The points the box scores when its pattern is met (scoring `fixed`). */
            fixed_points?: number;
            /** @description Whether a full house needs two different faces (false: five of a kind counts too). */
            full_house_distinct?: boolean;
            /** @description How the box scores, in English. */
            how: string;
            /** @description A stable identifier, lower case (`yahtzee`, `full_house`). */
            id: string;
            /** @description The most points this can score. */
            max_points: number;
            /** @description A display name, in the game's language. */
            name: string;
            /** @description Points for three dice of the face, then for four or five (scoring `notches`; fewer score 0). */
            notches?: number[];
            /** @description How many dice of one face the box needs (pattern `n_of_a_kind`: 3 is three of a kind, 5 five of a kind). */
            of_a_kind_count?: number;
            /**
             * @description What the dice must show for the box to score: `face`, `n_of_a_kind`, `pair`, `two_pairs`, `full_house`, `straight`, `chance` or `sum_over` (docs/rules/house-rules.md).
             * @enum {string}
             */
            pattern: "face" | "n_of_a_kind" | "pair" | "two_pairs" | "full_house" | "straight" | "chance" | "sum_over";
            /** @description Points added whenever the box scores its pattern. */
            premium?: number;
            /** @description Whether the premium is multiplied with the points on a first throw. */
            premium_doubled?: boolean;
            /** @description The runs of faces that make the straight, any one of them (ascending faces). */
            runs?: number[][];
            /**
             * @description How the box's points are counted: `face_sum`, `face_relative`, `notches` (upper boxes), `sum_all`, `sum_formed` or `fixed` (lower boxes).
             * @enum {string}
             */
            scoring: "face_sum" | "face_relative" | "notches" | "sum_all" | "sum_formed" | "fixed";
            /**
             * @description The scorecard section: `upper` or `lower`.
             * @enum {string}
             */
            section: "upper" | "lower";
            /** @description The box scores (dice showing its face - target_count) x face, negative below it (scoring `face_relative`). */
            target_count?: number;
            /** @description The dice must total more than this (pattern `sum_over`). */
            total_over?: number;
            /** @description Whether two pairs need two different faces (false: four of a kind counts too). */
            two_pairs_distinct?: boolean;
        };
        /** BoxSummary */
        BoxSummary: {
            /** @description A stable identifier, lower case (`yahtzee`, `full_house`). */
            id: string;
            /** @description A display name, in the game's language. */
            name: string;
            /** @description The scorecard section: `upper` or `lower`. */
            section: string;
        };
        /**
         * Call
         * @enum {string}
         */
        Call: "high" | "low";
        /** ChanceBox */
        ChanceBox: {
            /** @description The box's points are multiplied by this when made on the turn's first throw (1: no multiplier). */
            first_throw_multiplier?: number;
            /** @description The points the box scores when its pattern is met (scoring `fixed`). */
            fixed_points?: number;
            /** @description Output only: accepted in a request and ignored */
            how?: string;
            /** @description A stable identifier, lower case (`yahtzee`, `full_house`). */
            id: string;
            /** @description Output only: accepted in a request and ignored */
            max_points?: number;
            /** @description A display name, in the game's language. */
            name?: string;
            /**
             * @description What the dice must show for the box to score: `face`, `n_of_a_kind`, `pair`, `two_pairs`, `full_house`, `straight`, `chance` or `sum_over` (docs/rules/house-rules.md).
             * @constant
             */
            pattern: "chance";
            /** @description Points added whenever the box scores its pattern. */
            premium?: number;
            /** @description Whether the premium is multiplied with the points on a first throw. */
            premium_doubled?: boolean;
            /**
             * @description How the box's points are counted: `face_sum`, `face_relative`, `notches` (upper boxes), `sum_all`, `sum_formed` or `fixed` (lower boxes).
             * @enum {string}
             */
            scoring: "sum_all" | "sum_formed" | "fixed";
            /** @description The scorecard section: `upper` or `lower`. */
            section?: components["schemas"]["Section"];
        };
        /** CheckRequest */
        CheckRequest: {
            /** @description A built-in game's id, as `GET /games` lists them; exactly one of `game` and `ruleset` */
            game?: components["schemas"]["ScorecardGame"] | null;
            /** @description House rules: parameter overrides by name, as `GET /games/{game}` lists them under `parameters`, each value of the type and range listed there */
            rules?: {
                [key: string]: unknown;
            } | null;
            /** @description A custom ruleset instead of a built-in `game` (exactly one of the two): the document `GET /games/{game}` returns, changed at will */
            ruleset?: components["schemas"]["RulesetIn"] | null;
            /** @description One sheet per player. */
            sheets: components["schemas"]["SheetIn"][];
        };
        /** CheckResponse */
        CheckResponse: {
            /** @description A game's id, as `GET /games` lists them. */
            game: string;
            /** @description Content hash of the effective rules (present when `rules` or `ruleset` was sent) */
            ruleset_id?: string;
            /** @description One sheet per player. */
            sheets: components["schemas"]["SheetOut"][];
            /** @description The players ranked: best first, equal results sharing a rank (1, 1, 3). */
            standings: components["schemas"]["Standing"][];
        };
        /** ChicagoGameRequest */
        ChicagoGameRequest: {
            /** @description The seating order */
            players: string[];
            /** @description The rounds, in order. */
            rounds: components["schemas"]["GameRoundIn"][];
            /** @description House rules: parameter overrides by name, as `GET /games/{game}` lists them under `parameters`, each value of the type and range listed there */
            rules?: {
                [key: string]: unknown;
            } | null;
        };
        /** ChicagoGameResponse */
        ChicagoGameResponse: {
            /** @description Whether the game is over. */
            game_over: boolean;
            /** @description Who starts the next round (null: drawn by lot, or the game is over). */
            next_starter: string | null;
            /** @description The players' names, in seating order. */
            players: string[];
            /** @description The rounds, in order. */
            rounds: components["schemas"]["RoundResponse"][];
            /** @description Content hash of the effective rules (present when `rules` was sent) */
            ruleset_id?: string;
            /** @description The players ranked: best first, equal results sharing a rank (1, 1, 3). */
            standings: components["schemas"]["ChicagoStandingOut"][];
            /** @description Lives each player starts with. */
            starting_lives: number;
            /** @description The winner (null: the game goes on). */
            winner: string | null;
        };
        /** ChicagoHoldOut */
        ChicagoHoldOut: {
            /** @description Whether this option is among the best (ties included). */
            best: boolean;
            /** @description A conversion of dice (Chicago: sixes turned into a 1), or null for none. */
            conversion: components["schemas"]["Conversion"] | null;
            /** @description Expected points still to come in this turn under best play (Chicago: the expected final score of the throw). */
            expected_points: number;
            /** @description `expected_points` as an exact fraction. */
            expected_points_exact: string;
            /** @description The dice to keep (ascending); the others are thrown again. */
            keep: number[];
            /** @description What this option costs against the best, in the coach's unit (expected points or total, or win probability); 0 for a best option. */
            loss: number;
            /** @description How many dice are thrown again. */
            rethrow_count: number;
            /** @description How many 1s are set aside by conversions (Chicago). */
            set_aside_count: number;
            /** @description Exact chance of winning, as a number (null without a target): Chicago, of ending strictly better than the target; Yardkle, of ending the turn with at least `need` points banked, or with an `opponent` of winning the two-player game under optimal play by both. */
            win_probability: number | null;
            /** @description `win_probability` as an exact fraction. */
            win_probability_exact: string | null;
        };
        /** ChicagoHoldsRequest */
        ChicagoHoldsRequest: {
            /** @description The call in force: `high` or `low` (null: not made yet, the starter chooses). */
            call?: components["schemas"]["Call"] | null;
            /** @description Three dice, 1 to 6 each */
            dice: number[];
            /** @description Dice kept on the table from the turn's previous throw (these dice are among `dice`); the conversions look at them when only the sixes just thrown count (`sixes_counted_as_they_lie` false) */
            kept?: number[];
            /** @description House rules: parameter overrides by name, as `GET /games/{game}` lists them under `parameters`, each value of the type and range listed there */
            rules?: {
                [key: string]: unknown;
            } | null;
            /**
             * @description 1s set aside by earlier conversions
             * @default 0
             */
            set_aside_count?: number;
            /** @description A score, under the call */
            target?: number | null;
            /** @description Throws still allowed after these dice */
            throws_left: number;
        };
        /** ChicagoHoldsResponse */
        ChicagoHoldsResponse: {
            /** @description The call in force: `high` or `low` (null: not made yet, the starter chooses). */
            call: components["schemas"]["Call"] | null;
            /** @description Dice as faces, 1 to 6 each, in ascending order in answers. */
            dice: number[];
            /** @description One ranking of the options per call. */
            rankings: components["schemas"]["RankingOut"][];
            /** @description Content hash of the effective rules (present when `rules` was sent) */
            ruleset_id?: string;
            /** @description How many 1s are set aside by conversions (Chicago). */
            set_aside_count: number;
            /** @description The score to beat (null: none, the starter sets it). */
            target: number | null;
            /** @description Throws still allowed after these dice. */
            throws_left: number;
        };
        /** ChicagoStandingOut */
        ChicagoStandingOut: {
            /** @description Lives at the start of the round. */
            lives: number;
            /** @description The round in which the player went out (null: still in). */
            out_in_round: number | null;
            /** @description A player's name, unique at the table. */
            player: string;
            /** @description Competition rank: 1 is best, equal results share a rank (1, 1, 3). */
            rank: number;
        };
        /**
         * ChicagoThrowIn
         * @description One throw: the three dice as they lie after it, then what the player did with them.
         */
        ChicagoThrowIn: {
            /** @description The call in force: `high` or `low` (null: not made yet, the starter chooses). */
            call?: components["schemas"]["Call"] | null;
            /** @description A conversion of dice (Chicago: sixes turned into a 1), or null for none. */
            conversion?: components["schemas"]["Conversion"] | null;
            /** @description Three dice, 1 to 6 each */
            dice: number[];
            /** @description Dice left on the table for the next throw, set-aside 1s included */
            kept?: number[];
            /** @description A player's name: 1 to 100 characters, no control characters */
            victim?: string | null;
        };
        /**
         * ChicagoThrowsRequest
         * @description A throw, and the turn so far: what stayed on the table from the previous throw and
         *     how many 1s earlier conversions set aside (those may not be thrown again).
         */
        ChicagoThrowsRequest: {
            /** @description The call in force: `high` or `low` (null: not made yet, the starter chooses). */
            call?: components["schemas"]["Call"] | null;
            /** @description Three dice, 1 to 6 each */
            dice: number[];
            /** @description Dice kept on the table from the turn's previous throw, set-aside 1s included (these dice are among `dice`) */
            kept?: number[];
            /** @description House rules: parameter overrides by name, as `GET /games/{game}` lists them under `parameters`, each value of the type and range listed there */
            rules?: {
                [key: string]: unknown;
            } | null;
            /**
             * @description 1s set aside by earlier conversions
             * @default 0
             */
            set_aside_count?: number;
            /** @description Which throw of the turn produced the dice (1 to the game's `throws_per_turn`) */
            throw?: number | null;
            /**
             * @description Which throw of the turn produced the dice (1 to the game's `throws_per_turn`)
             * @default 3
             */
            throws_allowed?: number;
        };
        /** ChicagoThrowsResponse */
        ChicagoThrowsResponse: {
            /** @description The conversions these dice allow or force. */
            conversions: components["schemas"]["ConversionOut"][];
            /** @description Dice as faces, 1 to 6 each, in ascending order in answers. */
            dice: number[];
            /** @description Content hash of the effective rules (present when `rules` was sent) */
            ruleset_id?: string;
            /** @description The throw's score under each call. */
            scores: {
                [key: string]: number;
            };
            /** @description A special throw: `chicago` (1-1-1) or `one_six_five`; null otherwise. */
            special: components["schemas"]["Special"] | null;
            /** @description Throws still allowed after these dice. */
            throws_left: number | null;
        };
        /** ChoiceOut */
        ChoiceOut: {
            /** @description After the set-aside: `bank` the turn points or `throw_on` with the dice left. */
            decision: components["schemas"]["Decision"];
            /** @description Expected points still to come in this turn under best play (Chicago: the expected final score of the throw). */
            expected_points: number;
            /** @description The dice set aside, as faces. */
            set_aside: number[];
            /** @description Exact chance of winning, as a number (null without a target): Chicago, of ending strictly better than the target; Yardkle, of ending the turn with at least `need` points banked, or with an `opponent` of winning the two-player game under optimal play by both. */
            win_probability?: number;
        };
        /**
         * Conversion
         * @enum {string}
         */
        Conversion: "two_sixes" | "three_sixes";
        /** ConversionOut */
        ConversionOut: {
            /** @description Which kind of item this is (the tag of a tagged union, or an event's kind). */
            kind: components["schemas"]["Conversion"];
            /** @description The dice that may stay on the table. */
            may_keep: number[];
            /** @description The dice that must be thrown again. */
            must_rethrow: number[];
            /** @description Whether the conversion is forced. */
            required: boolean;
            /** @description How many 1s are set aside by conversions (Chicago). */
            set_aside_count: number;
        };
        /**
         * Decision
         * @enum {string}
         */
        Decision: "bank" | "throw_on";
        /**
         * DistributionRequest
         * @description A card (and optionally the dice of the turn under way) whose final total to
         *     forecast.
         */
        DistributionRequest: {
            /** @description The dice of the turn under way (with `throws_left`); none: the card at the start of its next turn */
            dice?: number[] | null;
            /** @description A built-in game's id, as `GET /games` lists them; exactly one of `game` and `ruleset` */
            game?: components["schemas"]["ScorecardGame"] | null;
            /** @description The play the distribution follows: `target` (the default with a `target`: every decision for the greatest chance to reach it, followed turn by turn, so for cards near their end) or `expected_points` (the default without one; from any card) */
            play?: components["schemas"]["Play"] | null;
            /** @description House rules: parameter overrides by name, as `GET /games/{game}` lists them under `parameters`, each value of the type and range listed there */
            rules?: {
                [key: string]: unknown;
            } | null;
            /** @description A custom ruleset instead of a built-in `game` (exactly one of the two): the document `GET /games/{game}` returns, changed at will */
            ruleset?: components["schemas"]["RulesetIn"] | null;
            /** @description The player's card so far (omit for an empty card). */
            scorecard?: components["schemas"]["ScorecardIn"] | null;
            /** @description Play to win: the final total to reach (bonuses included); a total above the game's maximum is reached with probability 0 */
            target?: number | null;
            /** @description Throws still allowed this turn (at most the game's `throws_per_turn` - 1) */
            throws_left?: number | null;
        };
        /** DistributionResponse */
        DistributionResponse: {
            /** @description Every final total with a chance above 0, ascending, each with its `probability`. */
            distribution: components["schemas"]["TotalChance"][];
            /** @description A game's id, as `GET /games` lists them. */
            game: string;
            /** @description The greatest final total with a chance above 0 (as for `min`, a chance below 6e-8 may read 0). */
            max: number;
            /** @description The expected final total (bonuses included) under the play `play` names. */
            mean: number;
            /** @description The least final total with a chance above 0 (the tables store chances on a grid of 2**-24, each within 6e-8: a total whose chance is below that may read 0, and is then not listed). */
            min: number;
            /** @description The least final total t with P(final <= t) >= the percentile (`p50`: the median) */
            p1: number;
            /** @description The least final total t with P(final <= t) >= the percentile (`p50`: the median) */
            p5: number;
            /** @description The least final total t with P(final <= t) >= the percentile (`p50`: the median) */
            p25: number;
            /** @description The least final total t with P(final <= t) >= the percentile (`p50`: the median) */
            p50: number;
            /** @description The least final total t with P(final <= t) >= the percentile (`p50`: the median) */
            p75: number;
            /** @description The least final total t with P(final <= t) >= the percentile (`p50`: the median) */
            p95: number;
            /** @description The least final total t with P(final <= t) >= the percentile (`p50`: the median) */
            p99: number;
            /** @description Which play the distribution follows: `expected_points`, every decision for the greatest expected total. */
            play: components["schemas"]["Play"];
            /** @description Content hash of the effective rules (present when `rules` or `ruleset` was sent) */
            ruleset_id?: string;
            /** @description The standard deviation of the final total. */
            sd: number;
            /** @description The request's `target` */
            target?: number;
            /** @description Points in all: a card's total, or a player's banked total. */
            total: number;
            /** @description The chance to reach `target` from here, playing every later decision for the greatest chance (present when the request has a `target`) */
            win_probability?: number;
        };
        /**
         * EntryIn
         * @description One box as written on the sheet, optionally with the dice and throw behind it.
         */
        EntryIn: {
            /** @description A box's id, as listed by `GET /games/{game}` (at most 40 characters) */
            box: string;
            /** @description Five dice, 1 to 6 each */
            dice?: number[] | null;
            /** @description The points this scores. */
            points: number;
            /** @description Which throw of the turn produced the dice (1 to the game's `throws_per_turn`) */
            throw?: number | null;
        };
        /** EntryRuleOut */
        EntryRuleOut: {
            /** @description Whether the rule applies to this turn. */
            applied: boolean;
            /** @description Whether the entry minimum was met. */
            met: boolean;
            /** @description The total that must be reached (or exceeded). */
            threshold: number;
        };
        /** EventOut */
        EventOut: {
            /** @description Which kind of item this is (the tag of a tagged union, or an event's kind). */
            kind: string;
            /** @description The players who lost their last life. */
            knocked_out: string[];
            /** @description The players who lost a life by this event. */
            losers: string[];
            /** @description A player's name, unique at the table. */
            player: string;
            /** @description The score of a throw under the call. */
            score: number | null;
            /** @description Which throw of the turn (1 first). */
            throw: number | null;
            /** @description The player who loses a life by a 1-6-5 (the thrower's choice). */
            victim: string | null;
        };
        /**
         * FaceBox
         * @description An upper box: points by how many dice show `face`.
         */
        FaceBox: {
            /** @description The face the box counts, 1 to 6 (pattern `face`). */
            face: number;
            /** @description Output only: accepted in a request and ignored */
            how?: string;
            /** @description A stable identifier, lower case (`yahtzee`, `full_house`). */
            id: string;
            /** @description Output only: accepted in a request and ignored */
            max_points?: number;
            /** @description A display name, in the game's language. */
            name?: string;
            /** @description Points for three dice of the face, then for four or five (scoring `notches`; fewer score 0). */
            notches?: number[];
            /**
             * @description What the dice must show for the box to score: `face`, `n_of_a_kind`, `pair`, `two_pairs`, `full_house`, `straight`, `chance` or `sum_over` (docs/rules/house-rules.md).
             * @constant
             */
            pattern: "face";
            /**
             * @description How the box's points are counted: `face_sum`, `face_relative`, `notches` (upper boxes), `sum_all`, `sum_formed` or `fixed` (lower boxes).
             * @enum {string}
             */
            scoring: "face_sum" | "face_relative" | "notches";
            /** @description The scorecard section: `upper` or `lower`. */
            section?: components["schemas"]["Section"];
            /** @description The box scores (dice showing its face - target_count) x face, negative below it (scoring `face_relative`). */
            target_count?: number;
        };
        /** FieldError */
        FieldError: {
            /** @description A stable, machine-readable code for the reason (`series_order`, ...). */
            code: string;
            /** @description Where the problem is, as a path into the request (`dice[4]`, `scorecard.filled.ones`). */
            field: string;
            /** @description Why, in English. */
            reason: string;
        };
        /** FiveOfAKindDocument */
        FiveOfAKindDocument: {
            /** @description A box's id, as `GET /games/{game}` lists them. */
            box: string;
            /** @description Points of the extra five-of-a-kind bonus (earned so far on a card; per further five of a kind in a rule). */
            extra_bonus: number;
            /** @description The Joker rule: `forced`, `free_choice` or `none`. */
            joker: components["schemas"]["Joker"];
            /**
             * @description Whether a 0 in the five-of-a-kind box still allows the Joker.
             * @default false
             */
            joker_when_scratched?: boolean;
            /**
             * @description Whether a Joker must go to the matching upper box while it is open (false: any open box at natural value).
             * @default true
             */
            matching_upper_forced?: boolean;
        };
        /** FiveOfAKindOut */
        FiveOfAKindOut: {
            /** @description A box's id, as `GET /games/{game}` lists them. */
            box: string;
            /** @description Points of the extra five-of-a-kind bonus (earned so far on a card; per further five of a kind in a rule). */
            extra_bonus: number;
            /**
             * @description The Joker rule: `forced`, `free_choice` or `none`.
             * @enum {string}
             */
            joker: "forced" | "free_choice" | "none";
            /** @description Whether a 0 in the five-of-a-kind box still allows the Joker. */
            joker_when_scratched: boolean;
            /** @description Whether a Joker must go to the matching upper box while it is open (false: any open box at natural value). */
            matching_upper_forced: boolean;
        };
        /** FullHouseBox */
        FullHouseBox: {
            /** @description The box's points are multiplied by this when made on the turn's first throw (1: no multiplier). */
            first_throw_multiplier?: number;
            /** @description The points the box scores when its pattern is met (scoring `fixed`). */
            fixed_points?: number;
            /**
             * @description Whether a full house needs two different faces (false: five of a kind counts too).
             * @default true
             */
            full_house_distinct?: boolean;
            /** @description Output only: accepted in a request and ignored */
            how?: string;
            /** @description A stable identifier, lower case (`yahtzee`, `full_house`). */
            id: string;
            /** @description Output only: accepted in a request and ignored */
            max_points?: number;
            /** @description A display name, in the game's language. */
            name?: string;
            /**
             * @description What the dice must show for the box to score: `face`, `n_of_a_kind`, `pair`, `two_pairs`, `full_house`, `straight`, `chance` or `sum_over` (docs/rules/house-rules.md).
             * @constant
             */
            pattern: "full_house";
            /** @description Points added whenever the box scores its pattern. */
            premium?: number;
            /** @description Whether the premium is multiplied with the points on a first throw. */
            premium_doubled?: boolean;
            /**
             * @description How the box's points are counted: `face_sum`, `face_relative`, `notches` (upper boxes), `sum_all`, `sum_formed` or `fixed` (lower boxes).
             * @enum {string}
             */
            scoring: "sum_all" | "sum_formed" | "fixed";
            /** @description The scorecard section: `upper` or `lower`. */
            section?: components["schemas"]["Section"];
        };
        /**
         * GameRoundIn
         * @description A round's players in turn order, the starter first; lives are carried by the service.
         */
        GameRoundIn: {
            /** @description Each player's turn, in turn order. */
            turns: components["schemas"]["TurnIn"][];
        };
        /** GameRules */
        GameRules: {
            /** @description The game's boxes, in scorecard order. */
            boxes?: components["schemas"]["BoxRules"][] | null;
            /** @description How many dice the game throws. */
            dice_count: number;
            /** @description How each face 1 to 6 is written in this game. */
            face_labels: string[];
            /** @description The game's family: `scorecard`, `chicago` or `yardkle`. */
            family: string;
            /** @description The five-of-a-kind rule: its box, extra bonus and Joker. */
            five_of_a_kind?: components["schemas"]["FiveOfAKindOut"] | null;
            /** @description A stable identifier, lower case (`yahtzee`, `full_house`). */
            id: string;
            /** @description The most players a game takes (null: no limit). */
            max_players: number | null;
            /** @description The highest score the rules allow; null while loading */
            max_score?: number | null;
            /** @description The fewest players a game takes. */
            min_players: number;
            /** @description A display name, in the game's language. */
            name: string;
            /** @description Expected final score of optimal play from an empty card; null while loading */
            optimal_expected_score?: number | null;
            /**
             * @description Which open boxes a turn may fill: `free` (any), `series` (the upper boxes first) or `forced` (only the first open box, in scorecard order).
             * @enum {null|string}
             */
            order?: "free" | "series" | "forced" | null;
            /** @description Every rule setting, each reading of an unclear rulebook marked. */
            parameters: components["schemas"]["ParameterOut"][];
            /** @description Whether the second series opens only once the first is complete (`order` is `series`). */
            series_order?: boolean | null;
            /** @description The rulebook this ruleset follows. */
            source: string;
            /** @description The ruleset in one paragraph. */
            summary: string;
            /** @description `loading` while the game's solved tables are being loaded (in the background: ask again later), then `ready` */
            tables?: "ready" | "loading";
            /** @description How many throws a turn allows. */
            throws_per_turn: number;
            /** @description The upper bonus: its threshold and points. */
            upper_bonus_rule?: components["schemas"]["UpperBonusOut"] | null;
        };
        /** GameSummary */
        GameSummary: {
            /** @description The game's boxes, in scorecard order. */
            boxes?: components["schemas"]["BoxSummary"][] | null;
            /** @description How many dice the game throws. */
            dice_count: number;
            /** @description The game's family: `scorecard`, `chicago` or `yardkle`. */
            family: string;
            /** @description A stable identifier, lower case (`yahtzee`, `full_house`). */
            id: string;
            /** @description The most players a game takes (null: no limit). */
            max_players: number | null;
            /** @description The fewest players a game takes. */
            min_players: number;
            /** @description A display name, in the game's language. */
            name: string;
            /** @description How many throws a turn allows. */
            throws_per_turn: number;
        };
        /** GameTurnIn */
        GameTurnIn: {
            /** @description How the turn ended: `bank` or `yardkle` (nothing to set aside). */
            end: components["schemas"]["TurnEnd"];
            /** @description A player's name: 1 to 100 characters, no control characters */
            player: string;
            /** @description The throws of the turn, in order. */
            throws: components["schemas"]["YardkleThrowIn"][];
        };
        /** GameTurnOut */
        GameTurnOut: {
            /** @description How the turn ended: `bank` or `yardkle` (nothing to set aside). */
            end: string;
            /** @description Whether this is the player's last turn (after someone reached the target). */
            last_turn: boolean;
            /** @description A player's name, unique at the table. */
            player: string;
            /** @description The points this scores. */
            points: number;
            /** @description Points in all: a card's total, or a player's banked total. */
            total: number;
            /** @description The turn's index in the game (0 first). */
            turn_index: number;
            /** @description Points accumulated in this turn so far. */
            turn_points: number;
        };
        /** Health */
        Health: {
            /** @description The version of the API document the service speaks (`info.version`), as in every response's `X-API-Version` header. */
            api_version: string;
            /** @description `ok` while the process answers; of a ruleset's tables: `ready`, `solving`, `queued` or `failed` (in a problem: the HTTP status, RFC 9457). */
            status: string;
        };
        /**
         * Joker
         * @description What a further five of a kind may fill once the five-of-a-kind box is used.
         * @enum {string}
         */
        Joker: "none" | "forced" | "free_choice";
        /**
         * KeepOption
         * @description Keep these dice (ascending) and throw the others.
         */
        KeepOption: {
            /** @description Whether this option is among the best (ties included). */
            best: boolean;
            /** @description Expected final score of the card under optimal play from here, bonuses included. */
            expected_total: number;
            /** @description The dice to keep (ascending); the others are thrown again. */
            keep: number[];
            /**
             * @description Which kind of item this is (the tag of a tagged union, or an event's kind).
             * @constant
             */
            kind: "keep";
            /** @description What this option costs against the best, in the coach's unit (expected points or total, or win probability); 0 for a best option. */
            loss: number;
            /** @description The chance to reach `target` from here, playing every later decision for the greatest chance (present when the request has a `target`) */
            win_probability?: number;
        };
        /** OfAKindBox */
        OfAKindBox: {
            /** @description The box's points are multiplied by this when made on the turn's first throw (1: no multiplier). */
            first_throw_multiplier?: number;
            /** @description The points the box scores when its pattern is met (scoring `fixed`). */
            fixed_points?: number;
            /** @description Output only: accepted in a request and ignored */
            how?: string;
            /** @description A stable identifier, lower case (`yahtzee`, `full_house`). */
            id: string;
            /** @description Output only: accepted in a request and ignored */
            max_points?: number;
            /** @description A display name, in the game's language. */
            name?: string;
            /** @description How many dice of one face the box needs (pattern `n_of_a_kind`: 3 is three of a kind, 5 five of a kind). */
            of_a_kind_count: number;
            /**
             * @description What the dice must show for the box to score: `face`, `n_of_a_kind`, `pair`, `two_pairs`, `full_house`, `straight`, `chance` or `sum_over` (docs/rules/house-rules.md).
             * @constant
             */
            pattern: "n_of_a_kind";
            /** @description Points added whenever the box scores its pattern. */
            premium?: number;
            /** @description Whether the premium is multiplied with the points on a first throw. */
            premium_doubled?: boolean;
            /**
             * @description How the box's points are counted: `face_sum`, `face_relative`, `notches` (upper boxes), `sum_all`, `sum_formed` or `fixed` (lower boxes).
             * @enum {string}
             */
            scoring: "sum_all" | "sum_formed" | "fixed";
            /** @description The scorecard section: `upper` or `lower`. */
            section?: components["schemas"]["Section"];
        };
        /**
         * OpponentIn
         * @description The one opponent of a two-player game: the banked total and the pad.
         */
        OpponentIn: {
            /** @description Whether the player has reached the entry minimum once (is on the pad). */
            on_pad: boolean;
            /** @description The player's banked total, a multiple of the scoring unit (50), under the target */
            total: number;
        };
        /** OptionOut */
        OptionOut: {
            /** @description All the bonus points this placement earns: `upper_bonus` + `extra_bonus`. */
            bonus: number;
            /** @description A box's id, as `GET /games/{game}` lists them. */
            box: string;
            /** @description Points of the extra five-of-a-kind bonus (earned so far on a card; per further five of a kind in a rule). */
            extra_bonus: number;
            /** @description A display name, in the game's language. */
            name: string;
            /** @description The points this scores. */
            points: number;
            /** @description Points of the upper bonus earned. */
            upper_bonus: number;
        };
        /**
         * Order
         * @description Which open boxes a turn may fill.
         * @enum {string}
         */
        Order: "free" | "series" | "forced";
        /** PairBox */
        PairBox: {
            /** @description The box's points are multiplied by this when made on the turn's first throw (1: no multiplier). */
            first_throw_multiplier?: number;
            /** @description The points the box scores when its pattern is met (scoring `fixed`). */
            fixed_points?: number;
            /** @description Output only: accepted in a request and ignored */
            how?: string;
            /** @description A stable identifier, lower case (`yahtzee`, `full_house`). */
            id: string;
            /** @description Output only: accepted in a request and ignored */
            max_points?: number;
            /** @description A display name, in the game's language. */
            name?: string;
            /**
             * @description What the dice must show for the box to score: `face`, `n_of_a_kind`, `pair`, `two_pairs`, `full_house`, `straight`, `chance` or `sum_over` (docs/rules/house-rules.md).
             * @constant
             */
            pattern: "pair";
            /** @description Points added whenever the box scores its pattern. */
            premium?: number;
            /** @description Whether the premium is multiplied with the points on a first throw. */
            premium_doubled?: boolean;
            /**
             * @description How the box's points are counted: `face_sum`, `face_relative`, `notches` (upper boxes), `sum_all`, `sum_formed` or `fixed` (lower boxes).
             * @enum {string}
             */
            scoring: "sum_all" | "sum_formed" | "fixed";
            /** @description The scorecard section: `upper` or `lower`. */
            section?: components["schemas"]["Section"];
        };
        /**
         * ParameterIn
         * @description A rule setting sent back in a custom `ruleset` (where it is ignored): one without a
         *     `label`, as in a document saved from a service older than labels, is taken too.
         */
        ParameterIn: {
            /** @description What each of `choices` means, by choice: `description` says what the game plays, this what another choice would play (null: no choices, or one). */
            choice_descriptions?: {
                [key: string]: string;
            } | null;
            /** @description The values a string parameter allows (null: any). */
            choices?: string[] | null;
            /** @description What the parameter means, in English. */
            description: string;
            /**
             * @description The parameter's short human name ("Upper bonus threshold"), for a page to show; `name` is what a request sets.
             * @default
             */
            label?: string;
            /** @description The number of items an integer-list parameter takes (null: any). */
            length?: number | null;
            /** @description The greatest value an integer parameter (or each item of a list) allows (null: none). */
            maximum?: number | null;
            /** @description The least value an integer parameter (or each item of a list) allows (null: none). */
            minimum?: number | null;
            /** @description A display name, in the game's language. */
            name: string;
            /** @description Whether this is a reading of an unclear rulebook passage. */
            reading: boolean;
            /** @description Whether a request may set this parameter under `rules` (false: reported for information). */
            settable: boolean;
            /** @description The setting's value. */
            value: number | boolean | string | number[];
            /**
             * @description The JSON type of the parameter's value: `boolean`, `integer`, `string` or `integer_list`.
             * @enum {string}
             */
            value_type: "boolean" | "integer" | "string" | "integer_list";
        };
        /**
         * ParameterOut
         * @description A rule setting as a client reads it, and may set it per request under `rules`.
         */
        ParameterOut: {
            /** @description What each of `choices` means, by choice: `description` says what the game plays, this what another choice would play (null: no choices, or one). */
            choice_descriptions?: {
                [key: string]: string;
            } | null;
            /** @description The values a string parameter allows (null: any). */
            choices?: string[] | null;
            /** @description What the parameter means, in English. */
            description: string;
            /** @description The parameter's short human name ("Upper bonus threshold"), for a page to show; `name` is what a request sets. */
            label: string;
            /** @description The number of items an integer-list parameter takes (null: any). */
            length?: number | null;
            /** @description The greatest value an integer parameter (or each item of a list) allows (null: none). */
            maximum?: number | null;
            /** @description The least value an integer parameter (or each item of a list) allows (null: none). */
            minimum?: number | null;
            /** @description A display name, in the game's language. */
            name: string;
            /** @description Whether this is a reading of an unclear rulebook passage. */
            reading: boolean;
            /** @description Whether a request may set this parameter under `rules` (false: reported for information). */
            settable: boolean;
            /** @description The setting's value. */
            value: number | boolean | string | number[];
            /**
             * @description The JSON type of the parameter's value: `boolean`, `integer`, `string` or `integer_list`.
             * @enum {string}
             */
            value_type: "boolean" | "integer" | "string" | "integer_list";
        };
        /** PartOut */
        PartOut: {
            /** @description A scoring combination's id. */
            combination: string;
            /** @description Dice as faces, 1 to 6 each, in ascending order in answers. */
            dice: number[];
            /** @description A display name, in the game's language. */
            name: string;
            /** @description The points this scores. */
            points: number;
        };
        /**
         * Play
         * @description Which play the reported distribution follows.
         * @enum {string}
         */
        Play: "expected_points" | "target";
        /** PlayerIn */
        PlayerIn: {
            /** @description Lives at the start of the round */
            lives: number;
            /** @description A player's name: 1 to 100 characters, no control characters */
            player: string;
            /** @description The player's throws in order */
            throws?: components["schemas"]["ChicagoThrowIn"][];
        };
        /** PlayerOut */
        PlayerOut: {
            /** @description Dice as faces, 1 to 6 each, in ascending order in answers. */
            dice: number[] | null;
            /** @description Lives at the start of the round. */
            lives: number;
            /** @description Lives after the round. */
            lives_after: number;
            /** @description Lives lost in the round. */
            lives_lost: number;
            /** @description Whether the player has no life left. */
            out: boolean;
            /** @description A player's name, unique at the table. */
            player: string;
            /** @description The score of a throw under the call. */
            score: number | null;
            /** @description A special throw: `chicago` (1-1-1) or `one_six_five`; null otherwise. */
            special: components["schemas"]["Special"] | null;
            /** @description How many throws the player made. */
            throw_count: number;
        };
        /**
         * ProblemDetails
         * @description RFC 9457 body; `errors` names each offending field and why.
         */
        ProblemDetails: {
            /** @description What went wrong, in English, naming the fields (RFC 9457). */
            detail: string;
            /** @description Every offending field, with a reason. */
            errors?: components["schemas"]["FieldError"][];
            /**
             * @description The path of the request that failed (RFC 9457).
             * @default
             */
            instance?: string;
            /** @description How far the solve of a ruleset's tables is, 0 to 1 (1: ready). */
            progress?: number | null;
            /**
             * @description The request's id, as in the `X-Request-ID` response header (the client's own when it sent a well-formed one): quote it when reporting a problem.
             * @default
             */
            request_id?: string;
            /** @description Seconds to wait before retrying (also the `Retry-After` header). */
            retry_after?: number | null;
            /** @description `ok` while the process answers; of a ruleset's tables: `ready`, `solving`, `queued` or `failed` (in a problem: the HTTP status, RFC 9457). */
            status: number;
            /** @description A short summary of the problem type (RFC 9457). */
            title: string;
            /** @description The problem type, a URI (RFC 9457). */
            type: string;
        };
        /** ProblemOut */
        ProblemOut: {
            /** @description A box's id, as `GET /games/{game}` lists them. */
            box: string | null;
            /** @description Where the problem is, as a path into the request (`dice[4]`, `scorecard.filled.ones`). */
            field: string;
            /** @description Why, in English. */
            reason: string;
        };
        /** RankingOut */
        RankingOut: {
            /** @description The call in force: `high` or `low` (null: not made yet, the starter chooses). */
            call: components["schemas"]["Call"];
            /** @description Every choice, best first. */
            options: components["schemas"]["ChicagoHoldOut"][];
        };
        /** ReachedOut */
        ReachedOut: {
            /** @description A player's name, unique at the table. */
            player: string;
            /** @description Points in all: a card's total, or a player's banked total. */
            total: number;
            /** @description The turn's index in the game (0 first). */
            turn_index: number;
        };
        /**
         * ReviewDecisionOut
         * @description One decision: the keep after a throw followed by another, else the box.
         */
        ReviewDecisionOut: {
            /** @description The best options of the decision (ties included), each with its value. */
            best_options: (components["schemas"]["KeepOption"] | components["schemas"]["BoxOption"])[];
            /** @description The option the player chose, with its value and loss. */
            chosen: components["schemas"]["KeepOption"] | components["schemas"]["BoxOption"];
            /** @description The decision's index in its turn (0 first, one per throw). */
            decision_index: number;
            /** @description Dice as faces, 1 to 6 each, in ascending order in answers. */
            dice: number[];
            /** @description What this option costs against the best, in the coach's unit (expected points or total, or win probability); 0 for a best option. */
            loss: number;
            /** @description Which throw of the turn (1 first). */
            throw: number;
            /** @description Throws still allowed after these dice. */
            throws_left: number;
            /** @description The turn's index in the game (0 first). */
            turn_index: number;
            /** @description With a `target`: the best chance to reach it minus the chosen option's (0 for a best option) */
            win_loss?: number;
        };
        /**
         * ReviewRequest
         * @description A game as played, from the empty card: complete or part-played; a built-in `game`
         *     (under its `rules`) or a custom `ruleset`.
         */
        ReviewRequest: {
            /** @description A built-in game's id, as `GET /games` lists them; exactly one of `game` and `ruleset` */
            game?: components["schemas"]["ScorecardGame"] | null;
            /** @description House rules: parameter overrides by name, as `GET /games/{game}` lists them under `parameters`, each value of the type and range listed there */
            rules?: {
                [key: string]: unknown;
            } | null;
            /** @description A custom ruleset instead of a built-in `game` (exactly one of the two): the document `GET /games/{game}` returns, changed at will */
            ruleset?: components["schemas"]["RulesetIn"] | null;
            /** @description Play to win: the final total to reach (bonuses included); a total above the game's maximum is reached with probability 0 */
            target?: number | null;
            /** @description Each player's turn, in turn order. */
            turns: components["schemas"]["ReviewTurnIn"][];
        };
        /** ReviewResponse */
        ReviewResponse: {
            /** @description Whether every box of the card (or sheet) is filled. */
            complete: boolean;
            /** @description The costliest decisions of the game (at most three), costliest first. */
            costliest: components["schemas"]["ReviewDecisionOut"][];
            /** @description How many decisions the review valued. */
            decision_count: number;
            /** @description The sum of the decisions' `loss`: what the play gave away in expectation. */
            expected_loss: number;
            /** @description The card's (or banked) total after the turns reviewed. */
            final_total: number;
            /** @description A game's id, as `GET /games` lists them. */
            game: string;
            /** @description Final total minus optimal expected score plus expected loss: what the dice gave beyond expectation (null for a part-played game). */
            luck: number | null;
            /** @description `expected_loss` per decision (0 with none). */
            mean_loss: number;
            /** @description The game's expected_total from an empty card under optimal play, null while its table is loading. */
            optimal_expected_score: number;
            /** @description Content hash of the effective rules (present when `rules` or `ruleset` was sent) */
            ruleset_id?: string;
            /** @description The request's `target` */
            target?: number;
            /** @description Each player's turn, in turn order. */
            turns: components["schemas"]["TurnReviewOut"][];
        };
        /**
         * ReviewTurnIn
         * @description One turn as played.
         */
        ReviewTurnIn: {
            /** @description A box's id, as listed by `GET /games/{game}` (at most 40 characters) */
            box: string;
            /** @description One keep per throw but the last */
            keeps?: number[][];
            /** @description The five dice as they lay after each throw, kept dice included */
            throws: number[][];
        };
        /**
         * RoundRequest
         * @description The players in turn order, the starter first, with their lives and throws.
         */
        RoundRequest: {
            /** @description Players the game began with; omit for the first round */
            players_at_start?: number | null;
            /** @description House rules: parameter overrides by name, as `GET /games/{game}` lists them under `parameters`, each value of the type and range listed there */
            rules?: {
                [key: string]: unknown;
            } | null;
            /** @description Each player's turn, in turn order. */
            turns: components["schemas"]["PlayerIn"][];
        };
        /** RoundResponse */
        RoundResponse: {
            /** @description The call in force: `high` or `low` (null: not made yet, the starter chooses). */
            call: components["schemas"]["Call"] | null;
            /** @description The event that ended the round. */
            ended_by: string;
            /** @description What happened in the round, in order: who lost lives and why. */
            events: components["schemas"]["EventOut"][];
            /** @description Whether the game is over. */
            game_over: boolean;
            /** @description The players who lost their last life. */
            knocked_out: string[];
            /** @description Who starts the next round (null: drawn by lot, or the game is over). */
            next_starter: string | null;
            /** @description Content hash of the effective rules (present when `rules` was sent) */
            ruleset_id?: string;
            /** @description The most throws each player may make this round. */
            throw_limit: number;
            /** @description Each player's turn, in turn order. */
            turns: components["schemas"]["PlayerOut"][];
            /** @description The winner (null: the game goes on). */
            winner: string | null;
        };
        /**
         * RulesetIn
         * @description A complete scorecard ruleset in the shape `GET /games/{game}` returns: fetch a game,
         *     change it, send it back.  Its computed figures and prose are accepted and ignored.
         */
        RulesetIn: {
            /** @description The game's boxes, in scorecard order. */
            boxes: (components["schemas"]["FaceBox"] | components["schemas"]["OfAKindBox"] | components["schemas"]["PairBox"] | components["schemas"]["TwoPairsBox"] | components["schemas"]["FullHouseBox"] | components["schemas"]["StraightBox"] | components["schemas"]["ChanceBox"] | components["schemas"]["SumOverBox"])[];
            /** @description How many dice the game throws. */
            dice_count: number;
            /** @description How each face 1 to 6 is written in this game. */
            face_labels?: string[] | null;
            /**
             * @description The game's family: `scorecard`, `chicago` or `yardkle`.
             * @default scorecard
             * @constant
             */
            family?: "scorecard";
            /** @description The five-of-a-kind rule: its box, extra bonus and Joker. */
            five_of_a_kind?: components["schemas"]["FiveOfAKindDocument"] | null;
            /** @description A stable identifier, lower case (`yahtzee`, `full_house`). */
            id: string;
            /** @description The most players a game takes (null: no limit). */
            max_players?: number | null;
            /** @description Output only: accepted in a request and ignored */
            max_score?: number | null;
            /**
             * @description The fewest players a game takes.
             * @default 1
             */
            min_players?: number;
            /** @description A display name, in the game's language. */
            name: string;
            /** @description Output only: accepted in a request and ignored */
            optimal_expected_score?: number | null;
            /** @description Which open boxes a turn may fill: `free` (any), `series` (the upper boxes first) or `forced` (only the first open box, in scorecard order). */
            order: components["schemas"]["Order"];
            /** @description Output only: accepted in a request and ignored */
            parameters?: components["schemas"]["ParameterIn"][];
            /** @description Whether the second series opens only once the first is complete (`order` is `series`). */
            series_order?: boolean | null;
            /** @description Output only: accepted in a request and ignored */
            source?: string;
            /** @description Output only: accepted in a request and ignored */
            summary?: string;
            /** @description Output only: accepted in a request and ignored */
            tables?: "ready" | "loading";
            /** @description How many throws a turn allows. */
            throws_per_turn: number;
            /** @description The upper bonus: its threshold and points. */
            upper_bonus_rule: components["schemas"]["UpperBonusRule"];
        };
        /** RulesetRequest */
        RulesetRequest: {
            /** @description A game's id, as `GET /games` lists them. */
            game?: components["schemas"]["AnyGame"] | null;
            /** @description House rules: parameter overrides by name, as `GET /games/{game}` lists them under `parameters`, each value of the type and range listed there */
            rules?: {
                [key: string]: unknown;
            } | null;
            /** @description A custom ruleset instead of a built-in `game` (exactly one of the two): the document `GET /games/{game}` returns, changed at will */
            ruleset?: components["schemas"]["RulesetIn"] | null;
        };
        /** RulesetResponse */
        RulesetResponse: {
            /** @description A game's id, as `GET /games` lists them. */
            game: string;
            /** @description The highest score the rules allow; null until solved */
            max_score: number | null;
            /** @description Expected final score of optimal play from an empty card; null until solved */
            optimal_expected_score: number | null;
            /** @description How far the solve of a ruleset's tables is, 0 to 1 (1: ready). */
            progress: number;
            /** @description A game's complete rules, in the shape `GET /games/{game}` returns (in a scorecard request: a custom ruleset instead of a built-in `game`). */
            ruleset: components["schemas"]["GameRules"];
            /** @description Content hash of the effective rules */
            ruleset_id: string;
            /**
             * @description Where the ruleset's tables stand: `ready` (the coach answers), `solving` (see `progress`), `queued` (waiting for a solver) or `failed`
             * @enum {string}
             */
            status: "ready" | "solving" | "queued" | "failed";
        };
        /**
         * ScorecardGame
         * @enum {string}
         */
        ScorecardGame: "yahtzee" | "yardzee" | "dice-poker" | "russian-poker" | "chute-5" | "yatzy";
        /** ScorecardHoldsRequest */
        ScorecardHoldsRequest: {
            /** @description Five dice, 1 to 6 each */
            dice: number[];
            /** @description A built-in game's id, as `GET /games` lists them; exactly one of `game` and `ruleset` */
            game?: components["schemas"]["ScorecardGame"] | null;
            /** @description House rules: parameter overrides by name, as `GET /games/{game}` lists them under `parameters`, each value of the type and range listed there */
            rules?: {
                [key: string]: unknown;
            } | null;
            /** @description A custom ruleset instead of a built-in `game` (exactly one of the two): the document `GET /games/{game}` returns, changed at will */
            ruleset?: components["schemas"]["RulesetIn"] | null;
            /** @description The player's card so far (omit for an empty card). */
            scorecard?: components["schemas"]["ScorecardIn"] | null;
            /** @description Play to win: the final total to reach (bonuses included); a total above the game's maximum is reached with probability 0 */
            target?: number | null;
            /** @description Which throw of the turn produced the dice (1 to the game's `throws_per_turn`) */
            throw?: number | null;
            /** @description Throws still allowed this turn (at most the game's `throws_per_turn` - 1) */
            throws_left: number;
        };
        /** ScorecardHoldsResponse */
        ScorecardHoldsResponse: {
            /** @description Dice as faces, 1 to 6 each, in ascending order in answers. */
            dice: number[];
            /** @description A game's id, as `GET /games` lists them. */
            game: string;
            /** @description Every choice, best first. */
            options: (components["schemas"]["KeepOption"] | components["schemas"]["BoxOption"])[];
            /** @description Content hash of the effective rules (present when `rules` or `ruleset` was sent) */
            ruleset_id?: string;
            /** @description The request's `target` */
            target?: number;
            /** @description Throws still allowed after these dice. */
            throws_left: number;
            /** @description Points in all: a card's total, or a player's banked total. */
            total: number;
        };
        /**
         * ScorecardIn
         * @description The boxes filled so far and the extra five-of-a-kind bonus already earned.
         */
        ScorecardIn: {
            /**
             * @description Points of the extra five-of-a-kind bonus (earned so far on a card; per further five of a kind in a rule).
             * @default 0
             */
            extra_bonus?: number;
            /** @description The boxes filled so far: box id to the points written. */
            filled?: {
                [key: string]: number;
            };
        };
        /** ScoreRequest */
        ScoreRequest: {
            /** @description Five dice, 1 to 6 each */
            dice: number[];
            /** @description A built-in game's id, as `GET /games` lists them; exactly one of `game` and `ruleset` */
            game?: components["schemas"]["ScorecardGame"] | null;
            /** @description House rules: parameter overrides by name, as `GET /games/{game}` lists them under `parameters`, each value of the type and range listed there */
            rules?: {
                [key: string]: unknown;
            } | null;
            /** @description A custom ruleset instead of a built-in `game` (exactly one of the two): the document `GET /games/{game}` returns, changed at will */
            ruleset?: components["schemas"]["RulesetIn"] | null;
            /** @description The player's card so far (omit for an empty card). */
            scorecard?: components["schemas"]["ScorecardIn"] | null;
            /** @description Which throw of the turn produced the dice (1 to the game's `throws_per_turn`) */
            throw?: number | null;
        };
        /** ScoreResponse */
        ScoreResponse: {
            /** @description The open boxes these dice may not fill now, each with the rule that closes it. */
            blocked: components["schemas"]["BlockedOut"][];
            /** @description Dice as faces, 1 to 6 each, in ascending order in answers. */
            dice: number[];
            /** @description A game's id, as `GET /games` lists them. */
            game: string;
            /** @description Every choice, best first. */
            options: components["schemas"]["OptionOut"][];
            /** @description Content hash of the effective rules (present when `rules` or `ruleset` was sent) */
            ruleset_id?: string;
            /** @description Points in all: a card's total, or a player's banked total. */
            total: number;
        };
        /**
         * Section
         * @enum {string}
         */
        Section: "upper" | "lower";
        /** SetAsideOut */
        SetAsideOut: {
            /** @description Dice as faces, 1 to 6 each, in ascending order in answers. */
            dice: number[];
            /** @description How many dice the next throw uses (all of them again after hot dice). */
            dice_left_count: number;
            /** @description Whether every die is set aside, so all of them may be thrown again. */
            hot_dice: boolean;
            /** @description The points this scores. */
            points: number;
            /** @description How the set-aside divides into scoring combinations. */
            split: components["schemas"]["PartOut"][];
        };
        /** SheetIn */
        SheetIn: {
            /** @description The total written on the sheet, to check (null: not written). */
            claimed_total?: number | null;
            /** @description The upper bonus written on the sheet, to check (null: not written). */
            claimed_upper_bonus?: number | null;
            /** @description The boxes written on the sheet, in the order they were filled. */
            entries: components["schemas"]["EntryIn"][];
            /**
             * @description Points of the extra five-of-a-kind bonus (earned so far on a card; per further five of a kind in a rule).
             * @default 0
             */
            extra_bonus?: number;
            /** @description A player's name: 1 to 100 characters, no control characters */
            player: string;
        };
        /** SheetOut */
        SheetOut: {
            /** @description Whether every box of the card (or sheet) is filled. */
            complete: boolean;
            /** @description Points of the extra five-of-a-kind bonus (earned so far on a card; per further five of a kind in a rule). */
            extra_bonus: number;
            /** @description A player's name, unique at the table. */
            player: string;
            /** @description Every problem found on the sheet. */
            problems: components["schemas"]["ProblemOut"][];
            /** @description Competition rank: 1 is best, equal results share a rank (1, 1, 3). */
            rank: number;
            /** @description Points in all: a card's total, or a player's banked total. */
            total: number;
            /** @description Points of the upper bonus earned. */
            upper_bonus: number;
            /** @description Points in the upper section. */
            upper_subtotal: number;
            /** @description Whether the sheet has no problem. */
            valid: boolean;
        };
        /**
         * Special
         * @enum {string}
         */
        Special: "chicago" | "one_six_five";
        /** Standing */
        Standing: {
            /** @description A player's name, unique at the table. */
            player: string;
            /** @description Competition rank: 1 is best, equal results share a rank (1, 1, 3). */
            rank: number;
            /** @description Points in all: a card's total, or a player's banked total. */
            total: number;
        };
        /** StraightBox */
        StraightBox: {
            /** @description The box's points are multiplied by this when made on the turn's first throw (1: no multiplier). */
            first_throw_multiplier?: number;
            /** @description The points the box scores when its pattern is met (scoring `fixed`). */
            fixed_points?: number;
            /** @description Output only: accepted in a request and ignored */
            how?: string;
            /** @description A stable identifier, lower case (`yahtzee`, `full_house`). */
            id: string;
            /** @description Output only: accepted in a request and ignored */
            max_points?: number;
            /** @description A display name, in the game's language. */
            name?: string;
            /**
             * @description What the dice must show for the box to score: `face`, `n_of_a_kind`, `pair`, `two_pairs`, `full_house`, `straight`, `chance` or `sum_over` (docs/rules/house-rules.md).
             * @constant
             */
            pattern: "straight";
            /** @description Points added whenever the box scores its pattern. */
            premium?: number;
            /** @description Whether the premium is multiplied with the points on a first throw. */
            premium_doubled?: boolean;
            /** @description The runs of faces that make the straight, any one of them (ascending faces). */
            runs: number[][];
            /**
             * @description How the box's points are counted: `face_sum`, `face_relative`, `notches` (upper boxes), `sum_all`, `sum_formed` or `fixed` (lower boxes).
             * @enum {string}
             */
            scoring: "sum_all" | "sum_formed" | "fixed";
            /** @description The scorecard section: `upper` or `lower`. */
            section?: components["schemas"]["Section"];
        };
        /** SumOverBox */
        SumOverBox: {
            /** @description The box's points are multiplied by this when made on the turn's first throw (1: no multiplier). */
            first_throw_multiplier?: number;
            /** @description The points the box scores when its pattern is met (scoring `fixed`). */
            fixed_points?: number;
            /** @description Output only: accepted in a request and ignored */
            how?: string;
            /** @description A stable identifier, lower case (`yahtzee`, `full_house`). */
            id: string;
            /** @description Output only: accepted in a request and ignored */
            max_points?: number;
            /** @description A display name, in the game's language. */
            name?: string;
            /**
             * @description What the dice must show for the box to score: `face`, `n_of_a_kind`, `pair`, `two_pairs`, `full_house`, `straight`, `chance` or `sum_over` (docs/rules/house-rules.md).
             * @constant
             */
            pattern: "sum_over";
            /** @description Points added whenever the box scores its pattern. */
            premium?: number;
            /** @description Whether the premium is multiplied with the points on a first throw. */
            premium_doubled?: boolean;
            /**
             * @description How the box's points are counted: `face_sum`, `face_relative`, `notches` (upper boxes), `sum_all`, `sum_formed` or `fixed` (lower boxes).
             * @enum {string}
             */
            scoring: "sum_all" | "sum_formed" | "fixed";
            /** @description The scorecard section: `upper` or `lower`. */
            section?: components["schemas"]["Section"];
            /** @description The dice must total more than this (pattern `sum_over`). */
            total_over: number;
        };
        /** ThrowOut */
        ThrowOut: {
            /** @description Dice as faces, 1 to 6 each, in ascending order in answers. */
            dice: number[];
            /** @description How many dice the next throw uses (all of them again after hot dice). */
            dice_left_count: number;
            /** @description Whether every die is set aside, so all of them may be thrown again. */
            hot_dice: boolean;
            /** @description The points this scores. */
            points: number;
            /** @description The turn's points after this throw. */
            running_total: number;
            /** @description The dice set aside, as faces. */
            set_aside: number[];
            /** @description How the set-aside divides into scoring combinations. */
            split: components["schemas"]["PartOut"][];
            /** @description Whether the throw scores nothing (a Yardkle: the turn is lost). */
            yardkle: boolean;
        };
        /**
         * TotalChance
         * @description One final total and its chance.
         */
        TotalChance: {
            /** @description The chance of this final total. */
            probability: number;
            /** @description Points in all: a card's total, or a player's banked total. */
            total: number;
        };
        /**
         * TurnEnd
         * @enum {string}
         */
        TurnEnd: "bank" | "yardkle";
        /** TurnIn */
        TurnIn: {
            /** @description A player's name: 1 to 100 characters, no control characters */
            player: string;
            /** @description The player's throws in order */
            throws?: components["schemas"]["ChicagoThrowIn"][];
        };
        /**
         * TurnRequest
         * @description A turn as played: its throws, the dice set aside after each, and how it ended.
         */
        TurnRequest: {
            /**
             * @description Points, a multiple of the scoring unit (50)
             * @default 0
             */
            banked_total?: number;
            /** @description How the turn ended: `bank` or `yardkle` (nothing to set aside). */
            end: components["schemas"]["TurnEnd"];
            /** @description House rules: parameter overrides by name, as `GET /games/{game}` lists them under `parameters`, each value of the type and range listed there */
            rules?: {
                [key: string]: unknown;
            } | null;
            /** @description The throws of the turn, in order. */
            throws: components["schemas"]["YardkleThrowIn"][];
        };
        /** TurnResponse */
        TurnResponse: {
            /** @description The player's total before this turn. */
            banked_total: number;
            /** @description How the turn ended: `bank` or `yardkle` (nothing to set aside). */
            end: string;
            /** @description The entry minimum: whether it applied to this turn and was met. */
            entry_rule: components["schemas"]["EntryRuleOut"];
            /** @description The player's total after this turn. */
            new_total: number;
            /** @description Whether the player has reached the entry minimum once (is on the pad). */
            on_pad: boolean;
            /** @description The points this scores. */
            points: number;
            /** @description Content hash of the effective rules (present when `rules` was sent) */
            ruleset_id?: string;
            /** @description The throws of the turn, in order. */
            throws: components["schemas"]["ThrowOut"][];
            /** @description Points accumulated in this turn so far. */
            turn_points: number;
        };
        /** TurnReviewOut */
        TurnReviewOut: {
            /** @description A box's id, as `GET /games/{game}` lists them. */
            box: string;
            /** @description Every decision of the turn, in the order made: a keep after each throw but the last, then the box (Yardkle: a set-aside and bank or throw on, per throw). */
            decisions: components["schemas"]["ReviewDecisionOut"][];
            /** @description What this option costs against the best, in the coach's unit (expected points or total, or win probability); 0 for a best option. */
            loss: number;
            /** @description The points this scores. */
            points: number;
            /** @description Points in all: a card's total, or a player's banked total. */
            total: number;
            /** @description The turn's index in the game (0 first). */
            turn_index: number;
        };
        /** TwoPairsBox */
        TwoPairsBox: {
            /** @description The box's points are multiplied by this when made on the turn's first throw (1: no multiplier). */
            first_throw_multiplier?: number;
            /** @description The points the box scores when its pattern is met (scoring `fixed`). */
            fixed_points?: number;
            /** @description Output only: accepted in a request and ignored */
            how?: string;
            /** @description A stable identifier, lower case (`yahtzee`, `full_house`). */
            id: string;
            /** @description Output only: accepted in a request and ignored */
            max_points?: number;
            /** @description A display name, in the game's language. */
            name?: string;
            /**
             * @description What the dice must show for the box to score: `face`, `n_of_a_kind`, `pair`, `two_pairs`, `full_house`, `straight`, `chance` or `sum_over` (docs/rules/house-rules.md).
             * @constant
             */
            pattern: "two_pairs";
            /** @description Points added whenever the box scores its pattern. */
            premium?: number;
            /** @description Whether the premium is multiplied with the points on a first throw. */
            premium_doubled?: boolean;
            /**
             * @description How the box's points are counted: `face_sum`, `face_relative`, `notches` (upper boxes), `sum_all`, `sum_formed` or `fixed` (lower boxes).
             * @enum {string}
             */
            scoring: "sum_all" | "sum_formed" | "fixed";
            /** @description The scorecard section: `upper` or `lower`. */
            section?: components["schemas"]["Section"];
            /**
             * @description Whether two pairs need two different faces (false: four of a kind counts too).
             * @default true
             */
            two_pairs_distinct?: boolean;
        };
        /** UpperBonusOut */
        UpperBonusOut: {
            /** @description The points this scores. */
            points: number;
            /** @description Whether the total must exceed the threshold (not just reach it). */
            strictly_greater: boolean;
            /** @description The total that must be reached (or exceeded). */
            threshold: number;
        };
        /** UpperBonusRule */
        UpperBonusRule: {
            /** @description The points this scores. */
            points: number;
            /**
             * @description Whether the total must exceed the threshold (not just reach it).
             * @default false
             */
            strictly_greater?: boolean;
            /** @description The total that must be reached (or exceeded). */
            threshold: number;
        };
        /**
         * YardkleDecisionOut
         * @description After a throw that scored: the set-aside, then bank or throw on.
         */
        YardkleDecisionOut: {
            /** @description The best options of the decision (ties included), each with its value. */
            best_options: components["schemas"]["ChoiceOut"][];
            /** @description The option the player chose, with its value and loss. */
            chosen: components["schemas"]["ChoiceOut"];
            /** @description The decision's index in its turn (0 first, one per throw). */
            decision_index: number;
            /** @description Dice as faces, 1 to 6 each, in ascending order in answers. */
            dice: number[];
            /** @description What this option costs against the best, in the coach's unit (expected points or total, or win probability); 0 for a best option. */
            loss: number;
            /** @description Which throw of the turn (1 first). */
            throw: number;
            /** @description The turn's index in the game (0 first). */
            turn_index: number;
            /** @description Points accumulated in this turn so far. */
            turn_points: number;
            /** @description With the turn's `opponent`: the best chance to win the game minus the chosen decision's, under two-player optimal play (0 for a best decision; left out after throwing on from turn points where banking is proven best, which the two-player table holds no value for) */
            win_loss?: number;
        };
        /**
         * YardkleGameRequest
         * @description Players in turn order (the first listed starts) and the turns played so far; with
         *     `chances`, each player's chance to win (two players).
         */
        YardkleGameRequest: {
            /**
             * @description Whether each standing also gives the player's `win_probability` under optimal play by both (two players only; left out while the game's two-player table is not loaded, which is then solved in the background, and once the game is over).
             * @default false
             */
            chances?: boolean;
            /** @description The players' names, in seating order. */
            players: string[];
            /** @description House rules: parameter overrides by name, as `GET /games/{game}` lists them under `parameters`, each value of the type and range listed there */
            rules?: {
                [key: string]: unknown;
            } | null;
            /** @description Each player's turn, in turn order. */
            turns?: components["schemas"]["GameTurnIn"][];
        };
        /** YardkleGameResponse */
        YardkleGameResponse: {
            /** @description Whether the game is over (every last turn played). */
            finished: boolean;
            /** @description The turn indices of the last turns played so far. */
            last_turns: number[];
            /** @description The players still owed their last turn. */
            last_turns_due: string[];
            /** @description Whose turn is next (null: the game is over). */
            next_player: string | null;
            /** @description The turn that first reached the target (null: not yet). */
            reached: components["schemas"]["ReachedOut"] | null;
            /** @description Content hash of the effective rules (present when `rules` was sent) */
            ruleset_id?: string;
            /** @description The players ranked: best first, equal results sharing a rank (1, 1, 3). */
            standings: components["schemas"]["YardkleStandingOut"][];
            /** @description Each player's turn, in turn order. */
            turns: components["schemas"]["GameTurnOut"][];
            /** @description The winners (ties share), empty until the game is over. */
            winners: string[];
        };
        /** YardkleHoldOut */
        YardkleHoldOut: {
            /** @description Whether banking is allowed now (off the pad, only at the entry minimum). */
            bank_allowed: boolean;
            /** @description Expected points of banking now: the turn points, or 0 if banking is not allowed. */
            bank_expected_points: number;
            /** @description Whether this option is among the best (ties included). */
            best: boolean;
            /** @description After the set-aside: `bank` the turn points or `throw_on` with the dice left. */
            decision: components["schemas"]["Decision"];
            /** @description How many dice the next throw uses (all of them again after hot dice). */
            dice_left_count: number;
            /** @description Expected points still to come in this turn under best play (Chicago: the expected final score of the throw). */
            expected_points: number;
            /** @description Whether every die is set aside, so all of them may be thrown again. */
            hot_dice: boolean;
            /** @description What this option costs against the best, in the coach's unit (expected points or total, or win probability); 0 for a best option. */
            loss: number;
            /** @description The points this scores. */
            points: number;
            /** @description Competition rank: 1 is best, equal results share a rank (1, 1, 3). */
            rank: number;
            /** @description The dice set aside, as faces. */
            set_aside: number[];
            /** @description How the set-aside divides into scoring combinations. */
            split: components["schemas"]["PartOut"][];
            /** @description Expected points of throwing on with the dice left under the optimal policy. */
            throw_on_expected_points: number;
            /** @description Points accumulated in this turn so far. */
            turn_points: number;
            /** @description Exact chance of winning, as a number (null without a target): Chicago, of ending strictly better than the target; Yardkle, of ending the turn with at least `need` points banked, or with an `opponent` of winning the two-player game under optimal play by both. */
            win_probability: number | null;
        };
        /**
         * YardkleHoldsRequest
         * @description A throw, the turn points set aside before it, and whether the player is on the pad;
         *     with an `opponent`, the thrower's banked `total` too (0 when omitted), and under
         *     `last_turns: complete_the_round` whether he started the round (`first_in_round`).
         */
        YardkleHoldsRequest: {
            /** @description One to six dice, 1 to 6 each */
            dice: number[];
            /** @description Whether the thrower started the round (read with an `opponent`): under `last_turns: complete_the_round` his reaching the target gives the opponent a last turn and the opponent's ends the game, so it is required there; under the other readings it changes nothing. */
            first_in_round?: boolean | null;
            /** @description Turn points to reach (the race: a last turn, the entry minimum); omitted: maximise expected points */
            need?: number | null;
            /** @description Whether the player has reached the entry minimum once (is on the pad). */
            on_pad: boolean;
            /** @description The one opponent of a two-player game (`total`, `on_pad`): given, each option's `win_probability` is the chance to win the game under optimal play by both, at any turn points in hand (with hot dice forced, a throw after hot dice past the turn's cap too), and the ranking follows it. */
            opponent?: components["schemas"]["OpponentIn"] | null;
            /** @description House rules: parameter overrides by name, as `GET /games/{game}` lists them under `parameters`, each value of the type and range listed there */
            rules?: {
                [key: string]: unknown;
            } | null;
            /** @description The player's banked total, a multiple of the scoring unit (50), under the target */
            total?: number | null;
            /**
             * @description Points, a multiple of the scoring unit (50)
             * @default 0
             */
            turn_points?: number;
        };
        /** YardkleHoldsResponse */
        YardkleHoldsResponse: {
            /** @description The best option (ties: the first listed), or null when there is none. */
            best_option: components["schemas"]["BestOut"] | null;
            /** @description Dice as faces, 1 to 6 each, in ascending order in answers. */
            dice: number[];
            /** @description Whether the player has reached the entry minimum once (is on the pad). */
            on_pad: boolean;
            /** @description Every choice, best first. */
            options: components["schemas"]["YardkleHoldOut"][];
            /** @description Content hash of the effective rules (present when `rules` was sent) */
            ruleset_id?: string;
            /** @description Points accumulated in this turn so far. */
            turn_points: number;
            /** @description Whether the throw scores nothing (a Yardkle: the turn is lost). */
            yardkle: boolean;
        };
        /** YardkleReviewRequest */
        YardkleReviewRequest: {
            /** @description House rules: parameter overrides by name, as `GET /games/{game}` lists them under `parameters`, each value of the type and range listed there */
            rules?: {
                [key: string]: unknown;
            } | null;
            /** @description Each player's turn, in turn order. */
            turns: components["schemas"]["YardkleReviewTurnIn"][];
        };
        /** YardkleReviewResponse */
        YardkleReviewResponse: {
            /** @description The costliest decisions of the game (at most three), costliest first. */
            costliest: components["schemas"]["YardkleDecisionOut"][];
            /** @description How many decisions the review valued. */
            decision_count: number;
            /** @description The sum of the decisions' `loss`: what the play gave away in expectation. */
            expected_loss: number;
            /** @description Final total minus optimal expected score plus expected loss: what the dice gave beyond expectation (null for a part-played game). */
            luck: number;
            /** @description `expected_loss` per decision (0 with none). */
            mean_loss: number;
            /** @description Expected points of the turn(s) from the first throw under the optimal expected-points policy. */
            optimal_expected_points: number;
            /** @description The points this scores. */
            points: number;
            /** @description Content hash of the effective rules (present when `rules` was sent) */
            ruleset_id?: string;
            /** @description Each player's turn, in turn order. */
            turns: components["schemas"]["YardkleTurnReviewOut"][];
        };
        /**
         * YardkleReviewTurnIn
         * @description A turn as played, and the player's standing before it.
         */
        YardkleReviewTurnIn: {
            /**
             * @description Points, a multiple of the scoring unit (50)
             * @default 0
             */
            banked_total?: number;
            /** @description How the turn ended: `bank` or `yardkle` (nothing to set aside). */
            end: components["schemas"]["TurnEnd"];
            /** @description Whether the thrower started the round (read with an `opponent`): under `last_turns: complete_the_round` his reaching the target gives the opponent a last turn and the opponent's ends the game, so it is required there; under the other readings it changes nothing. */
            first_in_round?: boolean | null;
            /** @description Whether the player has reached the entry minimum once (is on the pad). */
            on_pad?: boolean | null;
            /** @description The one opponent of a two-player game (`total`, `on_pad`): given, each option's `win_probability` is the chance to win the game under optimal play by both, at any turn points in hand (with hot dice forced, a throw after hot dice past the turn's cap too), and the ranking follows it. */
            opponent?: components["schemas"]["OpponentIn"] | null;
            /** @description The throws of the turn, in order. */
            throws: components["schemas"]["YardkleThrowIn"][];
        };
        /** YardkleStandingOut */
        YardkleStandingOut: {
            /** @description Whether this is the player's last turn (after someone reached the target). */
            last_turn: boolean;
            /** @description The turn points that win: reached at least, the turn counts as won (`win_probability`); to pass the leader on a last turn, or to get on the pad. */
            need: number | null;
            /** @description Whether the player has reached the entry minimum once (is on the pad). */
            on_pad: boolean;
            /** @description A player's name, unique at the table. */
            player: string;
            /** @description Competition rank: 1 is best, equal results share a rank (1, 1, 3). */
            rank: number;
            /** @description Points in all: a card's total, or a player's banked total. */
            total: number;
            /** @description How many turns the player has played. */
            turn_count: number;
            /** @description Exact chance of winning, as a number (null without a target): Chicago, of ending strictly better than the target; Yardkle, of ending the turn with at least `need` points banked, or with an `opponent` of winning the two-player game under optimal play by both. */
            win_probability?: number;
        };
        /** YardkleThrowIn */
        YardkleThrowIn: {
            /** @description One to six dice, 1 to 6 each */
            dice: number[];
            /** @description Dice set aside from this throw; empty after a Yardkle */
            set_aside?: number[];
        };
        /** YardkleThrowsRequest */
        YardkleThrowsRequest: {
            /** @description One to six dice, 1 to 6 each */
            dice: number[];
            /** @description House rules: parameter overrides by name, as `GET /games/{game}` lists them under `parameters`, each value of the type and range listed there */
            rules?: {
                [key: string]: unknown;
            } | null;
        };
        /** YardkleThrowsResponse */
        YardkleThrowsResponse: {
            /** @description Dice as faces, 1 to 6 each, in ascending order in answers. */
            dice: number[];
            /** @description The most points this can score. */
            max_points: number;
            /** @description Content hash of the effective rules (present when `rules` was sent) */
            ruleset_id?: string;
            /** @description Every legal set-aside, best first. */
            set_asides: components["schemas"]["SetAsideOut"][];
            /** @description Whether the throw scores nothing (a Yardkle: the turn is lost). */
            yardkle: boolean;
        };
        /** YardkleTurnReviewOut */
        YardkleTurnReviewOut: {
            /** @description Every decision of the turn, in the order made: a keep after each throw but the last, then the box (Yardkle: a set-aside and bank or throw on, per throw). */
            decisions: components["schemas"]["YardkleDecisionOut"][];
            /** @description How the turn ended: `bank` or `yardkle` (nothing to set aside). */
            end: components["schemas"]["TurnEnd"];
            /** @description What this option costs against the best, in the coach's unit (expected points or total, or win probability); 0 for a best option. */
            loss: number;
            /** @description Final total minus optimal expected score plus expected loss: what the dice gave beyond expectation (null for a part-played game). */
            luck: number;
            /** @description Expected points of the turn(s) from the first throw under the optimal expected-points policy. */
            optimal_expected_points: number;
            /** @description The points this scores. */
            points: number;
            /** @description The turn's index in the game (0 first). */
            turn_index: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    chicagoGames: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChicagoGameRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChicagoGameResponse"];
                };
            };
            /** @description The request does not match this document (not JSON, a missing or unknown field, a value out of range); `errors` names each offending field. */
            400: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by default) of its headers; the connection is closed. */
            408: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, 64 KiB by default). */
            413: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not declared as JSON: `Content-Type` must be `application/json` (optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body with no `Content-Type` is taken as JSON only if it parses. */
            415: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request matches this document but breaks a rule of the game (`rule-violation`: a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); `errors` names the field and the rule. */
            422: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    chicagoHolds: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChicagoHoldsRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChicagoHoldsResponse"];
                };
            };
            /** @description The request does not match this document (not JSON, a missing or unknown field, a value out of range); `errors` names each offending field. */
            400: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by default) of its headers; the connection is closed. */
            408: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, 64 KiB by default). */
            413: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not declared as JSON: `Content-Type` must be `application/json` (optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body with no `Content-Type` is taken as JSON only if it parses. */
            415: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request matches this document but breaks a rule of the game (`rule-violation`: a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); `errors` names the field and the rule. */
            422: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    chicagoRounds: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RoundRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoundResponse"];
                };
            };
            /** @description The request does not match this document (not JSON, a missing or unknown field, a value out of range); `errors` names each offending field. */
            400: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by default) of its headers; the connection is closed. */
            408: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, 64 KiB by default). */
            413: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not declared as JSON: `Content-Type` must be `application/json` (optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body with no `Content-Type` is taken as JSON only if it parses. */
            415: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request matches this document but breaks a rule of the game (`rule-violation`: a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); `errors` names the field and the rule. */
            422: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    chicagoThrows: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChicagoThrowsRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChicagoThrowsResponse"];
                };
            };
            /** @description The request does not match this document (not JSON, a missing or unknown field, a value out of range); `errors` names each offending field. */
            400: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by default) of its headers; the connection is closed. */
            408: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, 64 KiB by default). */
            413: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not declared as JSON: `Content-Type` must be `application/json` (optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body with no `Content-Type` is taken as JSON only if it parses. */
            415: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request matches this document but breaks a rule of the game (`rule-violation`: a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); `errors` names the field and the rule. */
            422: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    distributions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DistributionRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DistributionResponse"];
                };
            };
            /** @description The request does not match this document (not JSON, a missing or unknown field, a value out of range); `errors` names each offending field. */
            400: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description An unknown game (`unknown-game`, naming the `game` field) or route (`unknown-route`). */
            404: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by default) of its headers; the connection is closed. */
            408: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, 64 KiB by default). */
            413: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not declared as JSON: `Content-Type` must be `application/json` (optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body with no `Content-Type` is taken as JSON only if it parses. */
            415: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request matches this document but breaks a rule of the game (`rule-violation`: a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); `errors` names the field and the rule. */
            422: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many house-rules rulesets are waiting for a solve on this replica (`solve-queue-full`): retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The game's solved table is still loading (`table-loading`), or for house rules queued or being solved (`table-solving`, with `progress`): retry after `Retry-After` seconds (also in `retry_after`). */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying (also `retry_after`). */
                    "Retry-After": number;
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    games: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of answers the client holds: a match gets 304 Not Modified, no body (RFC 9110 weak comparison, `*` matches any). */
                "If-None-Match"?: string | null;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /** @description `public, max-age=300`; `no-cache` while the game's tables are loading. */
                    "Cache-Control"?: string;
                    /** @description A strong validator of the answer: a hash of its JSON. */
                    ETag?: string;
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GameSummary"][];
                };
            };
            /** @description The `If-None-Match` header names the answer's current ETag: no body. */
            304: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    gamesByGame: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of answers the client holds: a match gets 304 Not Modified, no body (RFC 9110 weak comparison, `*` matches any). */
                "If-None-Match"?: string | null;
            };
            path: {
                /** @description A game's id, as listed by `GET /games` */
                game: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /** @description `public, max-age=300`; `no-cache` while the game's tables are loading. */
                    "Cache-Control"?: string;
                    /** @description A strong validator of the answer: a hash of its JSON. */
                    ETag?: string;
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GameRules"];
                };
            };
            /** @description The `If-None-Match` header names the answer's current ETag: no body. */
            304: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An unknown game (`unknown-game`, naming the `game` field) or route (`unknown-route`). */
            404: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    healthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    holds: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScorecardHoldsRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScorecardHoldsResponse"];
                };
            };
            /** @description The request does not match this document (not JSON, a missing or unknown field, a value out of range); `errors` names each offending field. */
            400: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description An unknown game (`unknown-game`, naming the `game` field) or route (`unknown-route`). */
            404: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by default) of its headers; the connection is closed. */
            408: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, 64 KiB by default). */
            413: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not declared as JSON: `Content-Type` must be `application/json` (optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body with no `Content-Type` is taken as JSON only if it parses. */
            415: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request matches this document but breaks a rule of the game (`rule-violation`: a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); `errors` names the field and the rule. */
            422: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many house-rules rulesets are waiting for a solve on this replica (`solve-queue-full`): retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The game's solved table is still loading (`table-loading`), or for house rules queued or being solved (`table-solving`, with `progress`): retry after `Retry-After` seconds (also in `retry_after`). */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying (also `retry_after`). */
                    "Retry-After": number;
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    reviews: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReviewRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewResponse"];
                };
            };
            /** @description The request does not match this document (not JSON, a missing or unknown field, a value out of range); `errors` names each offending field. */
            400: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description An unknown game (`unknown-game`, naming the `game` field) or route (`unknown-route`). */
            404: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by default) of its headers; the connection is closed. */
            408: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, 64 KiB by default). */
            413: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not declared as JSON: `Content-Type` must be `application/json` (optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body with no `Content-Type` is taken as JSON only if it parses. */
            415: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request matches this document but breaks a rule of the game (`rule-violation`: a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); `errors` names the field and the rule. */
            422: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many house-rules rulesets are waiting for a solve on this replica (`solve-queue-full`): retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The game's solved table is still loading (`table-loading`), or for house rules queued or being solved (`table-solving`, with `progress`): retry after `Retry-After` seconds (also in `retry_after`). */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying (also `retry_after`). */
                    "Retry-After": number;
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    rulesets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RulesetRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RulesetResponse"];
                };
            };
            /** @description The request does not match this document (not JSON, a missing or unknown field, a value out of range); `errors` names each offending field. */
            400: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description An unknown game (`unknown-game`, naming the `game` field) or route (`unknown-route`). */
            404: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by default) of its headers; the connection is closed. */
            408: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, 64 KiB by default). */
            413: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not declared as JSON: `Content-Type` must be `application/json` (optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body with no `Content-Type` is taken as JSON only if it parses. */
            415: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request matches this document but breaks a rule of the game (`rule-violation`: a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); `errors` names the field and the rule. */
            422: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many house-rules rulesets are waiting for a solve on this replica (`solve-queue-full`): retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    score: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScoreRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScoreResponse"];
                };
            };
            /** @description The request does not match this document (not JSON, a missing or unknown field, a value out of range); `errors` names each offending field. */
            400: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description An unknown game (`unknown-game`, naming the `game` field) or route (`unknown-route`). */
            404: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by default) of its headers; the connection is closed. */
            408: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, 64 KiB by default). */
            413: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not declared as JSON: `Content-Type` must be `application/json` (optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body with no `Content-Type` is taken as JSON only if it parses. */
            415: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request matches this document but breaks a rule of the game (`rule-violation`: a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); `errors` names the field and the rule. */
            422: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    scorecardsCheck: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CheckRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckResponse"];
                };
            };
            /** @description The request does not match this document (not JSON, a missing or unknown field, a value out of range); `errors` names each offending field. */
            400: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description An unknown game (`unknown-game`, naming the `game` field) or route (`unknown-route`). */
            404: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by default) of its headers; the connection is closed. */
            408: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, 64 KiB by default). */
            413: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not declared as JSON: `Content-Type` must be `application/json` (optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body with no `Content-Type` is taken as JSON only if it parses. */
            415: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request matches this document but breaks a rule of the game (`rule-violation`: a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); `errors` names the field and the rule. */
            422: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    yardkleGames: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["YardkleGameRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["YardkleGameResponse"];
                };
            };
            /** @description The request does not match this document (not JSON, a missing or unknown field, a value out of range); `errors` names each offending field. */
            400: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by default) of its headers; the connection is closed. */
            408: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, 64 KiB by default). */
            413: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not declared as JSON: `Content-Type` must be `application/json` (optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body with no `Content-Type` is taken as JSON only if it parses. */
            415: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request matches this document but breaks a rule of the game (`rule-violation`: a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); `errors` names the field and the rule. */
            422: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    yardkleHolds: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["YardkleHoldsRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["YardkleHoldsResponse"];
                };
            };
            /** @description The request does not match this document (not JSON, a missing or unknown field, a value out of range); `errors` names each offending field. */
            400: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by default) of its headers; the connection is closed. */
            408: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, 64 KiB by default). */
            413: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not declared as JSON: `Content-Type` must be `application/json` (optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body with no `Content-Type` is taken as JSON only if it parses. */
            415: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request matches this document but breaks a rule of the game (`rule-violation`: a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); `errors` names the field and the rule. */
            422: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many house-rules rulesets are waiting for a solve on this replica (`solve-queue-full`): retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The game's solved table is still loading (`table-loading`), or for house rules queued or being solved (`table-solving`, with `progress`): retry after `Retry-After` seconds (also in `retry_after`). */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying (also `retry_after`). */
                    "Retry-After": number;
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    yardkleReviews: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["YardkleReviewRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["YardkleReviewResponse"];
                };
            };
            /** @description The request does not match this document (not JSON, a missing or unknown field, a value out of range); `errors` names each offending field. */
            400: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by default) of its headers; the connection is closed. */
            408: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, 64 KiB by default). */
            413: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not declared as JSON: `Content-Type` must be `application/json` (optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body with no `Content-Type` is taken as JSON only if it parses. */
            415: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request matches this document but breaks a rule of the game (`rule-violation`: a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); `errors` names the field and the rule. */
            422: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many house-rules rulesets are waiting for a solve on this replica (`solve-queue-full`): retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The game's solved table is still loading (`table-loading`), or for house rules queued or being solved (`table-solving`, with `progress`): retry after `Retry-After` seconds (also in `retry_after`). */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying (also `retry_after`). */
                    "Retry-After": number;
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    yardkleThrows: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["YardkleThrowsRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["YardkleThrowsResponse"];
                };
            };
            /** @description The request does not match this document (not JSON, a missing or unknown field, a value out of range); `errors` names each offending field. */
            400: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by default) of its headers; the connection is closed. */
            408: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, 64 KiB by default). */
            413: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not declared as JSON: `Content-Type` must be `application/json` (optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body with no `Content-Type` is taken as JSON only if it parses. */
            415: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request matches this document but breaks a rule of the game (`rule-violation`: a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); `errors` names the field and the rule. */
            422: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    yardkleTurns: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TurnRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TurnResponse"];
                };
            };
            /** @description The request does not match this document (not JSON, a missing or unknown field, a value out of range); `errors` names each offending field. */
            400: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by default) of its headers; the connection is closed. */
            408: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, 64 KiB by default). */
            413: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not declared as JSON: `Content-Type` must be `application/json` (optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body with no `Content-Type` is taken as JSON only if it parses. */
            415: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request matches this document but breaks a rule of the game (`rule-violation`: a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); `errors` names the field and the rule. */
            422: {
                headers: {
                    /**
                     * @description The version of this document (`info.version`) the service speaks; a client generated for another major version (for 0.x, another minor) says so.
                     * @example 0.1.0
                     */
                    "X-API-Version": string;
                    /** @description The request's id: the client's own `X-Request-ID` when well-formed (up to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`. */
                    "X-Request-ID": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
}
