// When to try a request again and how long to wait first: pure rules, so they can be tested alone.

export interface RetryPolicy {
  /** Retries after the first attempt (so at most maxRetries + 1 attempts). */
  maxRetries: number;
  /** No retry is started that would begin later than this many ms after the call began. */
  maxRetryTimeMs: number;
  /** The first retry waits up to this long; each later one up to twice as long as the one before. */
  initialDelayMs: number;
  /** The most any backoff (not Retry-After) waits. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 2, maxRetryTimeMs: 60_000, initialDelayMs: 500, maxDelayMs: 8_000 };

/** Exponential backoff with full jitter: uniformly random in [0, min(max, initial × 2^(retry−1))). */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/** `Retry-After` in ms: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfterMs(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its day and month ("Sun, 22 Nov 2026 10:00:05 GMT"); Date.parse alone takes "-1".
  const date = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/** What an attempt ended with, as far as retrying is concerned. */
export type AttemptOutcome =
  | { kind: 'network' }
  | { kind: 'timeout' }
  | { kind: 'response'; status: number; code: string | undefined; retryAfterMs: number | null };

/**
 * Whether the outcome is worth another attempt of the same request (with the same Idempotency-Key):
 * no answer, 429, 5xx; a 409 `idempotency/conflict` only when an earlier attempt of this call may still
 * be running (the key is the call's own, so it cannot have been used for another request); and any
 * answer the API marks as retryable with `Retry-After`.
 */
export function isRetryable(outcome: AttemptOutcome, attempt: number): boolean {
  if (outcome.kind !== 'response') return true;
  const { status, code, retryAfterMs } = outcome;
  if (status === 429 || status >= 500) return true;
  if (status === 409 && code === 'idempotency/conflict' && attempt > 1) return true;
  return status === 409 && retryAfterMs !== null;
}

/**
 * How long to wait before retry number `retry` (1 for the first), or null for no retry: not retryable,
 * out of retries, or the wait would end past the time budget. A Retry-After is a floor under the
 * jittered backoff, never shortened.
 */
export function retryDelayMs(input: {
  outcome: AttemptOutcome;
  attempt: number;
  elapsedMs: number;
  policy: RetryPolicy;
  random?: () => number;
}): number | null {
  const { outcome, attempt, elapsedMs, policy } = input;
  if (attempt > policy.maxRetries || !isRetryable(outcome, attempt)) return null;
  const backoff = backoffDelayMs(attempt, policy, input.random);
  const retryAfter = outcome.kind === 'response' ? outcome.retryAfterMs : null;
  const delay = retryAfter === null ? backoff : Math.max(retryAfter, backoff);
  return elapsedMs + delay > policy.maxRetryTimeMs ? null : delay;
}
