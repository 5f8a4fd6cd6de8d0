// The desk's pure helpers for the service's answers and the tabs' rulings, under Node
// (node --test), run by tests/desk/test_desk_units.py.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  filledOf, joined, latestOnly, newEvent, optionText, problemWords, resultsCsv, roll, roundEventLines,
  ruleHint, sameDice, setAsideScore, sheetRequest, signed, throwNote, withRules,
} from "../../../service/diceref/http/desk/static/pure.js";

/** A fetch Response as problemWords reads it. */
const response = (status, headers = {}, statusText = "") => ({ status, statusText, headers: { get: (name) => headers[name] ?? null } });

test("house rules are sent only when some are set", () => {
  assert.deepEqual(withRules({ game: "yatzy" }, {}), { game: "yatzy" });
  assert.deepEqual(withRules({ game: "yatzy" }, undefined), { game: "yatzy" });
  assert.deepEqual(withRules({ game: "yatzy" }, { throws_per_turn: 4 }), { game: "yatzy", rules: { throws_per_turn: 4 } });
});

test("only the answer to the latest question is current", () => {
  const latest = latestOnly();
  const first = latest.ask();
  assert.equal(first(), true);
  const second = latest.ask();
  assert.equal(first(), false); // overtaken: its answer is dropped
  assert.equal(second(), true);
  const other = latestOnly(); // each state its own count
  other.ask();
  assert.equal(second(), true);
});

test("a problem is said in words: its title and each error's reason", () => {
  const refused = problemWords(response(422), { title: "Invalid dice", errors: [{ field: "dice", reason: "a die is 1 to 6" }, { reason: "five dice" }] });
  assert.equal(refused.message, "Invalid dice: a die is 1 to 6; five dice");
  assert.equal(refused.errors.length, 2);
  assert.equal(problemWords(response(404), { title: "Not found", detail: "no game yatzee" }).message, "Not found: no game yatzee");
  assert.equal(problemWords(response(400), {}).message, "The service answered 400");
  assert.deepEqual(problemWords(response(502, {}, "Bad Gateway"), null), { message: "The service answered 502 Bad Gateway", errors: [] });
  assert.equal(problemWords(response(500), "not json").message, "The service answered 500");
});

test("a table still being solved is a wait, with its progress and when to ask again", () => {
  const solving = problemWords(response(503, { "Retry-After": "7" }), { title: "Unavailable", progress: 0.4 });
  assert.equal(solving.message, "The coach's solved table is still loading on the service: try again in 7 s.");
  assert.equal(solving.retryAfter, 7);
  assert.equal(solving.progress, 0.4);
  const body = problemWords(response(503, { "Retry-After": "7" }), { retry_after: 3 });
  assert.equal(body.retryAfter, 3); // the problem's own figure first
  const unknown = problemWords(response(503), { title: "Unavailable" });
  assert.equal(unknown.message, "The coach's solved table is still loading on the service.");
  assert.equal(unknown.progress, null);
  assert.equal(problemWords(response(503, { "Retry-After": "soon" }), {}).retryAfter, null);
  assert.equal(problemWords(response(503), {}).retryAfter, null); // none given: the caller's own wait
});

test("dice and lines of pieces", () => {
  assert.ok(sameDice([6, 1, 6], [6, 6, 1]));
  assert.ok(!sameDice([6, 1], [6, 6]));
  assert.ok(!sameDice([6, 1], [6, 1, 1]));
  assert.deepEqual(joined(["a", ["b", "c"], "d"], "; "), ["a", "; ", "b", "c", "; ", "d"]);
  assert.deepEqual(joined([], "; "), []);
  const dice = roll(500);
  assert.equal(dice.length, 500);
  assert.ok(dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6));
  assert.equal(new Set(dice).size, 6);
});

test("the sheets are sent as the service takes them, and what it cannot take is said here", () => {
  const players = [
    { name: "Ann", entries: { ones: { points: "3", dice: "1 1 1 2 3" }, twos: { points: " ", dice: "" }, fives: { points: "x" } }, extra_bonus: "" },
    { name: "Bob", entries: { chance: { points: "23", dice: "6 6 x" }, sixes: { points: "-6" } }, extra_bonus: "100" },
    { name: "Cy", entries: {}, extra_bonus: "lots" },
  ];
  const { body, local } = sheetRequest({ game: "yahtzee", rules: { upper_bonus: 50 }, players });
  assert.deepEqual(body, {
    game: "yahtzee", rules: { upper_bonus: 50 }, sheets: [
      { player: "Ann", entries: [{ box: "ones", points: 3, dice: [1, 1, 1, 2, 3] }] },
      // a negative number is the service's to refuse, with the box named
      { player: "Bob", entries: [{ box: "sixes", points: -6 }], extra_bonus: 100 },
      { player: "Cy", entries: [] },
    ],
  });
  assert.deepEqual(local, {
    "0/fives": "the points are a whole number",
    "1/chance": "the dice are faces 1 to 6, e.g. 6 6 6 2 3",
    "2/extra_bonus": "the extra bonus is a whole number of points",
  });
  assert.equal(sheetRequest({ game: "yatzy", rules: {}, players: [] }).body.rules, undefined);
});

test("a rule's hint follows the value chosen", () => {
  const rule = { name: "upper_bonus", value: 35, description: "35 points for 63 or more" };
  assert.equal(ruleHint(rule, 35), "35 points for 63 or more");
  assert.equal(ruleHint(rule, 50), "Set here to 50 (the game's own: 35).");
  assert.equal(ruleHint(rule, 35, true), "Empty: the game's default, 35, is played.");
  const fixed = { ...rule, reading: true, settable: false };
  assert.equal(ruleHint(fixed, 35), "35 points for 63 or more (a reading of the rulebook) (fixed in this game)");
  assert.equal(ruleHint({ ...rule, value: [1, 2] }, [1, 2]), "35 points for 63 or more");
  const order = { name: "order", value: "free", description: "Any open box.", choices: ["free", "forced"],
    choice_descriptions: { free: "Any open box.", forced: "Only the first open box." } };
  assert.equal(ruleHint(order, "forced"), 'Set here to "forced" (the game\'s own: "free"): Only the first open box.');
  assert.equal(ruleHint(order, "free"), "Any open box.");
  assert.equal(ruleHint({ ...order, choice_descriptions: undefined }, "forced"), 'Set here to "forced" (the game\'s own: "free").');
  assert.equal(ruleHint(order, "toString"), 'Set here to "toString" (the game\'s own: "free").');
});

test("a player's sheet as the coach's scorecard", () => {
  const players = [{ name: "Ann", entries: { ones: { points: "3" }, twos: { points: "" }, chance: { points: " 20 " }, sixes: { points: "-6" } }, extra_bonus: "100" }];
  assert.deepEqual(filledOf(players, "Ann"), { filled: { ones: 3, chance: 20 }, extraBonus: 100 });
  assert.deepEqual(filledOf(players, "Bob"), { filled: {}, extraBonus: 0 });
  assert.deepEqual(filledOf([{ name: "Cy", entries: {}, extra_bonus: "x" }], "Cy"), { filled: {}, extraBonus: 0 });
});

test("the results as CSV: entered boxes, the service's sums, lives and totals", () => {
  const event = newEvent();
  event.created = "2026-05-01T10:00:00.000Z";
  event.sheets.players = [{ name: "Ann, the first", entries: { ones: { points: "3", dice: "1 1 1 2 3" }, twos: { points: "" } } }];
  const boxes = [{ id: "ones" }, { id: "twos" }, { id: "threes" }];
  const check = { sheets: [{ upper_subtotal: 3, upper_bonus: 0, extra_bonus: 0, total: 3, rank: 1 }] };
  const text = resultsCsv(event, boxes, { check, chicago: { standings: [{ player: "Bob", lives: 2 }] }, yardkle: null });
  assert.equal(text, [
    "section,player,item,points,dice",
    'sheet:yahtzee,"Ann, the first",ones,3,1 1 1 2 3',
    'sheet:yahtzee,"Ann, the first",upper_subtotal,3,',
    'sheet:yahtzee,"Ann, the first",upper_bonus,0,',
    'sheet:yahtzee,"Ann, the first",extra_bonus,0,',
    'sheet:yahtzee,"Ann, the first",total,3,',
    'sheet:yahtzee,"Ann, the first",rank,1,',
    "chicago,Bob,lives,2,",
    "",
  ].join("\r\n"));
  assert.equal(resultsCsv(newEvent(), [], { check: null, chicago: null, yardkle: null }), "section,player,item,points,dice\r\n");
});

test("coach options and review figures in words", () => {
  assert.equal(optionText({ kind: "keep", keep: [6, 6] }), "keep 6 6");
  assert.equal(optionText({ kind: "score", name: "Chance", points: 23 }), "score Chance (23)");
  assert.equal(optionText({ kind: "score", name: "Sixes", points: 24, bonus: 35 }), "score Sixes (24 + bonus 35)");
  assert.equal(signed(12.5), "+12.50");
  assert.equal(signed(0), "+0");
  assert.equal(signed(-3), "−3");
});

test("a Chicago round's events and a throw's scores in words", () => {
  const round = { events: [
    { kind: "lowest_score", player: "Ann", score: 4, losers: ["Ann"] },
    { kind: "one_six_five", player: "Bob", victim: "Cy", losers: ["Cy", "Dee"], knocked_out: ["Cy"] },
    { kind: "round_over" },
  ] };
  assert.deepEqual(roundEventLines(round), [
    "lowest score (Ann, 4): Ann loses a life",
    "one six five (Bob): Cy, Dee lose a life; Cy is the victim; out: Cy",
    "round over",
  ]);
  assert.equal(throwNote({ scores: { high: 204, low: 4 } }), "high 204, low 4");
  assert.equal(throwNote({ scores: { high: 6 }, special: "one_six_five" }), "high 6, one six five");
});

test("a Yardkle set-aside scores as the service counts it, or says why not", () => {
  const scoring = { yardkle: false, set_asides: [{ dice: [1], points: 100 }, { dice: [5, 1], points: 150 }] };
  assert.deepEqual(setAsideScore(scoring, [1, 5, 2, 3, 4, 6], [1, 5]), { points: 150 });
  assert.deepEqual(setAsideScore(scoring, [1, 5, 2, 3, 4, 6], [2]), {
    reason: "2 does not score on 1 5 2 3 4 6; scoring set-asides: 1 (100), 5 1 (150)",
  });
  assert.deepEqual(setAsideScore({ yardkle: true, set_asides: [] }, [2, 3], [2]), {
    reason: '2 3 is a yardkle: nothing scores, end the turn with "Yardkle"',
  });
});
