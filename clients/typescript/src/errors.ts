/**
 * Errors: one class per kind of problem+json answer, and two for answers that never came,
 * as in the Python client (`diceref_client.errors`).
 *
 *     DicerefError
 *     ├── APIError                 the API answered with an error (a problem+json body)
 *     │   ├── BadRequestError        400: the request does not match the API's document
 *     │   ├── NotFoundError          404: no such game (or path)
 *     │   ├── PayloadTooLargeError   413: the request body is over the API's limit
 *     │   ├── RuleViolationError     422: well-formed, but breaks a rule of the game
 *     │   ├── RateLimitedError       429: the solve queue is full; `retryAfter` seconds
 *     │   ├── UnavailableError       503: a table is loading or being solved; `retryAfter`
 *     │   └── ServerError            any other 5xx
 *     ├── InvalidResponseError     a success status whose body is not JSON
 *     ├── VersionMismatchError     a success from a service of another major API version
 *     ├── APIConnectionError       no answer: cannot connect, connection lost
 *     │   └── APITimeoutError        no answer in time
 *     ├── RulesetNotReady          `waitForRuleset` gave up at its timeout
 *     └── RulesetFailed            the service could not solve the ruleset's tables
 *
 * Every error has `requestId`: the `X-Request-ID` of the answer (the one the client sent,
 * when no answer came), to quote when reporting it, and `serviceVersion`: the API version
 * the service said it speaks (`X-API-Version`; undefined when it said none).  When its
 * major differs from the client's `API_VERSION` (for 0.x, the minor: see `versions.ts`), an
 * `APIError`'s message ends with both versions, and a success is not parsed but thrown as
 * `VersionMismatchError`.
 */
import { API_VERSION } from "./apiVersion.js";
import type { components } from "./schema.js";
import { API_VERSION_HEADER, incompatibleVersion, mismatchNote } from "./versions.js";

export type ProblemDetails = components["schemas"]["ProblemDetails"];
export type FieldError = components["schemas"]["FieldError"];
export type RulesetResponse = components["schemas"]["RulesetResponse"];

export interface DicerefErrorFields {
  requestId?: string | undefined;
  status?: number | undefined;
  type?: string | undefined;
  errors?: readonly FieldError[] | undefined;
  retryAfter?: number | undefined;
  serviceVersion?: string | undefined;
  cause?: unknown;
}

/** Base of every error the client throws.  `status`, `type`, `errors` and `retryAfter` are
 * set when the API answered (an `APIError`); `code` is the first field error's code. */
export class DicerefError extends Error {
  override name = "DicerefError";
  readonly requestId: string | undefined;
  readonly status: number | undefined;
  readonly type: string | undefined;
  readonly errors: readonly FieldError[];
  readonly retryAfter: number | undefined;
  /** The API version the answer named (`X-API-Version`), if any. */
  readonly serviceVersion: string | undefined;

  constructor(message: string, fields: DicerefErrorFields = {}) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.requestId = fields.requestId;
    this.status = fields.status;
    this.type = fields.type;
    this.errors = fields.errors ?? [];
    this.retryAfter = fields.retryAfter;
    this.serviceVersion = fields.serviceVersion;
  }

  /** The stable code of the first offending field (`wrong_type`, `unknown_value`, ...). */
  get code(): string | undefined {
    return this.errors[0]?.code;
  }
}

/** The API answered with an error status; every field of its problem+json body is kept. */
export class APIError extends DicerefError {
  override name = "APIError";
  declare readonly status: number;
  declare readonly type: string;
  readonly title: string;
  readonly detail: string;
  readonly instance: string;
  readonly problem: ProblemDetails;
  readonly headers: Headers;

  /** `retryAfter`: the Retry-After header's seconds when the API sent one, else the
   * problem's own `retry_after`; `sentId`: the request id sent, for an answer naming none. */
  constructor(
    problem: ProblemDetails,
    status: number,
    headers: Headers,
    retryAfter?: number,
    sentId?: string,
  ) {
    const message = `${status} ${problem.title}: ${problem.detail}`;
    const other = incompatibleVersion(headers);
    super(other === undefined ? message : `${message} (${mismatchNote(other)})`, {
      serviceVersion: headers.get(API_VERSION_HEADER) || undefined,
      requestId: headers.get("x-request-id") || problem.request_id || sentId,
      status,
      type: problem.type,
      errors: problem.errors ?? [],
      retryAfter: retryAfter ?? problem.retry_after ?? undefined,
    });
    this.title = problem.title;
    this.detail = problem.detail;
    this.instance = problem.instance ?? "";
    this.problem = problem;
    this.headers = headers;
  }
}

/** 400: the request does not match the API's document; `errors` names each field. */
export class BadRequestError extends APIError {
  override name = "BadRequestError";
}

/** 404: no such game (problem type `unknown-game`) or route (`unknown-route`). */
export class NotFoundError extends APIError {
  override name = "NotFoundError";
}

/** 413: the request body is larger than the API accepts (`DICEREF_MAX_BODY_BYTES`). */
export class PayloadTooLargeError extends APIError {
  override name = "PayloadTooLargeError";
}

/** 422: the request is well-formed but breaks a rule of the game. */
export class RuleViolationError extends APIError {
  override name = "RuleViolationError";
}

/** 429: the replica's solve queue is full; retry after `retryAfter` seconds. */
export class RateLimitedError extends APIError {
  override name = "RateLimitedError";
}

/** 503: a table the answer needs is loading (`table-loading`) or being solved
 * (`table-solving`); retry after `retryAfter` seconds. */
export class UnavailableError extends APIError {
  override name = "UnavailableError";
}

/** A 5xx other than 503: the API failed to answer. */
export class ServerError extends APIError {
  override name = "ServerError";
}

/** A success status whose body is not JSON (a proxy's page, a wrong base URL). */
export class InvalidResponseError extends DicerefError {
  override name = "InvalidResponseError";
}

/** A success answer from a service of another major API version than the client's
 * (`X-API-Version`): its body may not mean what the client's types say, so it is not
 * parsed.  `serviceVersion` and `clientVersion` name both versions. */
export class VersionMismatchError extends DicerefError {
  override name = "VersionMismatchError";
  declare readonly serviceVersion: string;
  readonly clientVersion: string = API_VERSION;

  constructor(method: string, path: string, serviceVersion: string, fields: DicerefErrorFields = {}) {
    super(`${method} ${path}: ${mismatchNote(serviceVersion)}`, { ...fields, serviceVersion });
  }
}

/** No answer: the connection could not be made or was lost. */
export class APIConnectionError extends DicerefError {
  override name = "APIConnectionError";
}

/** No answer within the timeout. */
export class APITimeoutError extends APIConnectionError {
  override name = "APITimeoutError";
}

/** `waitForRuleset` gave up: the tables were not ready within its timeout (`last` is the
 * last answer, undefined if the solve queue was full). */
export class RulesetNotReady extends DicerefError {
  override name = "RulesetNotReady";
  readonly last: RulesetResponse | undefined;

  constructor(last: RulesetResponse | undefined, timeout: number) {
    const where = last === undefined ? "queue full" : `${last.status}, ${Math.round(last.progress * 100)}%`;
    super(`the ruleset's tables are not ready after ${timeout} ms (${where})`);
    this.last = last;
  }
}

/** The service could not solve the ruleset's tables (`answer.status` is `failed`). */
export class RulesetFailed extends DicerefError {
  override name = "RulesetFailed";
  readonly answer: RulesetResponse;

  constructor(answer: RulesetResponse) {
    super(`solving the tables of ruleset ${answer.ruleset_id} failed`);
    this.answer = answer;
  }
}

type APIErrorClass = new (
  problem: ProblemDetails,
  status: number,
  headers: Headers,
  retryAfter?: number,
  sentId?: string,
) => APIError;

const BY_STATUS: ReadonlyMap<number, APIErrorClass> = new Map<number, APIErrorClass>([
  [400, BadRequestError],
  [404, NotFoundError],
  [413, PayloadTooLargeError],
  [422, RuleViolationError],
  [429, RateLimitedError],
  [503, UnavailableError],
]);

function isProblem(value: unknown): value is ProblemDetails {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.type === "string" && typeof v.title === "string" && typeof v.detail === "string";
}

/** The error for an error answer: its status, headers and body text (problem+json, or
 * whatever a proxy sent, kept as the detail), and the request id that was sent. */
export function errorFor(
  status: number,
  headers: Headers,
  body: string,
  retryAfter: number | undefined,
  statusText = "",
  sentId?: string,
): APIError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const problem: ProblemDetails = isProblem(parsed)
    ? parsed
    : {
        type: "about:blank",
        title: statusText || `HTTP ${status}`,
        status,
        detail: body.slice(0, 500),
        instance: "",
        request_id: "",
      };
  const cls = BY_STATUS.get(status) ?? (status >= 500 ? ServerError : APIError);
  return new cls(problem, status, headers, retryAfter, sentId);
}
