// The desk's pure helpers under Node (node --test), run by tests/desk/test_desk_units.py.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  EVENT_VERSION, asEvent, csvCell, diceText, newEvent, num, parseDice, percent, rotation, tickStep,
} from "../../../service/diceref/http/desk/static/pure.js";

test("dice are read with spaces, commas, semicolons or none between them", () => {
  assert.deepEqual(parseDice("6 6 6 2 3"), [6, 6, 6, 2, 3]);
  assert.deepEqual(parseDice("6,6;6  2,3"), [6, 6, 6, 2, 3]);
  assert.deepEqual(parseDice("66623"), [6, 6, 6, 2, 3]);
  assert.deepEqual(parseDice("  "), []);
  assert.deepEqual(parseDice(undefined), []);
});

test("dice that are not numbers are refused, not guessed", () => {
  assert.equal(parseDice("6 six 2"), null);
  assert.equal(parseDice("6 -1"), null);
  assert.equal(parseDice("6.5"), null);
  // digits run together are one die each; a value too big is the service's to refuse
  assert.deepEqual(parseDice("6 12"), [6, 12]);
});

test("dice and points as text", () => {
  assert.equal(diceText([2, 3, 4]), "2 3 4");
  assert.equal(diceText([]), "none");
  assert.equal(num(254), "254");
  assert.equal(num(254.5896), "254.59");
});

test("a probability never reads 0% or 100% unless it is", () => {
  assert.equal(percent(0), "0%");
  assert.equal(percent(1), "100%");
  assert.equal(percent(0.0004), "< 0.1%");
  assert.equal(percent(0.9996), "> 99.9%");
  assert.equal(percent(0.37), "37.0%");
  assert.equal(percent(0.2417), "24.2%");
});

test("axis steps are 1, 2 or 5 times a power of ten", () => {
  assert.equal(tickStep(345, 4), 100);
  assert.equal(tickStep(30, 4), 10);
  assert.equal(tickStep(12, 4), 5);
  assert.equal(tickStep(2, 4), 1);
  for (const span of [7, 40, 99, 375, 1575]) {
    const step = tickStep(span, 4);
    assert.ok(span / step <= 4, `${span}: ${step}`);
    assert.match(String(step), /^[125]0*$/);
  }
});

test("CSV cells are quoted when they must be", () => {
  assert.equal(csvCell("Ann"), "Ann");
  assert.equal(csvCell('Ann "the dice" Lee'), '"Ann ""the dice"" Lee"');
  assert.equal(csvCell("a,b"), '"a,b"');
  assert.equal(csvCell("two\nlines"), '"two\nlines"');
  assert.equal(csvCell("cr\rhere"), '"cr\rhere"');
  assert.equal(csvCell(null), "");
  assert.equal(csvCell(0), "0");
});

test("a Chicago round goes round the table from its starter", () => {
  assert.deepEqual(rotation(["Ann", "Bob", "Cy"], "Bob"), ["Bob", "Cy", "Ann"]);
  assert.deepEqual(rotation(["Ann", "Bob", "Cy"], "Ann"), ["Ann", "Bob", "Cy"]);
  assert.deepEqual(rotation(["Ann", "Bob", "Cy"], "Dee"), ["Ann", "Bob", "Cy"]);
  assert.deepEqual(rotation([], "Ann"), []);
});

test("an imported event is checked and completed, never half taken", () => {
  const event = newEvent();
  assert.equal(event.version, EVENT_VERSION);
  const older = { version: EVENT_VERSION, sheets: { players: [] }, coach: {}, chicago: { rounds: [] }, yardkle: { turns: [] } };
  const taken = asEvent(older);
  assert.ok(!(taken instanceof Error));
  assert.equal(taken.sheets.game, "yahtzee"); // filled in from a new event
  assert.deepEqual(taken.chicago.players, []);
  assert.ok(asEvent(null) instanceof Error);
  assert.ok(asEvent({ version: EVENT_VERSION + 1 }) instanceof Error);
  assert.match(asEvent({ ...older, coach: null }).message, /no coach/);
  assert.match(asEvent({ ...older, sheets: { players: "Ann" } }).message, /not lists/);
});
