// The retry rules alone: backoff with full jitter, Retry-After parsing, what is retryable, the budget.
import { describe, expect, it } from 'vitest';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, isRetryable, parseRetryAfterMs, retryDelayMs, type RetryPolicy } from '../src/retry.ts';

const policy: RetryPolicy = { maxRetries: 3, maxRetryTimeMs: 60_000, initialDelayMs: 500, maxDelayMs: 8_000 };
const response = (status: number, code?: string, retryAfterMs: number | null = null) => ({ kind: 'response' as const, status, code, retryAfterMs });

describe('backoffDelayMs', () => {
  it('doubles its ceiling with each retry, up to the maximum, and jitters over the whole range', () => {
    const top = () => 0.999999;
    expect([1, 2, 3, 4, 5, 6, 7].map((retry) => backoffDelayMs(retry, policy, top))).toEqual([499, 999, 1999, 3999, 7999, 7999, 7999]);
    expect(backoffDelayMs(3, policy, () => 0)).toBe(0);
    expect(backoffDelayMs(2, policy, () => 0.5)).toBe(500);
  });

  it('spreads real random delays across [0, ceiling)', () => {
    const delays = Array.from({ length: 200 }, () => backoffDelayMs(3, policy));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...delays)).toBeLessThan(2000);
    expect(new Set(delays).size).toBeGreaterThan(50);
  });
});

describe('parseRetryAfterMs', () => {
  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    expect(parseRetryAfterMs('3')).toBe(3000);
    expect(parseRetryAfterMs(' 0 ')).toBe(0);
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfterMs('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfterMs('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs(undefined)).toBeNull();
    expect(parseRetryAfterMs(null)).toBeNull();
    expect(parseRetryAfterMs('soon')).toBeNull();
    expect(parseRetryAfterMs('-1')).toBeNull();
  });
});

describe('isRetryable', () => {
  it('retries no answer, 429 and 5xx, and not other client errors', () => {
    expect(isRetryable({ kind: 'network' }, 1)).toBe(true);
    expect(isRetryable({ kind: 'timeout' }, 1)).toBe(true);
    for (const status of [429, 500, 502, 503, 504]) expect(isRetryable(response(status), 1), String(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 413, 422]) expect(isRetryable(response(status), 2), String(status)).toBe(false);
    expect(isRetryable(response(409, 'conflict'), 2)).toBe(false);
  });

  it('retries idempotency/conflict only when an earlier attempt of the call may still be running', () => {
    expect(isRetryable(response(409, 'idempotency/conflict'), 1)).toBe(false);
    expect(isRetryable(response(409, 'idempotency/conflict'), 2)).toBe(true);
  });

  it('retries a 409 the API marks with Retry-After', () => {
    expect(isRetryable(response(409, 'conflict', 1000), 1)).toBe(true);
  });
});

describe('retryDelayMs', () => {
  const at = (attempt: number, outcome = response(503), elapsedMs = 0) => retryDelayMs({ outcome, attempt, elapsedMs, policy, random: () => 0.5 });

  it('stops after maxRetries retries', () => {
    expect(at(1)).toBe(250);
    expect(at(3)).toBe(1000);
    expect(at(4)).toBeNull();
    expect(retryDelayMs({ outcome: response(503), attempt: 3, elapsedMs: 0, policy: DEFAULT_RETRY_POLICY })).toBeNull();
  });

  it('waits at least Retry-After, never less', () => {
    expect(at(1, response(429, 'rate-limit', 4000))).toBe(4000);
    expect(at(1, response(429, 'rate-limit', 0))).toBe(250);
  });

  it('does not start a retry that would begin past the time budget', () => {
    expect(at(1, response(429, 'rate-limit', 61_000))).toBeNull();
    expect(at(1, response(429, 'rate-limit', 30_000), 29_000)).toBe(30_000);
    expect(at(1, response(429, 'rate-limit', 30_000), 31_000)).toBeNull();
  });

  it('gives up at once on what is not retryable', () => {
    expect(at(1, response(422, 'validation/invalid'))).toBeNull();
  });
});
