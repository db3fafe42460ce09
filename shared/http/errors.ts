// Every failure the API can return is an ApiError: it carries its HTTP status, contract code and
// field details, and the response shaper turns it into the contract's error body.

export type ErrorCode =
  | 'auth/invalid-key'
  | 'auth/forbidden'
  | 'not-found'
  | 'validation/invalid'
  | 'validation/too-large'
  | 'conflict'
  | 'idempotency/conflict'
  | 'rate-limit'
  | 'internal';

export const ERROR_STATUS: Record<ErrorCode, number> = {
  'auth/invalid-key': 401,
  'auth/forbidden': 403,
  'not-found': 404,
  'validation/invalid': 422,
  'validation/too-large': 413,
  conflict: 409,
  'idempotency/conflict': 409,
  'rate-limit': 429,
  internal: 500,
};

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  /** Extra response headers, e.g. Retry-After on 429. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

export const errors = {
  missingApiKey: () => new ApiError('auth/invalid-key', 'Missing API Key'),
  invalidApiKey: () => new ApiError('auth/invalid-key', 'Invalid API Key'),
  forbidden: (message = 'Your agent role may not call this endpoint') => new ApiError('auth/forbidden', message),
  notFound: (message = 'Resource not found') => new ApiError('not-found', message),
  invalid: (message: string, details?: ErrorDetail[]) =>
    new ApiError('validation/invalid', message, details ? { details } : {}),
  tooLarge: (limitBytes: number) =>
    new ApiError('validation/too-large', `Request body exceeds the ${limitBytes} byte limit of this endpoint`),
  conflict: (message: string, details?: ErrorDetail[]) => new ApiError('conflict', message, details ? { details } : {}),
  idempotencyConflict: (message: string) => new ApiError('idempotency/conflict', message),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError('rate-limit', `Rate limit exceeded; retry after ${retryAfterSeconds} seconds`, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    }),
  internal: () => new ApiError('internal', 'An unexpected error occurred; the request id identifies it in our logs'),
};
