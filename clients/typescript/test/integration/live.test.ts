/**
 * Every operation against a running `diceref serve` at DICEREF_TEST_URL, and a problem of
 * each kind the server gives; skipped when DICEREF_TEST_URL is unset.  The server must hold
 * Yahtzee's value table and the tables of Yatzy in forced order (`distributions`), and must
 * not have solved Yardkle with `three_ones: 1000` (the 503 waited out below).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  API_VERSION,
  BadRequestError,
  Client,
  NotFoundError,
  PayloadTooLargeError,
  RuleViolationError,
  UnavailableError,
} from "../../src/index.js";
import type { OperationId, RequestBody, Schemas } from "../../src/index.js";

const SERVER = process.env.DICEREF_TEST_URL;
const PROBLEMS = "https://diceref.dev/problems/";

const DOCUMENT = JSON.parse(
  readFileSync(new URL("../../../../openapi/openapi.json", import.meta.url), "utf8"),
) as Document;
const HOUSE_YARDKLE = { three_ones: 1000 };

type Examples = Record<string, { value: unknown }>;
type Operation = {
  operationId: string;
  requestBody?: { content: { "application/json": { examples: Examples } } };
  responses: Record<string, { content?: Record<string, { examples?: Examples }> }>;
};
type Document = { paths: Record<string, Record<string, Operation>> };

/** The document's example `name` of operation `id`: its request and its 200 answer. */
function example(id: OperationId, name: string): { request: unknown; response: unknown } {
  for (const methods of Object.values(DOCUMENT.paths)) {
    for (const operation of Object.values(methods)) {
      if (operation.operationId !== id) continue;
      const request = operation.requestBody?.content["application/json"].examples[name]?.value;
      const response = operation.responses["200"]?.content?.["application/json"]?.examples?.[name]?.value;
      if (request === undefined || response === undefined) throw new Error(`no example ${name} of ${id}`);
      return { request, response };
    }
  }
  throw new Error(`no operation ${id}`);
}

/** `actual` is `expected` with numbers equal to 9 significant digits (the solver's last
 * digits vary with the machine), every key and item compared. */
function expectSame(actual: unknown, expected: unknown, where = "answer"): void {
  if (typeof expected === "number" && typeof actual === "number") {
    expect(Math.abs(actual - expected), where).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
  } else if (Array.isArray(expected)) {
    expect(Array.isArray(actual), where).toBe(true);
    const items = actual as unknown[];
    expect(items.length, where).toBe(expected.length);
    expected.forEach((item, i) => expectSame(items[i], item, `${where}[${i}]`));
  } else if (typeof expected === "object" && expected !== null) {
    expect(typeof actual === "object" && actual !== null, where).toBe(true);
    const record = actual as Record<string, unknown>;
    expect(Object.keys(record).sort(), where).toEqual(Object.keys(expected).sort());
    for (const [key, value] of Object.entries(expected)) expectSame(record[key], value, `${where}.${key}`);
  } else {
    expect(actual, where).toEqual(expected);
  }
}

describe.skipIf(!SERVER)("against a live diceref serve", () => {
  // Retry-After of a table loading from disk is waited out by the client's own retries.
  const dice = new Client({ baseUrl: SERVER, maxAttempts: 6 });

  // Every operation with a body, called with an example of the document: the answer is
  // the example's answer.  `call` is the typed method, given the example's JSON.
  const EXAMPLES: [OperationId, string, (body: never) => Promise<unknown>][] = [
    ["score", "custom-ruleset", (b: RequestBody<"score">) => dice.score(b)],
    ["holds", "last-throw", (b: RequestBody<"holds">) => dice.holds(b)],
    ["distributions", "dice-thrown", (b: RequestBody<"distributions">) => dice.distributions(b)],
    ["scorecardsCheck", "two-sheets", (b: RequestBody<"scorecardsCheck">) => dice.scorecardsCheck(b)],
    ["reviews", "one-turn", (b: RequestBody<"reviews">) => dice.reviews(b)],
    ["rulesets", "no-tables", (b: RequestBody<"rulesets">) => dice.rulesets(b)],
    ["chicagoThrows", "first-throw", (b: RequestBody<"chicagoThrows">) => dice.chicagoThrows(b)],
    ["chicagoRounds", "worst-score", (b: RequestBody<"chicagoRounds">) => dice.chicagoRounds(b)],
    ["chicagoGames", "first-round", (b: RequestBody<"chicagoGames">) => dice.chicagoGames(b)],
    ["chicagoHolds", "beat-ten-low", (b: RequestBody<"chicagoHolds">) => dice.chicagoHolds(b)],
    ["yardkleThrows", "house-rules", (b: RequestBody<"yardkleThrows">) => dice.yardkleThrows(b)],
    ["yardkleTurns", "bank-on-the-pad", (b: RequestBody<"yardkleTurns">) => dice.yardkleTurns(b)],
    ["yardkleGames", "two-turns", (b: RequestBody<"yardkleGames">) => dice.yardkleGames(b)],
    ["yardkleHolds", "bank-or-throw", (b: RequestBody<"yardkleHolds">) => dice.yardkleHolds(b)],
    ["yardkleReviews", "one-turn", (b: RequestBody<"yardkleReviews">) => dice.yardkleReviews(b)],
  ];

  for (const [id, name, call] of EXAMPLES) {
    it(`${id} answers its example ${name}`, async () => {
      const { request, response } = example(id, name);
      expectSame(await call(request as never), response);
    });
  }

  it("healthz, games and gamesByGame", async () => {
    expect(await dice.healthz()).toEqual({ status: "ok", api_version: API_VERSION });
    const games = await dice.games();
    expect(games.map((g) => g.id)).toEqual(expect.arrayContaining(["yahtzee", "chicago", "yardkle"]));
    const rules = await dice.gamesByGame({ game: "yahtzee" });
    expect(rules.id).toBe("yahtzee");
    expect((rules.boxes ?? []).map((b) => b.id)).toContain("full_house");
  });

  it("a typed request, written out, is answered", async () => {
    const score = await dice.score({ game: "yahtzee", dice: [2, 2, 3, 5, 6] });
    expect(score.options.find((o) => o.box === "twos")?.points).toBe(4);
  });

  it("a bad field is a BadRequestError naming it, with the server's request id", async () => {
    const error = (await dice.score({ game: "yahtzee", dice: [0, 2, 3, 4, 5] }, { requestId: "ts-bad-field" }).catch((e: unknown) => e)) as BadRequestError;
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.status).toBe(400);
    expect(error.type).toBe(`${PROBLEMS}invalid-request`);
    expect(error.errors[0]?.field).toBe("dice[0]");
    expect(error.code).toBeTruthy();
    expect(error.requestId).toBe("ts-bad-field");
    expect(error.problem.request_id).toBe("ts-bad-field");
  });

  it("an unknown game is a NotFoundError", async () => {
    const error = (await dice.gamesByGame({ game: "backgammon" }).catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.type).toBe(`${PROBLEMS}unknown-game`);
    expect(error.requestId).toMatch(/.+/);
  });

  it("a rule broken is a RuleViolationError with the rule's code", async () => {
    const error = (await dice.holds({ game: "yahtzee", dice: [1, 2, 3, 4, 5], throws_left: 3 }).catch((e: unknown) => e)) as RuleViolationError;
    expect(error).toBeInstanceOf(RuleViolationError);
    expect(error.status).toBe(422);
    expect(error.code).toBe("throws_exceeded");
    expect(error.errors[0]?.field).toBe("throws_left");
  });

  it("a body over the size limit is a PayloadTooLargeError", async () => {
    const dice40k = Array.from({ length: 40_000 }, () => 6);
    const error = (await dice.score({ game: "yahtzee", dice: dice40k }).catch((e: unknown) => e)) as PayloadTooLargeError;
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error.status).toBe(413);
    expect(error.type).toBe(`${PROBLEMS}body-too-large`);
  });

  it("house rules being solved are an UnavailableError, waited out with waitForRuleset", async () => {
    const request = { dice: [1, 1, 1, 2, 3, 4], on_pad: true, rules: HOUSE_YARDKLE } satisfies Schemas["YardkleHoldsRequest"];
    const error = (await dice.yardkleHolds(request, { maxAttempts: 1 }).catch((e: unknown) => e)) as UnavailableError;
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.status).toBe(503);
    expect(error.type).toBe(`${PROBLEMS}table-solving`);
    expect(error.retryAfter).toBeGreaterThan(0);
    expect(error.headers.get("retry-after")).toBe(String(error.retryAfter));

    const ready = await dice.waitForRuleset({ game: "yardkle", rules: HOUSE_YARDKLE }, { timeout: 90_000, poll: 250 });
    expect(ready.status).toBe("ready");
    expect(ready.progress).toBe(1);
    const holds = await dice.yardkleHolds(request, { maxAttempts: 1 });
    expect(holds.options.length).toBeGreaterThan(0);
  }, 120_000);
});
