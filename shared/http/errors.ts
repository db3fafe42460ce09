// Every failure the API answers with is an ApiError: a code of the error table (its status comes from
// there), a message that says what to fix, field details, and extra headers (Retry-After).
// toApiError is the one mapping from anything thrown to the contract's error (our failures and the JSON
// body parser's refusals alike); the response shaper's onError uses it.
import { Failure, type FieldProblem } from '../failures.ts';
import { ERROR_CODES, FAILURE_CODES, type ErrorCode } from './error-codes.ts';

export type { ErrorCode } from './error-codes.ts';
export type ErrorDetail = FieldProblem;

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  /** Extra response headers, e.g. Retry-After on 429. */
  readonly headers: Record<string, string>;
  /** The request did not fail for what it asked but for a passing condition: an idempotent retry must run it again. */
  readonly transient: boolean;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; transient?: boolean } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.details = options.details;
    this.headers = options.headers ?? {};
    this.transient = options.transient ?? this.status >= 500;
  }
}

/** Seconds a client should wait when the store is momentarily throttled. */
const BUSY_RETRY_AFTER_SECONDS = 1;

export const errors = {
  missingApiKey: () => new ApiError('auth/invalid-key', 'Missing API Key'),
  invalidApiKey: () => new ApiError('auth/invalid-key', 'Invalid API Key'),
  forbidden: (message = 'Your agent role may not call this endpoint') => new ApiError('auth/forbidden', message),
  /** A restricted key without the route's scope (`main`: the main key only). */
  insufficientScope: (scope: string) =>
    new ApiError(
      'auth/insufficient-scope',
      scope === 'main'
        ? 'Only the agent’s main key may call this operation; this restricted key may not'
        : `This key lacks the ${scope} scope this operation needs; ask the owner for a key with it`,
      { details: [{ path: 'scope', message: `needs ${scope}` }] },
    ),
  notFound: (message = 'Resource not found') => new ApiError('not-found', message),
  methodNotAllowed: (message: string, allow: string) => new ApiError('method-not-allowed', message, { headers: { Allow: allow } }),
  invalid: (message: string, details?: ErrorDetail[]) =>
    new ApiError('validation/invalid', message, details ? { details } : {}),
  tooLarge: (limitBytes: number, advice?: string) =>
    new ApiError('validation/too-large', `Request body exceeds the ${limitBytes} byte limit of this endpoint${advice ? `. ${advice}` : ''}`),
  idempotencyConflict: (message: string) => new ApiError('idempotency/conflict', message),
  rateLimited: (retryAfterSeconds: number, message = `Rate limit exceeded; retry after ${retryAfterSeconds} seconds`) =>
    new ApiError('rate-limit', message, { headers: { 'Retry-After': String(retryAfterSeconds) } }),
  internal: () => new ApiError('internal', 'An unexpected error occurred; the request id identifies it in our logs'),
};

/** A refusal of @middy/http-json-body-parser (middleware/json-body.ts): an http-errors-style error naming the package. */
function jsonParserRefusal(error: unknown): { statusCode: number; message: string; sent: unknown } | undefined {
  if (!(error instanceof Error)) return undefined;
  const { statusCode } = error as { statusCode?: unknown };
  const cause = error.cause as { package?: unknown; data?: unknown } | undefined;
  if (typeof statusCode !== 'number' || cause?.package !== '@middy/http-json-body-parser') return undefined;
  return { statusCode, message: error.message, sent: cause.data };
}

/**
 * The contract's error for anything thrown; undefined for what is not expected (the caller logs it and
 * answers 500 internal).
 */
export function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof Failure) {
    const code = FAILURE_CODES[error.kind];
    if (error.kind === 'busy') {
      return new ApiError('rate-limit', error.message, { headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) }, transient: true });
    }
    // A transient conflict (a collision) invites the same request again: Retry-After says so, as for busy.
    const headers = error.transient ? { headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) } } : {};
    return new ApiError(code, error.message, { ...(error.details ? { details: error.details } : {}), ...headers, transient: error.transient });
  }
  const refusal = jsonParserRefusal(error);
  if (refusal?.statusCode === 415) {
    const got = typeof refusal.sent === 'string' && refusal.sent !== '' ? refusal.sent : 'no Content-Type';
    return errors.invalid(`Send the body as JSON with Content-Type: application/json (got ${got})`, [{ path: 'Content-Type', message: 'Must be application/json' }]);
  }
  if (refusal?.statusCode === 422) {
    // Its message: "Invalid or malformed JSON was provided", or "Forbidden key in JSON body".
    return errors.invalid(`The body is not valid JSON: ${refusal.message}; send a JSON object`, [{ path: 'body', message: 'Must be valid JSON' }]);
  }
  return undefined;
}
