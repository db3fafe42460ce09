// When the scheduler emulator fires what: a pending schedule (enabled, not yet completed) is due at its
// time, or after a failed delivery at its retry time; the emulator wakes at the earliest of them (at
// once for any overdue, so schedules that fell due while it was down fire right after a restart); a
// failed delivery is retried after a pause until its target's RetryPolicy runs out. Pure: the time is
// an argument.
import type { StoredSchedule } from './scheduler-store.ts';

/** Scheduler's defaults for a target's RetryPolicy. */
export const DEFAULT_MAX_RETRY_ATTEMPTS = 185;
export const DEFAULT_MAX_EVENT_AGE_SECONDS = 86_400;
export const RETRY_DELAY_MS = 5_000;

/** Enabled and neither fired nor given up. */
export function isPending(entry: StoredSchedule): boolean {
  return !entry.completed && entry.schedule.State === 'ENABLED';
}

/** When the next delivery of a schedule is attempted: its time, or its retry's. */
export function nextAttemptAt(entry: StoredSchedule): number {
  return entry.retryAt ?? entry.dueAt;
}

/** The pending schedules due at `now`, in the order given. */
export function dueSchedules(entries: readonly StoredSchedule[], now: number): StoredSchedule[] {
  return entries.filter((entry) => isPending(entry) && nextAttemptAt(entry) <= now);
}

/** How long from `now` until the next attempt is due (0 when one is overdue); undefined when nothing is pending. */
export function delayUntilNext(entries: readonly StoredSchedule[], now: number): number | undefined {
  const pending = entries.filter(isPending);
  if (pending.length === 0) return undefined;
  return Math.max(0, Math.min(...pending.map(nextAttemptAt)) - now);
}

/** After a failed delivery at `now`: try again at `retryAt`, or give up (the target's RetryPolicy is spent). */
export type AfterFailedDelivery = { action: 'retry'; attempts: number; retryAt: number } | { action: 'give-up'; attempts: number };

export function afterFailedDelivery(entry: StoredSchedule, now: number): AfterFailedDelivery {
  const policy = entry.schedule.Target.RetryPolicy;
  const attempts = entry.failedAttempts + 1;
  const maxAttempts = policy?.MaximumRetryAttempts ?? DEFAULT_MAX_RETRY_ATTEMPTS;
  const maxAgeMs = (policy?.MaximumEventAgeInSeconds ?? DEFAULT_MAX_EVENT_AGE_SECONDS) * 1000;
  if (attempts > maxAttempts || now - entry.dueAt > maxAgeMs) return { action: 'give-up', attempts };
  return { action: 'retry', attempts, retryAt: now + RETRY_DELAY_MS };
}
