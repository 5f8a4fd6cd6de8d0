import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  API_VERSION,
  APIConnectionError,
  APIError,
  APITimeoutError,
  BadRequestError,
  Client,
  DEFAULT_URL,
  DicerefError,
  InvalidResponseError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  RuleViolationError,
  RulesetFailed,
  RulesetNotReady,
  ServerError,
  UnavailableError,
  VersionMismatchError,
  compatibilityLine,
  parseRetryAfter,
} from "../../src/index.js";
import type { ClientOptions, Schemas } from "../../src/index.js";

const BASE = "http://diceref.test";
const PROBLEMS = "https://diceref.dev/problems/";

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };
type Sent = { url: string; method: string; headers: Record<string, string>; body: string | undefined };

/** A fetch that answers from `answers` in turn (a thrown Error is a network failure) and
 * records every request. */
function fakeFetch(answers: (Answer | Error)[]): { fetch: typeof fetch; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetchMock = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    sent.push({ url: String(input), method: init?.method ?? "GET", headers, body: init?.body as string | undefined });
    const answer = answers[Math.min(sent.length - 1, answers.length - 1)];
    if (answer === undefined) throw new Error("no answer scripted");
    if (answer instanceof Error) throw answer;
    const body = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? {});
    const type = answer.status >= 400 ? "application/problem+json" : "application/json";
    return new Response(body, { status: answer.status, headers: { "content-type": type, ...answer.headers } });
  };
  return { fetch: fetchMock, sent };
}

function problem(status: number, kind: string, extra: Partial<Schemas["ProblemDetails"]> = {}): Schemas["ProblemDetails"] {
  return {
    type: PROBLEMS + kind,
    title: kind,
    status,
    detail: `a ${kind} problem`,
    instance: "/score",
    request_id: "",
    ...extra,
  };
}

function client(answers: (Answer | Error)[], options: ClientOptions = {}) {
  const { fetch, sent } = fakeFetch(answers);
  const waits: number[] = [];
  const dice = new Client({
    baseUrl: BASE,
    fetch,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
  return { dice, sent, waits };
}

const SCORE = { game: "yahtzee", dice: [2, 2, 3, 5, 6] } satisfies Schemas["ScoreRequest"];
const HEALTH = { status: "ok", api_version: "0.1.0" } satisfies Schemas["Health"];

afterEach(() => {
  vi.unstubAllEnvs();
  vi.useRealTimers();
});

describe("requests", () => {
  it("posts the typed body as JSON to the operation's path and returns the answer", async () => {
    const { dice, sent } = client([{ status: 200, body: { options: [] } }]);
    expect(await dice.score(SCORE)).toEqual({ options: [] });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe(`${BASE}/score`);
    expect(sent[0]?.method).toBe("POST");
    expect(sent[0]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(sent[0]?.body ?? "")).toEqual(SCORE);
  });

  it("quotes the game in gamesByGame's path", async () => {
    const { dice, sent } = client([{ status: 200, body: {} }]);
    await dice.gamesByGame({ game: "chute 5/x" });
    expect(sent[0]?.url).toBe(`${BASE}/games/chute%205%2Fx`);
    expect(sent[0]?.method).toBe("GET");
    expect(sent[0]?.body).toBeUndefined();
  });

  it("sends a new X-Request-ID on each call, the same one on every attempt of a call", async () => {
    const { dice, sent } = client([{ status: 502, body: problem(502, "bad-gateway") }, { status: 200, body: HEALTH }]);
    await dice.healthz();
    await dice.healthz();
    const ids = sent.map((s) => s.headers["x-request-id"]);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it("sends the caller's request id and carries it on the error when the answer has none", async () => {
    const { dice, sent } = client([{ status: 400, body: problem(400, "invalid-request") }]);
    const error = await dice.score(SCORE, { requestId: "table-7.throw-3" }).catch((e: unknown) => e);
    expect(sent[0]?.headers["x-request-id"]).toBe("table-7.throw-3");
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).requestId).toBe("table-7.throw-3");
  });

  it("carries the answer's X-Request-ID on an error", async () => {
    const { dice } = client([{ status: 404, body: problem(404, "unknown-game"), headers: { "x-request-id": "srv-1" } }]);
    const error = await dice.gamesByGame({ game: "backgammon" }).catch((e: unknown) => e);
    expect((error as NotFoundError).requestId).toBe("srv-1");
  });

  it("defaults the base URL to DICEREF_URL, then to the local default", () => {
    vi.stubEnv("DICEREF_URL", "http://dice.example:9000/");
    expect(new Client().baseUrl).toBe("http://dice.example:9000");
    expect(new Client({ baseUrl: "https://other.example" }).baseUrl).toBe("https://other.example");
    vi.stubEnv("DICEREF_URL", "");
    expect(new Client().baseUrl).toBe(DEFAULT_URL);
    expect(() => new Client({ baseUrl: "dice.example" })).toThrow(TypeError);
  });

  it("without a `process` (a browser) the default is the local URL", () => {
    vi.stubEnv("DICEREF_URL", "http://from-env.test");
    const saved = globalThis.process;
    vi.stubGlobal("process", undefined);
    try {
      expect(new Client().baseUrl).toBe(DEFAULT_URL);
    } finally {
      vi.stubGlobal("process", saved);
      vi.unstubAllGlobals();
    }
    expect(new Client().baseUrl).toBe("http://from-env.test");
  });

  it("sends calls to DICEREF_URL when no base URL is given", async () => {
    vi.stubEnv("DICEREF_URL", "http://from-env.test");
    const { fetch, sent } = fakeFetch([{ status: 200, body: HEALTH }]);
    await new Client({ fetch }).healthz();
    expect(sent[0]?.url).toBe("http://from-env.test/healthz");
  });

  it("exports the API version it was generated from", () => {
    expect(API_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("errors", () => {
  const cases = [
    [400, "invalid-request", BadRequestError],
    [404, "unknown-game", NotFoundError],
    [413, "body-too-large", PayloadTooLargeError],
    [422, "rule-violation", RuleViolationError],
    [429, "solve-queue-full", RateLimitedError],
    [503, "table-solving", UnavailableError],
    [500, "internal", ServerError],
    [415, "unsupported-media-type", APIError],
  ] as const;

  for (const [status, kind, cls] of cases) {
    it(`${status} ${kind} is a ${cls.name} keeping the problem's fields`, async () => {
      const errors = [{ field: "dice[4]", reason: "must be at most 6", code: "out_of_range" }];
      const body = problem(status, kind, { errors, retry_after: 7, request_id: "body-id" });
      const { dice } = client([{ status, body }], { maxAttempts: 1 });
      const error = await dice.score(SCORE).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(cls);
      expect(error).toBeInstanceOf(DicerefError);
      const api = error as APIError;
      expect(api.constructor).toBe(cls);
      expect(api.name).toBe(cls.name);
      expect(api.status).toBe(status);
      expect(api.type).toBe(PROBLEMS + kind);
      expect(api.title).toBe(kind);
      expect(api.detail).toBe(`a ${kind} problem`);
      expect(api.instance).toBe("/score");
      expect(api.errors).toEqual(errors);
      expect(api.code).toBe("out_of_range");
      expect(api.retryAfter).toBe(7);
      expect(api.requestId).toBe("body-id");
      expect(api.problem).toEqual(body);
    });
  }

  it("takes Retry-After from the header over the body", async () => {
    const body = problem(503, "table-loading", { retry_after: 5 });
    const { dice } = client([{ status: 503, body, headers: { "retry-after": "2" } }], { maxAttempts: 1 });
    const error = (await dice.holds({ game: "yahtzee", dice: [1, 2, 3, 4, 5], throws_left: 1 }).catch((e: unknown) => e)) as UnavailableError;
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.retryAfter).toBe(2);
  });

  it("keeps a body that is not a problem as the detail", async () => {
    const { dice } = client([{ status: 502, body: "<html>bad gateway</html>" }], { maxAttempts: 1 });
    const error = (await dice.healthz().catch((e: unknown) => e)) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.status).toBe(502);
    expect(error.detail).toBe("<html>bad gateway</html>");
    expect(error.type).toBe("about:blank");
  });

  it("a success whose body is not JSON is an InvalidResponseError, not retried", async () => {
    const { dice, sent } = client([{ status: 200, body: "<html>login</html>" }]);
    const error = await dice.games().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).requestId).toBe(sent[0]?.headers["x-request-id"]);
    expect(sent).toHaveLength(1);
  });
});

describe("retries", () => {
  it("retries 408, 429, 502, 503 and 504 up to maxAttempts, then throws the last error", async () => {
    for (const status of [408, 429, 502, 503, 504]) {
      const { dice, sent, waits } = client([{ status, body: problem(status, "x") }], { maxAttempts: 4 });
      const error = (await dice.score(SCORE).catch((e: unknown) => e)) as APIError;
      expect(error.status).toBe(status);
      expect(sent).toHaveLength(4);
      expect(waits).toHaveLength(3);
    }
  });

  it("does not retry 400, 404, 413, 422 or 500", async () => {
    for (const status of [400, 404, 413, 422, 500]) {
      const { dice, sent } = client([{ status, body: problem(status, "x") }, { status: 200, body: {} }]);
      await expect(dice.score(SCORE)).rejects.toBeInstanceOf(APIError);
      expect(sent).toHaveLength(1);
    }
  });

  it("answers with the first success after failures", async () => {
    const { dice, sent } = client([
      { status: 503, body: problem(503, "table-loading") },
      new TypeError("fetch failed"),
      { status: 200, body: HEALTH },
    ]);
    expect(await dice.healthz()).toEqual(HEALTH);
    expect(sent).toHaveLength(3);
  });

  it("retries network failures, then throws an APIConnectionError with the request id", async () => {
    const { dice, sent } = client([new TypeError("fetch failed")]);
    const error = (await dice.healthz().catch((e: unknown) => e)) as APIConnectionError;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APITimeoutError);
    expect(sent).toHaveLength(3);
    expect(error.requestId).toBe(sent[0]?.headers["x-request-id"]);
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it("waits the Retry-After seconds the API asks, capped at maxRetryAfter", async () => {
    const { dice, waits } = client(
      [
        { status: 503, body: problem(503, "table-solving"), headers: { "retry-after": "3" } },
        { status: 429, body: problem(429, "solve-queue-full"), headers: { "retry-after": "120" } },
        { status: 200, body: {} },
      ],
      { maxRetryAfter: 10_000 },
    );
    await dice.score(SCORE);
    expect(waits).toEqual([3000, 10_000]);
  });

  it("with the default sleep, the retry comes only once Retry-After has passed", async () => {
    vi.useFakeTimers();
    const { fetch, sent } = fakeFetch([
      { status: 503, body: problem(503, "table-loading"), headers: { "retry-after": "2" } },
      { status: 200, body: HEALTH },
    ]);
    const dice = new Client({ baseUrl: BASE, fetch });
    const answer = dice.healthz();
    await vi.advanceTimersByTimeAsync(1_900);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(sent).toHaveLength(2);
    expect(await answer).toEqual(HEALTH);
  });

  it("backs off exponentially with jitter, capped at maxBackoff", async () => {
    const { dice, waits } = client([{ status: 502, body: problem(502, "x") }], {
      maxAttempts: 7,
      backoff: 100,
      maxBackoff: 1_000,
      random: () => 0.999_999,
    });
    await expect(dice.healthz()).rejects.toBeInstanceOf(ServerError);
    expect(waits.map(Math.round)).toEqual([100, 200, 400, 800, 1000, 1000]);
    const low = client([{ status: 502, body: problem(502, "x") }], { backoff: 100, random: () => 0 });
    await expect(low.dice.healthz()).rejects.toBeInstanceOf(ServerError);
    expect(low.waits).toEqual([50, 100]);
  });

  it("takes maxAttempts per call", async () => {
    const { dice, sent } = client([{ status: 503, body: problem(503, "x") }]);
    await expect(dice.healthz({ maxAttempts: 1 })).rejects.toBeInstanceOf(UnavailableError);
    expect(sent).toHaveLength(1);
  });
});

/** A fetch that never answers, only rejects when its signal aborts. */
function hangingFetch(): { fetch: typeof fetch; calls: () => number } {
  let calls = 0;
  const fetchMock = (_: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    calls++;
    return new Promise((_, reject) => {
      init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    });
  };
  return { fetch: fetchMock, calls: () => calls };
}

describe("timeouts", () => {
  it("aborts an attempt after the client's timeout, retries, and throws APITimeoutError", async () => {
    const { fetch, calls } = hangingFetch();
    const dice = new Client({ baseUrl: BASE, fetch, timeout: 30, maxAttempts: 2, sleep: async () => {} });
    const started = Date.now();
    const error = (await dice.healthz({ requestId: "slow-1" }).catch((e: unknown) => e)) as APITimeoutError;
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.requestId).toBe("slow-1");
    expect(calls()).toBe(2);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("takes a timeout per call over the client's", async () => {
    vi.useFakeTimers();
    const { fetch } = hangingFetch();
    const dice = new Client({ baseUrl: BASE, fetch, timeout: 60_000, maxAttempts: 1 });
    const answer = dice.healthz({ timeout: 500 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(499);
    let settled = false;
    void answer.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(await answer).toBeInstanceOf(APITimeoutError);
  });

  it("a signal aborted before the call sends nothing", async () => {
    const { fetch, sent } = fakeFetch([{ status: 200, body: HEALTH }]);
    const dice = new Client({ baseUrl: BASE, fetch });
    await expect(dice.healthz({ signal: AbortSignal.abort() })).rejects.toHaveProperty("name", "AbortError");
    expect(sent).toHaveLength(0);
  });

  it("a signal aborted during the wait between attempts stops the retries", async () => {
    const stop = new AbortController();
    const { dice, sent } = client([{ status: 503, body: problem(503, "table-loading") }], {
      sleep: async () => stop.abort(),
    });
    await expect(dice.healthz({ signal: stop.signal })).rejects.toHaveProperty("name", "AbortError");
    expect(sent).toHaveLength(1);
  });

  it("the caller's abort stops the call without a retry", async () => {
    const { fetch, calls } = hangingFetch();
    const dice = new Client({ baseUrl: BASE, fetch, sleep: async () => {} });
    const stop = new AbortController();
    const answer = dice.healthz({ signal: stop.signal }).catch((e: unknown) => e);
    stop.abort();
    const error = await answer;
    expect(error).not.toBeInstanceOf(DicerefError);
    expect((error as Error).name).toBe("AbortError");
    expect(calls()).toBe(1);
  });
});

describe("with the platform's fetch", () => {
  it("a port nobody listens on is an APIConnectionError after every attempt", async () => {
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const { port } = server.address() as AddressInfo;
    await new Promise((done) => server.close(done));
    const waits: number[] = [];
    const dice = new Client({ baseUrl: `http://127.0.0.1:${port}`, sleep: async (ms) => void waits.push(ms) });
    const error = (await dice.healthz({ requestId: "closed-port" }).catch((e: unknown) => e)) as APIConnectionError;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APITimeoutError);
    expect(error.requestId).toBe("closed-port");
    expect(waits).toHaveLength(2);
  });
});

describe("waitForRuleset", () => {
  const ruleset = (status: Schemas["RulesetResponse"]["status"], progress: number): Schemas["RulesetResponse"] =>
    ({ status, progress, ruleset_id: "yardkle-abc", game: "yardkle" }) as Schemas["RulesetResponse"];

  it("polls POST /rulesets until ready, waiting out a full queue by its Retry-After", async () => {
    const { dice, sent, waits } = client(
      [
        { status: 200, body: ruleset("queued", 0) },
        { status: 429, body: problem(429, "solve-queue-full"), headers: { "retry-after": "4" } },
        { status: 200, body: ruleset("solving", 0.5) },
        { status: 200, body: ruleset("ready", 1) },
      ],
      { maxAttempts: 1 },
    );
    const ready = await dice.waitForRuleset({ game: "yardkle", rules: { three_ones: 1000 } }, { poll: 250 });
    expect(ready.status).toBe("ready");
    expect(sent.map((s) => s.url)).toEqual(Array(4).fill(`${BASE}/rulesets`));
    expect(waits).toEqual([250, 4000, 250]);
  });

  it("gives up at its timeout with the last status", async () => {
    const { dice } = client([{ status: 200, body: ruleset("solving", 0.25) }]);
    const error = (await dice
      .waitForRuleset({ game: "yardkle" }, { timeout: 100, poll: 1_000 })
      .catch((e: unknown) => e)) as RulesetNotReady;
    expect(error).toBeInstanceOf(RulesetNotReady);
    expect(error.last?.status).toBe("solving");
    expect(error.message).toContain("25%");
  });

  it("throws RulesetFailed when the solve failed, and the API's errors for refused rules", async () => {
    const failed = client([{ status: 200, body: ruleset("failed", 0) }]);
    await expect(failed.dice.waitForRuleset({ game: "yardkle" })).rejects.toBeInstanceOf(RulesetFailed);
    const refused = client([{ status: 422, body: problem(422, "invalid-rules") }]);
    await expect(refused.dice.waitForRuleset({ game: "yardkle" })).rejects.toBeInstanceOf(RuleViolationError);
  });
});

describe("API versions", () => {
  const versioned = (version: string, answer: Answer = { status: 200, body: HEALTH }): Answer => ({
    ...answer,
    headers: { "x-api-version": version, "x-request-id": "srv-7", ...answer.headers },
  });

  it("is generated for the document's version", () => {
    expect(API_VERSION).toBe("0.1.0");
  });

  it.each([
    ["0.1.0", "0.1"],
    ["0.1.7", "0.1"],
    ["0.2.0", "0.2"],
    ["1.4.2", "1"],
    ["v2.0", "2"],
    ["latest", undefined],
    ["1", undefined],
  ])("reads the compatibility line of %s as %s", (version, line) => {
    expect(compatibilityLine(version)).toBe(line);
  });

  it.each(["0.1.0", "0.1.9", "0.1.0-rc.1", "not-a-version"])("answers as usual from a service of %s", async (version) => {
    const { dice } = client([versioned(version)]);
    expect(await dice.healthz()).toEqual(HEALTH);
  });

  it("does not check a service that sends no X-API-Version (older services)", async () => {
    const { dice } = client([{ status: 200, body: HEALTH }]);
    expect(await dice.healthz()).toEqual(HEALTH);
  });

  it.each(["0.2.0", "1.0.0"])("throws VersionMismatchError, unparsed, for a success from %s", async (version) => {
    const { dice, sent, waits } = client([versioned(version, { status: 200, body: "not even JSON" })]);
    const error = await dice.healthz().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VersionMismatchError);
    expect(error).toBeInstanceOf(DicerefError);
    const mismatch = error as VersionMismatchError;
    expect(mismatch.message).toBe(
      `GET /healthz: the service speaks API ${version}, this client was generated for 0.1.0`,
    );
    expect(mismatch.name).toBe("VersionMismatchError");
    expect(mismatch.serviceVersion).toBe(version);
    expect(mismatch.clientVersion).toBe("0.1.0");
    expect(mismatch.requestId).toBe("srv-7");
    expect(mismatch.status).toBe(200);
    expect(sent).toHaveLength(1); // not retried
    expect(waits).toEqual([]);
  });

  it("names both versions in a problem from another major", async () => {
    const { dice } = client([versioned("1.0.0", { status: 400, body: problem(400, "invalid-request") })]);
    const error = await dice.score(SCORE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toBe(
      "400 invalid-request: a invalid-request problem " +
        "(the service speaks API 1.0.0, this client was generated for 0.1.0)",
    );
    expect((error as BadRequestError).serviceVersion).toBe("1.0.0");
  });

  it("says nothing of versions in a problem from the same major", async () => {
    const { dice } = client([versioned("0.1.2", { status: 404, body: problem(404, "unknown-game") })]);
    const error = await dice.gamesByGame({ game: "nope" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toBe("404 unknown-game: a unknown-game problem");
    expect((error as NotFoundError).serviceVersion).toBe("0.1.2");
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds and HTTP dates", () => {
    expect(parseRetryAfter("5")).toBe(5);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
    const now = Date.parse("Wed, 02 Dec 2026 12:00:00 GMT");
    expect(parseRetryAfter("Wed, 02 Dec 2026 12:00:30 GMT", now)).toBe(30);
  });
});
