// Fixed-window rate-limit counters (contract §2): one item per subject and UTC day holding the day's
// count and the current minute's count. A single conditional UpdateItem counts a request in both
// windows, so concurrent requests can never both slip past a limit.
import * as z from '../schemas/zod.ts';
import { ConditionRefused, defineEntity } from './entity.ts';

export const RateLimitWindowEntity = defineEntity({
  name: 'rateLimitWindow',
  schema: z.object({
    /** Epoch minutes of the minute `minuteCount` counts. */
    minute: z.optional(z.int()),
    minuteCount: z.optional(z.int()),
    dayCount: z.optional(z.int()),
    /** TTL: an hour past the day's end. */
    expiresAt: z.optional(z.int()),
  }),
  /** subject: `agent#agt_…` or `ip#203.0.113.7`. */
  key: ({ subject, day }: { subject: string; day: string }) => ({ pk: `RATELIMIT#${subject}`, sk: `DAY#${day}` }),
});
const { and, eq, lt, notExists, or } = RateLimitWindowEntity.where;

export interface Limits {
  perMinute: number;
  perDay: number;
}

export interface WindowState {
  limit: number;
  remaining: number;
  /** Unix epoch seconds at which the window resets. */
  resetAt: number;
}

export interface ConsumeResult {
  allowed: boolean;
  minute: WindowState;
  day: WindowState;
}

type CounterItem = z.output<typeof RateLimitWindowEntity.schema>;

function windows(now: Date) {
  const epochSeconds = Math.floor(now.getTime() / 1000);
  const minute = Math.floor(epochSeconds / 60);
  const day = now.toISOString().slice(0, 10);
  const dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) / 1000;
  return { minute, day, minuteReset: (minute + 1) * 60, dayReset: dayStart + 86_400 };
}

function result(allowed: boolean, counts: CounterItem, currentMinute: number, limits: Limits, now: Date): ConsumeResult {
  const w = windows(now);
  const minuteCount = counts.minute === currentMinute ? (counts.minuteCount ?? 0) : 0;
  const dayCount = counts.dayCount ?? 0;
  return {
    allowed,
    minute: { limit: limits.perMinute, remaining: Math.max(0, limits.perMinute - minuteCount), resetAt: (currentMinute + 1) * 60 },
    day: { limit: limits.perDay, remaining: Math.max(0, limits.perDay - dayCount), resetAt: w.dayReset },
  };
}

/** Counts one request for `subject` if both windows have room; otherwise counts nothing and denies. */
export async function consume(subject: string, limits: Limits, now: Date): Promise<ConsumeResult> {
  const w = windows(now);
  const key = { subject, day: w.day };
  // Kept an hour past the day's end so a clock skew between containers never resets a live window.
  const expiresAt = w.dayReset + 3600;

  // The minute this request is counted in: its own, or a later one the item already counts.
  let minute = w.minute;
  for (let attempt = 0; attempt < 4; attempt++) {
    // Fast path: the item already counts this minute.
    try {
      const updated = await RateLimitWindowEntity.update(key, { add: { minuteCount: 1, dayCount: 1 } }, {
        allow: ['minuteCount', 'dayCount'],
        condition: and(eq('minute', minute), lt('minuteCount', limits.perMinute), lt('dayCount', limits.perDay)),
      });
      return result(true, updated, minute, limits, now);
    } catch (error) {
      if (!(error instanceof ConditionRefused)) throw error;
      const old = (error.current ?? {}) as CounterItem;
      const exhausted = (old.dayCount ?? 0) >= limits.perDay || (old.minute === minute && (old.minuteCount ?? 0) >= limits.perMinute);
      if (exhausted) return result(false, old, minute, limits, now);
      if (old.minute === minute) continue; // a racing request changed the item; try again
      // The item counts a later minute: this request's clock is behind another container's, or it
      // reached the store after the minute turned. Count it in that minute (never start an older one).
      if (old.minute !== undefined && old.minute > minute) {
        minute = old.minute;
        continue;
      }
    }
    // Slow path, once a minute: start this minute's count.
    try {
      const updated = await RateLimitWindowEntity.update(key, { set: { minute, minuteCount: 1, expiresAt }, add: { dayCount: 1 } }, {
        allow: ['minute', 'minuteCount', 'expiresAt', 'dayCount'],
        condition: and(or(notExists('minute'), lt('minute', minute)), or(notExists('dayCount'), lt('dayCount', limits.perDay))),
      });
      return result(true, updated, minute, limits, now);
    } catch (error) {
      if (!(error instanceof ConditionRefused)) throw error;
      const old = (error.current ?? {}) as CounterItem;
      if ((old.dayCount ?? 0) >= limits.perDay) return result(false, old, w.minute, limits, now);
      // Another request started the minute first: go round to the fast path.
    }
  }
  throw new Error(`Rate-limit counter for ${subject} kept changing under contention`);
}
