// THE table of the API's error codes (contract §1): code, HTTP status, and what it means. The error
// class (ApiError), the error body's schema and the OpenAPI descriptions are all derived from it.
// Only the HTTP layer reads statuses; domain and data code throws neutral Failures (shared/failures.ts).
import type { FailureKind } from '../failures.ts';

export const ERROR_CODES = {
  'request/malformed': {
    status: 400,
    description: 'The HTTP request itself could not be read (bad Content-Length, Content-Length with Transfer-Encoding, broken headers)',
  },
  'auth/invalid-key': {
    status: 401,
    description: 'Missing API Key, or Invalid API Key (malformed, unknown, revoked or of the other environment)',
  },
  'auth/forbidden': { status: 403, description: 'The caller’s role, or its part in the record, does not allow this action' },
  'auth/insufficient-scope': {
    status: 403,
    description: 'A restricted key without the scope this operation needs (`details` name it; `main`: only the agent’s main key may)',
  },
  'spending-limit': {
    status: 403,
    description: 'The order is over a limit of the restricted key (`details`: the limit’s path and what is left); nothing was written',
  },
  'not-found': { status: 404, description: 'Unknown route or id, or a record the caller is not a party to' },
  'method-not-allowed': {
    status: 405,
    description: 'A known path with a method it does not serve: Allow lists those it does',
  },
  conflict: { status: 409, description: 'The record’s current state does not allow this change (the state is in details); with Retry-After, a momentary collision: send it again' },
  'idempotency/conflict': {
    status: 409,
    description: 'Idempotency-Key reused with a different request, while the first is still running, or after a first that ran but whose response could not be stored',
  },
  'validation/too-large': { status: 413, description: 'Body over the endpoint’s size limit' },
  'request/headers-too-large': { status: 431, description: 'Request headers over 16 KB' },
  'validation/invalid': {
    status: 422,
    description: 'Body not JSON, wrong content type, or missing, unknown or ill-typed fields or query parameters (see details)',
  },
  'rate-limit': { status: 429, description: 'Over the plan’s limit, or the marketplace is momentarily busy; see Retry-After' },
  internal: { status: 500, description: 'Unexpected error; the requestId identifies it in the logs' },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

export function statusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

/** How a neutral failure is answered over HTTP. */
export const FAILURE_CODES: Record<FailureKind, ErrorCode> = {
  'not-found': 'not-found',
  conflict: 'conflict',
  invalid: 'validation/invalid',
  forbidden: 'auth/forbidden',
  unauthenticated: 'auth/invalid-key',
  busy: 'rate-limit',
  'spending-limit': 'spending-limit',
};
