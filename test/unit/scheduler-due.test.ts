// When the scheduler emulator fires what (lib/local/scheduler-due.ts): a schedule is due at its time or
// its retry's, the emulator wakes at the earliest (at once for overdue ones, so a restart catches up), and
// a failed delivery is retried until its RetryPolicy runs out. As properties over any set of schedules,
// late timers and restarts: nothing fires early, and every enabled schedule fires exactly once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  afterFailedDelivery,
  DEFAULT_MAX_EVENT_AGE_SECONDS,
  DEFAULT_MAX_RETRY_ATTEMPTS,
  delayUntilNext,
  dueSchedules,
  RETRY_DELAY_MS,
} from '../../lib/local/scheduler-due.ts';
import type { ScheduleTarget, StoredSchedule } from '../../lib/local/scheduler-store.ts';

const T0 = Date.parse('2026-11-24T10:00:00Z');

function stored(name: string, dueAt: number, extra: Partial<StoredSchedule> = {}, state: 'ENABLED' | 'DISABLED' = 'ENABLED', target: Partial<ScheduleTarget> = {}): StoredSchedule {
  return {
    schedule: {
      Arn: `arn:aws:scheduler:us-east-1:000000000000:schedule/default/${name}`,
      Name: name,
      GroupName: 'default',
      ScheduleExpression: `at(${new Date(dueAt).toISOString().slice(0, 19)})`,
      State: state,
      CreationDate: T0 / 1000,
      LastModificationDate: T0 / 1000,
      Target: { Arn: 'arn:aws:sqs:us-east-1:000000000000:q', RoleArn: 'role', ...target },
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
    },
    dueAt,
    completed: false,
    failedAttempts: 0,
    ...extra,
  };
}

describe('what is due', () => {
  it('is each enabled, pending schedule whose time (or retry time) has come, in the order given', () => {
    const entries = [
      stored('later', T0 + 1),
      stored('now', T0),
      stored('past', T0 - 5_000),
      stored('disabled', T0 - 1, {}, 'DISABLED'),
      stored('completed', T0 - 1, { completed: true }),
      stored('retry-later', T0 - 10_000, { failedAttempts: 1, retryAt: T0 + 4_000 }),
      stored('retry-now', T0 - 10_000, { failedAttempts: 1, retryAt: T0 }),
    ];
    expect(dueSchedules(entries, T0).map((entry) => entry.schedule.Name)).toEqual(['now', 'past', 'retry-now']);
  });

  it('wakes at the earliest pending attempt, at once for an overdue one, and not at all when nothing is pending', () => {
    expect(delayUntilNext([stored('a', T0 + 3_000), stored('b', T0 + 1_000, { failedAttempts: 1, retryAt: T0 + 2_000 })], T0)).toBe(2_000);
    expect(delayUntilNext([stored('a', T0 + 3_000), stored('overdue', T0 - 60_000)], T0)).toBe(0);
    expect(delayUntilNext([stored('done', T0 + 1, { completed: true }), stored('off', T0 + 1, {}, 'DISABLED')], T0)).toBeUndefined();
    expect(delayUntilNext([], T0)).toBeUndefined();
  });
});

describe('after a failed delivery', () => {
  it('retries after a pause until the RetryPolicy’s attempts are spent, then gives up', () => {
    const entry = stored('a', T0, { failedAttempts: 1 }, 'ENABLED', { RetryPolicy: { MaximumRetryAttempts: 2 } });
    expect(afterFailedDelivery(entry, T0 + 1_000)).toEqual({ action: 'retry', attempts: 2, retryAt: T0 + 1_000 + RETRY_DELAY_MS });
    expect(afterFailedDelivery({ ...entry, failedAttempts: 2 }, T0 + 1_000)).toEqual({ action: 'give-up', attempts: 3 });
  });

  it('gives up once the event is older than the RetryPolicy allows', () => {
    const entry = stored('a', T0, {}, 'ENABLED', { RetryPolicy: { MaximumEventAgeInSeconds: 60 } });
    expect(afterFailedDelivery(entry, T0 + 60_000).action).toBe('retry');
    expect(afterFailedDelivery(entry, T0 + 60_001)).toEqual({ action: 'give-up', attempts: 1 });
  });

  it('uses Scheduler’s defaults without a RetryPolicy: 185 retries within 24 hours', () => {
    const entry = stored('a', T0);
    expect(afterFailedDelivery({ ...entry, failedAttempts: DEFAULT_MAX_RETRY_ATTEMPTS - 1 }, T0 + 1).action).toBe('retry');
    expect(afterFailedDelivery({ ...entry, failedAttempts: DEFAULT_MAX_RETRY_ATTEMPTS }, T0 + 1).action).toBe('give-up');
    expect(afterFailedDelivery(entry, T0 + DEFAULT_MAX_EVENT_AGE_SECONDS * 1000 + 1).action).toBe('give-up');
  });
});

describe('firing over time (the emulator’s loop, simulated)', () => {
  const scenario = fc.record({
    schedules: fc.array(fc.record({ offset: fc.integer({ min: -5_000, max: 60_000 }), enabled: fc.boolean(), keep: fc.boolean() }), { maxLength: 20 }),
    /** How late each wake-up is: a busy machine, or the emulator down and restarted. */
    lateness: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1_000, max: 120_000 })), { minLength: 1, maxLength: 40 }),
  });

  it('never fires a schedule early, fires every enabled one exactly once, and never a disabled one', () => {
    fc.assert(
      fc.property(scenario, ({ schedules, lateness }) => {
        let entries = schedules.map((spec, index) =>
          stored(`s${index}`, T0 + spec.offset, {}, spec.enabled ? 'ENABLED' : 'DISABLED'),
        );
        const keep = new Set(schedules.flatMap((spec, index) => (spec.keep ? [`s${index}`] : [])));
        const fired: { name: string; at: number; dueAt: number }[] = [];
        let now = T0;
        for (let wake = 0; ; wake += 1) {
          const delay = delayUntilNext(entries, now);
          if (delay === undefined) break;
          expect(wake).toBeLessThanOrEqual(schedules.length); // each wake-up fires something
          now += delay + (lateness[wake % lateness.length] as number);
          for (const entry of dueSchedules(entries, now)) {
            fired.push({ name: entry.schedule.Name, at: now, dueAt: entry.dueAt });
            // Delivered: kept as completed (ActionAfterCompletion NONE) or deleted.
            entries = keep.has(entry.schedule.Name)
              ? entries.map((other) => (other === entry ? { ...entry, completed: true } : other))
              : entries.filter((other) => other !== entry);
          }
        }
        for (const shot of fired) expect(shot.at).toBeGreaterThanOrEqual(shot.dueAt);
        const enabled = schedules.flatMap((spec, index) => (spec.enabled ? [`s${index}`] : []));
        expect(fired.map((shot) => shot.name).sort()).toEqual(enabled.sort());
      }),
    );
  });

  it('fires on time when the timer is on time, and an overdue schedule at the first wake-up (after a restart)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -60_000, max: 60_000 }), { minLength: 1, maxLength: 20 }), (offsets) => {
        let entries = offsets.map((offset, index) => stored(`s${index}`, T0 + offset));
        const firedAt = new Map<string, number>();
        let now = T0; // the emulator starts (again) at T0
        for (let delay = delayUntilNext(entries, now); delay !== undefined; delay = delayUntilNext(entries, now)) {
          now += delay;
          for (const entry of dueSchedules(entries, now)) {
            firedAt.set(entry.schedule.Name, now);
            entries = entries.filter((other) => other !== entry);
          }
        }
        offsets.forEach((offset, index) => expect(firedAt.get(`s${index}`)).toBe(T0 + Math.max(0, offset)));
      }),
    );
  });
});
