// Fixed-window rate-limit counters (contract §2): one item per subject and UTC day holding the day's
// count and the current minute's count. A single conditional UpdateItem counts a request in both
// windows, so concurrent requests can never both slip past a limit.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client.ts';
import { isConditionFailure, oldItemOf } from './conditions.ts';

export const rateLimitKeys = {
  /** subject: `agent#agt_…` or `ip#203.0.113.7`. */
  window: (subject: string, day: string) => ({ pk: `RATELIMIT#${subject}`, sk: `DAY#${day}` }),
};

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

interface CounterItem {
  minute?: number;
  minuteCount?: number;
  dayCount?: number;
}

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
    minute: { limit: limits.perMinute, remaining: Math.max(0, limits.perMinute - minuteCount), resetAt: w.minuteReset },
    day: { limit: limits.perDay, remaining: Math.max(0, limits.perDay - dayCount), resetAt: w.dayReset },
  };
}

/** Counts one request for `subject` if both windows have room; otherwise counts nothing and denies. */
export async function consume(subject: string, limits: Limits, now: Date): Promise<ConsumeResult> {
  const w = windows(now);
  const key = rateLimitKeys.window(subject, w.day);
  // Kept an hour past the day's end so a clock skew between containers never resets a live window.
  const expiresAt = w.dayReset + 3600;

  for (let attempt = 0; attempt < 4; attempt++) {
    // Fast path: the item already counts this minute.
    try {
      const updated = await documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'ADD minuteCount :one, dayCount :one',
          ConditionExpression: '#minute = :minute AND minuteCount < :perMinute AND dayCount < :perDay',
          ExpressionAttributeNames: { '#minute': 'minute' },
          ExpressionAttributeValues: { ':one': 1, ':minute': w.minute, ':perMinute': limits.perMinute, ':perDay': limits.perDay },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return result(true, updated.Attributes as CounterItem, w.minute, limits, now);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const old = (oldItemOf(error) ?? {}) as CounterItem;
      const exhausted = (old.dayCount ?? 0) >= limits.perDay || (old.minute === w.minute && (old.minuteCount ?? 0) >= limits.perMinute);
      if (exhausted) return result(false, old, w.minute, limits, now);
      if (old.minute === w.minute) continue; // a racing request changed the item; try again
    }
    // Slow path, once a minute: start this minute's count.
    try {
      const updated = await documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET #minute = :minute, minuteCount = :one, expiresAt = :expiresAt ADD dayCount :one',
          ConditionExpression: '(attribute_not_exists(#minute) OR #minute < :minute) AND (attribute_not_exists(dayCount) OR dayCount < :perDay)',
          ExpressionAttributeNames: { '#minute': 'minute' },
          ExpressionAttributeValues: { ':one': 1, ':minute': w.minute, ':perDay': limits.perDay, ':expiresAt': expiresAt },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return result(true, updated.Attributes as CounterItem, w.minute, limits, now);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const old = (oldItemOf(error) ?? {}) as CounterItem;
      if ((old.dayCount ?? 0) >= limits.perDay) return result(false, old, w.minute, limits, now);
      // Another request started the minute first: go round to the fast path.
    }
  }
  throw new Error(`Rate-limit counter for ${subject} kept changing under contention`);
}
