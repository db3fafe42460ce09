import { describe, expect, it } from 'vitest';
import type { ApiState } from '../../shared/http/api-state.ts';
import { rateLimitHeaders, UNLIMITED } from '../../shared/http/rate-limit-headers.ts';

const now = new Date('2026-11-22T10:15:30.000Z');
const state = (rateLimit: ApiState['rateLimit']) => ({ now, rateLimit }) as ApiState;
const minuteReset = Date.parse('2026-11-22T10:16:00.000Z') / 1000;
const dayReset = Date.parse('2026-11-23T00:00:00.000Z') / 1000;

describe('X-RateLimit headers', () => {
  it('describe the minute window while it has fewer requests left', () => {
    const headers = rateLimitHeaders(
      state({ allowed: true, minute: { limit: 60, remaining: 59, resetAt: minuteReset }, day: { limit: 1000, remaining: 999, resetAt: dayReset } }),
    );
    expect(headers).toEqual({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59', 'X-RateLimit-Reset': String(minuteReset) });
  });

  it('switch to the day window when it is closer to exhaustion', () => {
    const headers = rateLimitHeaders(
      state({ allowed: true, minute: { limit: 60, remaining: 50, resetAt: minuteReset }, day: { limit: 1000, remaining: 3, resetAt: dayReset } }),
    );
    expect(headers['X-RateLimit-Limit']).toBe('1000');
    expect(headers['X-RateLimit-Reset']).toBe(String(dayReset));
  });

  it('name the day window when both are exhausted, since it binds longer', () => {
    const headers = rateLimitHeaders(
      state({ allowed: false, minute: { limit: 60, remaining: 0, resetAt: minuteReset }, day: { limit: 1000, remaining: 0, resetAt: dayReset } }),
    );
    expect(headers['X-RateLimit-Reset']).toBe(String(dayReset));
  });

  it('report a large numeric limit for unlimited plans', () => {
    expect(rateLimitHeaders(state('unlimited'))).toEqual({
      'X-RateLimit-Limit': String(UNLIMITED),
      'X-RateLimit-Remaining': String(UNLIMITED),
      'X-RateLimit-Reset': String(minuteReset),
    });
  });
});
