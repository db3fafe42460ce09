// Every failure the API answers with is an ApiError: a code of the error table (its status comes from
// there), a message that says what to fix, field details, and extra headers (Retry-After).
// toApiError is the one mapping from anything thrown to the contract's error; the response shaper uses it.
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
  methodNotAllowed: (message: string, allow: string) => new ApiError('request/method-not-allowed', message, { headers: { Allow: allow } }),
  invalid: (message: string, details?: ErrorDetail[]) =>
    new ApiError('validation/invalid', message, details ? { details } : {}),
  tooLarge: (limitBytes: number, advice?: string) =>
    new ApiError('validation/too-large', `Request body exceeds the ${limitBytes} byte limit of this endpoint${advice ? `. ${advice}` : ''}`),
  idempotencyConflict: (message: string) => new ApiError('idempotency/conflict', message),
  rateLimited: (retryAfterSeconds: number, message = `Rate limit exceeded; retry after ${retryAfterSeconds} seconds`) =>
    new ApiError('rate-limit', message, { headers: { 'Retry-After': String(retryAfterSeconds) } }),
  internal: () => new ApiError('internal', 'An unexpected error occurred; the request id identifies it in our logs'),
};

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
  return undefined;
}
