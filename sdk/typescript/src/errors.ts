// What the SDK throws. An answer from the API that is not a success is a MarketplaceError (a subclass
// per kind of failure, and `code` from the API's error table); no answer at all, after the retries, is
// a MarketplaceConnectionError; a webhook that does not verify is a WebhookVerificationError.
import type { ErrorCode, ErrorDetail } from './types.ts';

export interface MarketplaceErrorInit {
  status: number;
  code: ErrorCode | (string & {});
  message: string;
  details?: ErrorDetail[];
  requestId?: string | null;
  headers?: Record<string, string>;
  /** How many HTTP attempts the call made before giving up. */
  attempts?: number;
}

/** The API answered with an error (`{error, code, status, requestId, details?}`). */
export class MarketplaceError extends Error {
  override name = 'MarketplaceError';
  /** The HTTP status. */
  readonly status: number;
  /** The API's error code (`not-found`, `validation/invalid`, `rate-limit`…), the thing to branch on. */
  readonly code: ErrorCode | (string & {});
  /** Field problems by dot path, for `validation/invalid` and for `conflict` (the record's state). */
  readonly details: ErrorDetail[];
  /** The request id (`req_…`) to quote to the marketplace's operators. */
  readonly requestId: string | null;
  /** The response headers, names in lower case. */
  readonly headers: Record<string, string>;
  /** Seconds the API asked to wait (`Retry-After`), when it said. */
  readonly retryAfterSeconds: number | null;
  /** How many HTTP attempts the call made (1 when it was not retried). */
  readonly attempts: number;

  constructor(init: MarketplaceErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.requestId = init.requestId ?? null;
    this.headers = init.headers ?? {};
    this.attempts = init.attempts ?? 1;
    const retryAfter = this.headers['retry-after'];
    this.retryAfterSeconds = retryAfter !== undefined && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null;
  }
}

/** 401 `auth/invalid-key`: the API key is missing, unknown, revoked or of the other environment. */
export class AuthenticationError extends MarketplaceError {
  override name = 'AuthenticationError';
}
/** 403 `auth/forbidden`: the caller's role, or its part in the record, does not allow this action. */
export class PermissionError extends MarketplaceError {
  override name = 'PermissionError';
}
/**
 * 403 `auth/insufficient-scope`: a restricted key without the scope the operation needs; `scope` names
 * it (`main`: only the agent's main key may). Ask the owner for a key with it.
 */
export class InsufficientScopeError extends PermissionError {
  override name = 'InsufficientScopeError';
  /** The scope the key lacks (`orders:write`…, or `main`). */
  get scope(): string | null {
    const detail = this.details.find((item) => item.path === 'scope');
    return detail ? detail.message.replace(/^needs /, '') : null;
  }
}
/**
 * 403 `spending-limit`: the order is over a limit of the restricted key; nothing was written. `details`
 * name each limit (`limits.spendPerDay`…) and what is left.
 */
export class SpendingLimitError extends PermissionError {
  override name = 'SpendingLimitError';
  /** The limits the order is over, by name (`spendPerDay`, `maxOrderAmount`, `currency`…). */
  get limits(): string[] {
    return this.details.filter((item) => item.path.startsWith('limits.')).map((item) => item.path.slice('limits.'.length));
  }
}
/** 404 `not-found`: an unknown id, or a record the caller is not a party to. */
export class NotFoundError extends MarketplaceError {
  override name = 'NotFoundError';
}
/** 409 `conflict`: the record's state does not allow this change (the state is in `details`). */
export class ConflictError extends MarketplaceError {
  override name = 'ConflictError';
}
/** 409 `idempotency/conflict`: the Idempotency-Key was used for another request, or that request is still running. */
export class IdempotencyError extends MarketplaceError {
  override name = 'IdempotencyError';
}
/** 422 `validation/invalid`, 413 `validation/too-large`, 400, 431: the request must change before it can succeed. */
export class InvalidRequestError extends MarketplaceError {
  override name = 'InvalidRequestError';
}
/** 429 `rate-limit`: over the plan's limit, or the marketplace is momentarily busy; see `retryAfterSeconds`. */
export class RateLimitError extends MarketplaceError {
  override name = 'RateLimitError';
}
/** 5xx: the marketplace failed; safe to retry with the same Idempotency-Key. */
export class InternalServerError extends MarketplaceError {
  override name = 'InternalServerError';
}

/** The error class for an error response. */
export function errorClassFor(status: number, code: string): typeof MarketplaceError {
  if (code === 'idempotency/conflict') return IdempotencyError;
  if (code === 'auth/insufficient-scope') return InsufficientScopeError;
  if (code === 'spending-limit') return SpendingLimitError;
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return InternalServerError;
  if (status >= 400) return InvalidRequestError;
  return MarketplaceError;
}

/** No answer from the API: the connection failed or every attempt timed out, after the retries. */
export class MarketplaceConnectionError extends Error {
  override name = 'MarketplaceConnectionError';
  /** True when the last attempt was abandoned because it took longer than `timeoutMs`. */
  readonly timedOut: boolean;
  /** How many HTTP attempts the call made. */
  readonly attempts: number;

  constructor(message: string, options: { cause?: unknown; timedOut: boolean; attempts: number }) {
    super(message, { cause: options.cause });
    this.timedOut = options.timedOut;
    this.attempts = options.attempts;
  }
}

/** A wait helper (`feeds.waitUntilDone`) gave up before the record reached a final state. */
export class WaitTimeoutError extends Error {
  override name = 'WaitTimeoutError';
}

/** A webhook request that must not be trusted: its signature, timestamp or headers do not check out. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}
