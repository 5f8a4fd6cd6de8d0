export { API_VERSION } from "./apiVersion.js";
export {
  Client,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_URL,
  ENV_URL,
  RETRY_STATUSES,
  parseRetryAfter,
  resolveBaseUrl,
} from "./client.js";
export type {
  CallOptions,
  ClientOptions,
  OperationId,
  RequestBody,
  ResponseBody,
  RetryPolicy,
  Schemas,
  WaitOptions,
} from "./client.js";
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  BadRequestError,
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
} from "./errors.js";
export type { DicerefErrorFields, FieldError, ProblemDetails, RulesetResponse } from "./errors.js";
export type { components, operations, paths } from "./schema.js";
export { API_VERSION_HEADER, compatibilityLine } from "./versions.js";
