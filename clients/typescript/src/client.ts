/**
 * `Client`: one typed method per operation of the diceref API, on `fetch` alone.
 *
 *     const dice = new Client({ baseUrl: "http://127.0.0.1:8000" }); // else $DICEREF_URL
 *     const advice = await dice.holds({ game: "yahtzee", dice: [2, 3, 4, 6, 6], throws_left: 1 });
 *
 * Every diceref operation is a pure computation on its request (nothing is stored between
 * calls), so repeating one, POST included, never does anything twice: network failures,
 * timeouts, 408, 429, 502, 503 and 504 are retried, waiting the `Retry-After` the API sends
 * or an exponential backoff with jitter.  One `X-Request-ID` is sent on every attempt of a
 * call, and carried by every error.  Every answer's `X-API-Version` is compared with the
 * `API_VERSION` the client was generated for (`versions.ts`): a success from a service of
 * another major version throws `VersionMismatchError`, unparsed, and an error names both.
 */
import { API_VERSION } from "./apiVersion.js";
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  DicerefError,
  InvalidResponseError,
  RateLimitedError,
  RulesetFailed,
  RulesetNotReady,
  VersionMismatchError,
  errorFor,
} from "./errors.js";
import { incompatibleVersion } from "./versions.js";
import type { components, operations } from "./schema.js";

/** The document's components: `Schemas["ScoreRequest"]`, `Schemas["ScoreResponse"]`, ... */
export type Schemas = components["schemas"];
export type OperationId = keyof operations;

type JsonContent<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
/** The JSON body an operation takes. */
export type RequestBody<Id extends OperationId> = JsonContent<operations[Id]["requestBody"]>;
/** The JSON body an operation answers with on success. */
export type ResponseBody<Id extends OperationId> = operations[Id]["responses"] extends {
  200: infer Ok;
}
  ? JsonContent<Ok>
  : never;

export const ENV_URL = "DICEREF_URL";
export const DEFAULT_URL = "http://127.0.0.1:8000";
/** Every operation answers in well under a second once its table is loaded. */
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_ATTEMPTS = 3;
/** 408 and 429: the client's fault, but retrying is what the server asks; 502, 503 and 504:
 * an ingress during a rollout, or a table still loading or being solved. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);

export interface RetryPolicy {
  /** Attempts per call, the first included (default 3; 1 never retries). */
  maxAttempts: number;
  /** The first backoff in ms, doubled after each attempt (default 500). */
  backoff: number;
  /** The longest backoff in ms (default 8000). */
  maxBackoff: number;
  /** The longest wait a `Retry-After` may ask, in ms (default 30000). */
  maxRetryAfter: number;
}

export interface ClientOptions extends Partial<RetryPolicy> {
  /** The API's root; default `$DICEREF_URL` under Node, else `http://127.0.0.1:8000`. */
  baseUrl?: string;
  /** Milliseconds for each attempt (default 10000). */
  timeout?: number;
  /** Headers sent on every request. */
  headers?: Record<string, string>;
  /** The `fetch` to send with (default the global one). */
  fetch?: typeof fetch;
  /** How to wait between attempts (default `setTimeout`); tests pass their own. */
  sleep?: (ms: number) => Promise<void>;
  /** A random number in [0, 1) for the jitter (default `Math.random`). */
  random?: () => number;
}

export interface CallOptions {
  /** Milliseconds for each attempt of this call. */
  timeout?: number;
  /** The `X-Request-ID` to send (default a new `crypto.randomUUID()`). */
  requestId?: string;
  /** Headers for this call, over the client's. */
  headers?: Record<string, string>;
  /** Aborts the call (no further attempt is made). */
  signal?: AbortSignal;
  /** Attempts for this call, the first included. */
  maxAttempts?: number;
}

export interface WaitOptions {
  /** Give up after this many ms (default 120000) with `RulesetNotReady`. */
  timeout?: number;
  /** Ms between polls (default 1000). */
  poll?: number;
}

type Env = { process?: { env?: Record<string, string | undefined> } };

/** `$DICEREF_URL` under Node (and Deno, Bun); undefined in a browser. */
function envUrl(): string | undefined {
  return (globalThis as Env).process?.env?.[ENV_URL] || undefined;
}

/** The argument, else `$DICEREF_URL`, else the local default; no trailing slash. */
export function resolveBaseUrl(url?: string): string {
  const chosen = url || envUrl() || DEFAULT_URL;
  if (!/^https?:\/\//.test(chosen)) {
    throw new TypeError(`base URL must start with http:// or https://, got ${JSON.stringify(chosen)}`);
  }
  return chosen.replace(/\/+$/, "");
}

/** The Retry-After header in seconds (delta-seconds or an HTTP date), if any. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const when = Date.parse(trimmed);
  return Number.isNaN(when) ? undefined : Math.max(0, (when - now) / 1000);
}

const defaultSleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

export class Client {
  readonly baseUrl: string;
  readonly timeout: number;
  readonly retries: Readonly<RetryPolicy>;
  readonly headers: Readonly<Record<string, string>>;
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;

  constructor(options: ClientOptions = {}) {
    this.baseUrl = resolveBaseUrl(options.baseUrl);
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.retries = {
      maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      backoff: options.backoff ?? 500,
      maxBackoff: options.maxBackoff ?? 8_000,
      maxRetryAfter: options.maxRetryAfter ?? 30_000,
    };
    if (!(this.retries.maxAttempts >= 1)) throw new RangeError("maxAttempts must be 1 or more");
    const headers: Record<string, string> = { accept: "application/json, application/problem+json" };
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    this.headers = headers;
    // The global fetch is looked up per call, so a fetch installed later is used too.
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#sleep = options.sleep ?? defaultSleep;
    this.#random = options.random ?? Math.random;
  }

  /** The wait in ms after failed attempt number `attempt` (0 for the first): the API's
   * `Retry-After` (at most `maxRetryAfter`), else `backoff * 2**attempt` (at most
   * `maxBackoff`) times a random factor in [0.5, 1]. */
  retryWait(attempt: number, retryAfterSeconds: number | undefined): number {
    const { backoff, maxBackoff, maxRetryAfter } = this.retries;
    if (retryAfterSeconds !== undefined) return Math.min(retryAfterSeconds * 1000, maxRetryAfter);
    return Math.min(maxBackoff, backoff * 2 ** attempt) * (0.5 + this.#random() / 2);
  }

  /** One call: its attempts, retries and waits; the parsed JSON answer, or an error. */
  async #request<T>(method: "GET" | "POST", path: string, body: unknown, options: CallOptions = {}): Promise<T> {
    const headers: Record<string, string> = { ...this.headers };
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    const requestId = options.requestId ?? headers["x-request-id"] ?? globalThis.crypto.randomUUID();
    headers["x-request-id"] = requestId;
    const content = body === undefined ? undefined : JSON.stringify(body);
    if (content !== undefined) headers["content-type"] = "application/json";
    const timeout = options.timeout ?? this.timeout;
    const maxAttempts = options.maxAttempts ?? this.retries.maxAttempts;
    const url = this.baseUrl + path;
    for (let attempt = 0; ; attempt++) {
      options.signal?.throwIfAborted(); // aborted before the call, or during a wait
      let error: DicerefError;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeout);
      const onAbort = (): void => controller.abort();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      try {
        const init: RequestInit = { method, headers, signal: controller.signal };
        if (content !== undefined) init.body = content;
        const response = await this.#fetch(url, init);
        const text = await response.text();
        const answerId = response.headers.get("x-request-id") || requestId;
        if (response.ok) {
          const other = incompatibleVersion(response.headers);
          if (other !== undefined) {
            throw new VersionMismatchError(method, path, other, { requestId: answerId, status: response.status });
          }
          try {
            return JSON.parse(text) as T;
          } catch (cause) {
            throw new InvalidResponseError(`${method} ${path}: the answer is not JSON`, {
              requestId: answerId,
              status: response.status,
              cause,
            });
          }
        }
        error = errorFor(
          response.status,
          response.headers,
          text,
          parseRetryAfter(response.headers.get("retry-after")),
          response.statusText,
          requestId,
        );
      } catch (cause) {
        if (cause instanceof DicerefError) throw cause;
        if (options.signal?.aborted) throw cause; // the caller's own abort: no retry
        error = controller.signal.aborted && isAbort(cause)
          ? new APITimeoutError(`${method} ${path}: no answer in ${timeout} ms`, { requestId, cause })
          : new APIConnectionError(`${method} ${path}: no answer (${String(cause)})`, { requestId, cause });
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      }
      const retryable = error instanceof APIError ? RETRY_STATUSES.has(error.status) : true;
      if (!retryable || attempt + 1 >= maxAttempts) throw error;
      await this.#sleep(this.retryWait(attempt, error.retryAfter));
    }
  }

  #post<Id extends OperationId>(path: string, body: RequestBody<Id>, options?: CallOptions): Promise<ResponseBody<Id>> {
    return this.#request<ResponseBody<Id>>("POST", path, body, options);
  }

  /** `GET /healthz`: liveness. */
  healthz(options?: CallOptions): Promise<ResponseBody<"healthz">> {
    return this.#request("GET", "/healthz", undefined, options);
  }

  /** `GET /games`: every game the API referees. */
  games(options?: CallOptions): Promise<ResponseBody<"games">> {
    return this.#request("GET", "/games", undefined, options);
  }

  /** `GET /games/{game}`: a game's full ruleset; `NotFoundError` if unknown. */
  gamesByGame(
    request: operations["gamesByGame"]["parameters"]["path"],
    options?: CallOptions,
  ): Promise<ResponseBody<"gamesByGame">> {
    return this.#request("GET", `/games/${encodeURIComponent(request.game)}`, undefined, options);
  }

  /** `POST /rulesets`: house rules checked, described and their tables' solve started. */
  rulesets(request: RequestBody<"rulesets">, options?: CallOptions): Promise<ResponseBody<"rulesets">> {
    return this.#post<"rulesets">("/rulesets", request, options);
  }

  /** `POST /score`: every box the throw may fill now, with points and bonus. */
  score(request: RequestBody<"score">, options?: CallOptions): Promise<ResponseBody<"score">> {
    return this.#post<"score">("/score", request, options);
  }

  /** `POST /holds`: every keep and every box, best expected total first (with `target`,
   * best chance to reach it). */
  holds(request: RequestBody<"holds">, options?: CallOptions): Promise<ResponseBody<"holds">> {
    return this.#post<"holds">("/holds", request, options);
  }

  /** `POST /distributions`: the distribution of the card's final total. */
  distributions(
    request: RequestBody<"distributions">,
    options?: CallOptions,
  ): Promise<ResponseBody<"distributions">> {
    return this.#post<"distributions">("/distributions", request, options);
  }

  /** `POST /scorecards/check`: every problem on the score sheets, totals and standings. */
  scorecardsCheck(
    request: RequestBody<"scorecardsCheck">,
    options?: CallOptions,
  ): Promise<ResponseBody<"scorecardsCheck">> {
    return this.#post<"scorecardsCheck">("/scorecards/check", request, options);
  }

  /** `POST /chicago/throws`: a Chicago throw's value and conversions. */
  chicagoThrows(
    request: RequestBody<"chicagoThrows">,
    options?: CallOptions,
  ): Promise<ResponseBody<"chicagoThrows">> {
    return this.#post<"chicagoThrows">("/chicago/throws", request, options);
  }

  /** `POST /chicago/rounds`: the ruling on a Chicago round. */
  chicagoRounds(
    request: RequestBody<"chicagoRounds">,
    options?: CallOptions,
  ): Promise<ResponseBody<"chicagoRounds">> {
    return this.#post<"chicagoRounds">("/chicago/rounds", request, options);
  }

  /** `POST /chicago/games`: every round's ruling and the standings. */
  chicagoGames(
    request: RequestBody<"chicagoGames">,
    options?: CallOptions,
  ): Promise<ResponseBody<"chicagoGames">> {
    return this.#post<"chicagoGames">("/chicago/games", request, options);
  }

  /** `POST /chicago/holds`: every keep and conversion, ranked. */
  chicagoHolds(
    request: RequestBody<"chicagoHolds">,
    options?: CallOptions,
  ): Promise<ResponseBody<"chicagoHolds">> {
    return this.#post<"chicagoHolds">("/chicago/holds", request, options);
  }

  /** `POST /yardkle/throws`: every set-aside a throw allows. */
  yardkleThrows(
    request: RequestBody<"yardkleThrows">,
    options?: CallOptions,
  ): Promise<ResponseBody<"yardkleThrows">> {
    return this.#post<"yardkleThrows">("/yardkle/throws", request, options);
  }

  /** `POST /yardkle/turns`: the referee's replay of a turn. */
  yardkleTurns(
    request: RequestBody<"yardkleTurns">,
    options?: CallOptions,
  ): Promise<ResponseBody<"yardkleTurns">> {
    return this.#post<"yardkleTurns">("/yardkle/turns", request, options);
  }

  /** `POST /yardkle/games`: standings, last turns and winners. */
  yardkleGames(
    request: RequestBody<"yardkleGames">,
    options?: CallOptions,
  ): Promise<ResponseBody<"yardkleGames">> {
    return this.#post<"yardkleGames">("/yardkle/games", request, options);
  }

  /** `POST /yardkle/holds`: every set-aside, bank or throw on, ranked. */
  yardkleHolds(
    request: RequestBody<"yardkleHolds">,
    options?: CallOptions,
  ): Promise<ResponseBody<"yardkleHolds">> {
    return this.#post<"yardkleHolds">("/yardkle/holds", request, options);
  }

  /** `POST /reviews`: what each decision of a played game cost against optimal play. */
  reviews(request: RequestBody<"reviews">, options?: CallOptions): Promise<ResponseBody<"reviews">> {
    return this.#post<"reviews">("/reviews", request, options);
  }

  /** `POST /yardkle/reviews`: what each Yardkle decision cost in expected turn points. */
  yardkleReviews(
    request: RequestBody<"yardkleReviews">,
    options?: CallOptions,
  ): Promise<ResponseBody<"yardkleReviews">> {
    return this.#post<"yardkleReviews">("/yardkle/reviews", request, options);
  }

  /**
   * `POST /rulesets` until the ruleset's tables are `ready` (the first call starts their
   * solve), at most `timeout` ms; a 429 (solve queue full) is waited out like a `queued`
   * status.  Throws `RulesetNotReady` on timeout, `RulesetFailed` if the solve failed, and
   * the API's errors for refused rules.
   */
  async waitForRuleset(
    request: RequestBody<"rulesets">,
    { timeout = 120_000, poll = 1_000 }: WaitOptions = {},
  ): Promise<ResponseBody<"rulesets">> {
    const deadline = Date.now() + timeout;
    let last: ResponseBody<"rulesets"> | undefined;
    for (;;) {
      let wait = poll;
      try {
        const answer = await this.rulesets(request);
        if (answer.status === "ready") return answer;
        if (answer.status === "failed") throw new RulesetFailed(answer);
        last = answer;
      } catch (error) {
        if (!(error instanceof RateLimitedError)) throw error;
        last = undefined;
        wait = error.retryAfter === undefined ? poll : error.retryAfter * 1000;
      }
      if (Date.now() + wait > deadline) throw new RulesetNotReady(last, timeout);
      await this.#sleep(wait);
    }
  }
}

