// The X-RateLimit-* headers for the window closer to exhaustion (contract §2).
import type { ApiState } from './api-state.ts';

/** Reported for plans without limits: numeric, and large enough that no client ever backs off. */
export const UNLIMITED = 2_147_483_647;

export function rateLimitHeaders(state: ApiState): Record<string, string> {
  const limit = state.rateLimit;
  if (!limit) return {};
  if (limit === 'unlimited') {
    const nextMinute = (Math.floor(state.now.getTime() / 60_000) + 1) * 60;
    return { 'X-RateLimit-Limit': String(UNLIMITED), 'X-RateLimit-Remaining': String(UNLIMITED), 'X-RateLimit-Reset': String(nextMinute) };
  }
  // Fewer requests left is closer to exhaustion; on a tie the window that resets later binds longer.
  const { minute, day } = limit;
  const binding = day.remaining < minute.remaining || (day.remaining === minute.remaining && day.remaining === 0) ? day : minute;
  return {
    'X-RateLimit-Limit': String(binding.limit),
    'X-RateLimit-Remaining': String(binding.remaining),
    'X-RateLimit-Reset': String(binding.resetAt),
  };
}
