// The delivery's state machine after an attempt (shared/domain/delivery-decision.ts): the contract's
// schedule with ±20 % jitter, a receiver's Retry-After honoured up to the schedule's next step, one
// attempt for manual retries, test events and inactive subscriptions; and, as properties over any
// schedule and any run of outcomes, its bounds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideAfterAttempt, decideEndpointHealth, jitteredMs, retryAfterMs, RETRY_JITTER, type AttemptOutcome, type DeliveryDecision, type RetryPolicy } from '../../shared/domain/delivery-decision.ts';
import { DELIVERY_ERRORS, type DeliveryStatus } from '../../shared/schemas/webhooks.ts';

const MINUTE = 60_000;
const CONTRACT = [1, 5, 30, 120].map((minutes) => minutes * MINUTE);
const NOW = new Date('2026-11-24T10:00:00.000Z');
/** The contract's schedule with the jitter's draw fixed: 0.5 is the step itself. */
const policy = (draw = 0.5, delaysMs: readonly number[] = CONTRACT): RetryPolicy => ({ delaysMs, jitter: RETRY_JITTER, random: () => draw });
const failure = (overrides: Partial<AttemptOutcome> = {}): AttemptOutcome => ({ error: 'non-2xx', manual: false, retryAfter: null, ...overrides });
const success: AttemptOutcome = { error: null, manual: false, retryAfter: null };
const pending = (attemptCount: number) => ({ status: 'pending' as const, attemptCount });
const delayOf = (decision: DeliveryDecision) => (decision.status === 'pending' ? decision.delayMs : undefined);

describe('the decision after an attempt', () => {
  it('delivers on a 2xx, whichever attempt it is', () => {
    for (const attemptCount of [0, 3, 4, 9]) {
      expect(decideAfterAttempt(pending(attemptCount), success, policy(), NOW)).toEqual({ status: 'delivered', nextAttemptAt: null });
      expect(decideAfterAttempt(pending(attemptCount), { ...success, manual: true }, policy(), NOW)).toEqual({ status: 'delivered', nextAttemptAt: null });
    }
  });

  it('retries after 1, 5, 30 and 120 minutes, then fails: five attempts in all', () => {
    const delays = [0, 1, 2, 3].map((attemptCount) => decideAfterAttempt(pending(attemptCount), failure(), policy(), NOW));
    expect(delays.map(delayOf)).toEqual(CONTRACT);
    expect(delays[0]).toEqual({ status: 'pending', nextAttemptAt: new Date(NOW.getTime() + MINUTE), delayMs: MINUTE, basis: 'schedule' });
    expect(decideAfterAttempt(pending(4), failure(), policy(), NOW)).toEqual({ status: 'failed', nextAttemptAt: null });
  });

  it('spreads each step by up to 20 % either way', () => {
    expect(delayOf(decideAfterAttempt(pending(0), failure(), policy(0), NOW))).toBe(48_000);
    expect(delayOf(decideAfterAttempt(pending(0), failure(), policy(0.25), NOW))).toBe(54_000);
    expect(delayOf(decideAfterAttempt(pending(3), failure(), policy(0.999_999), NOW))).toBe(Math.round(120 * MINUTE * (0.8 + 0.4 * 0.999_999)));
    expect(jitteredMs(1000, { jitter: RETRY_JITTER, random: () => 1 })).toBe(1200);
  });

  it('makes one attempt of a manual retry or a test event, and none more to an inactive subscription', () => {
    expect(decideAfterAttempt(pending(0), failure({ manual: true }), policy(), NOW)).toEqual({ status: 'failed', nextAttemptAt: null });
    expect(decideAfterAttempt(pending(5), failure({ manual: true, error: 'timeout' }), policy(), NOW)).toEqual({ status: 'failed', nextAttemptAt: null });
    expect(decideAfterAttempt(pending(0), failure({ error: 'subscription-inactive' }), policy(), NOW)).toEqual({ status: 'failed', nextAttemptAt: null });
  });

  it('leaves a delivered or failed delivery as it is', () => {
    expect(decideAfterAttempt({ status: 'delivered', attemptCount: 1 }, failure(), policy(), NOW)).toEqual({ status: 'delivered', nextAttemptAt: null });
    expect(decideAfterAttempt({ status: 'failed', attemptCount: 5 }, success, policy(), NOW)).toEqual({ status: 'failed', nextAttemptAt: null });
  });
});

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates; anything else is no request', () => {
    expect(retryAfterMs('120', NOW)).toBe(120_000);
    expect(retryAfterMs(' 0 ', NOW)).toBe(0);
    expect(retryAfterMs('Tue, 24 Nov 2026 10:02:00 GMT', NOW)).toBe(120_000);
    expect(retryAfterMs('Tue, 24 Nov 2026 09:00:00 GMT', NOW)).toBe(0); // passed
    expect(retryAfterMs(null, NOW)).toBeUndefined();
    expect(retryAfterMs('-5', NOW)).toBeUndefined();
    expect(retryAfterMs('1.5', NOW)).toBeUndefined();
    expect(retryAfterMs('soon', NOW)).toBeUndefined();
  });

  it('waits longer when the receiver asks, up to the schedule’s next step, and never less than the schedule says', () => {
    const after = (retryAfter: string, attemptCount = 0) => decideAfterAttempt(pending(attemptCount), failure({ retryAfter }), policy(), NOW);
    expect(after('120')).toMatchObject({ status: 'pending', delayMs: 120_000, basis: 'retry-after' });
    expect(after('Tue, 24 Nov 2026 10:03:00 GMT')).toMatchObject({ delayMs: 180_000, basis: 'retry-after' });
    expect(after('86400')).toMatchObject({ delayMs: 5 * MINUTE, basis: 'retry-after' }); // the next step
    expect(after('10')).toMatchObject({ delayMs: MINUTE, basis: 'schedule' });
    // The last retry has no next step: its own is the bound.
    expect(after('86400', 3)).toMatchObject({ delayMs: 120 * MINUTE, basis: 'schedule' });
    expect(decideAfterAttempt(pending(3), failure({ retryAfter: '86400' }), policy(0), NOW)).toMatchObject({ delayMs: 120 * MINUTE, basis: 'retry-after' });
    // Never beyond the schedule: the fifth failure fails whatever the receiver asks.
    expect(after('30', 4)).toEqual({ status: 'failed', nextAttemptAt: null });
  });
});

describe('properties', () => {
  const schedule = fc.array(fc.integer({ min: 1, max: 86_400 }).map((seconds) => seconds * 1000), { minLength: 1, maxLength: 10 });
  const draw = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
  const retryAfter = fc.option(
    fc.oneof(
      fc.integer({ min: 0, max: 10 * 86_400 }).map(String),
      fc.integer({ min: -86_400, max: 10 * 86_400 }).map((seconds) => new Date(NOW.getTime() + seconds * 1000).toUTCString()),
      fc.string(),
    ),
    { nil: null },
  );
  const anyFailure = fc.record({ error: fc.constantFrom(...DELIVERY_ERRORS.filter((error) => error !== 'subscription-inactive')), manual: fc.constant(false), retryAfter });
  const anyOutcome = fc.record({ error: fc.constantFrom(null, ...DELIVERY_ERRORS), manual: fc.boolean(), retryAfter });

  /** Attempts made on a run of automatic attempts that all fail, until the delivery is no longer pending. */
  const attemptsUntilSettled = (delaysMs: readonly number[], outcomes: readonly AttemptOutcome[], random: () => number) => {
    let delivery: { status: DeliveryStatus; attemptCount: number } = pending(0);
    for (const outcome of outcomes) {
      if (delivery.status !== 'pending') break;
      delivery = { status: decideAfterAttempt(delivery, outcome, { delaysMs, jitter: RETRY_JITTER, random }, NOW).status, attemptCount: delivery.attemptCount + 1 };
    }
    return delivery;
  };

  it('makes at most 1 + retries attempts, and exactly that many when every attempt fails', () => {
    fc.assert(
      fc.property(schedule, fc.array(anyFailure, { minLength: 12, maxLength: 12 }), draw, (delaysMs, failures, random) => {
        const settled = attemptsUntilSettled(delaysMs, failures, () => random);
        expect(settled).toEqual({ status: 'failed', attemptCount: delaysMs.length + 1 });
      }),
    );
  });

  it('spreads a step within ±20 % when the receiver asks nothing', () => {
    fc.assert(
      fc.property(schedule, fc.nat({ max: 9 }), draw, (delaysMs, index, random) => {
        const attemptCount = index % delaysMs.length;
        const step = delaysMs[attemptCount] as number;
        const delay = delayOf(decideAfterAttempt(pending(attemptCount), failure(), { delaysMs, jitter: RETRY_JITTER, random: () => random }, NOW)) as number;
        expect(delay).toBeGreaterThanOrEqual(Math.floor(step * 0.8));
        expect(delay).toBeLessThanOrEqual(Math.ceil(step * 1.2));
      }),
    );
  });

  it('never retries sooner than the jittered step, nor later than the next step (or the jittered one), nor beyond the last step', () => {
    fc.assert(
      fc.property(schedule, fc.nat({ max: 9 }), draw, retryAfter, (delaysMs, index, random, header) => {
        const attemptCount = index % delaysMs.length;
        const decided = decideAfterAttempt(pending(attemptCount), failure({ retryAfter: header }), { delaysMs, jitter: RETRY_JITTER, random: () => random }, NOW);
        if (decided.status !== 'pending') throw new Error(`expected a retry, got ${decided.status}`);
        const step = delaysMs[attemptCount] as number;
        const scheduled = jitteredMs(step, { jitter: RETRY_JITTER, random: () => random });
        const ceiling = delaysMs[attemptCount + 1] ?? step;
        expect(decided.delayMs).toBeGreaterThanOrEqual(scheduled);
        expect(decided.delayMs).toBeLessThanOrEqual(Math.max(scheduled, ceiling));
        expect(decided.delayMs).toBeLessThanOrEqual(Math.ceil(Math.max(...delaysMs) * 1.2));
        expect(decided.nextAttemptAt.getTime()).toBe(NOW.getTime() + decided.delayMs);
        expect(decided.basis).toBe(decided.delayMs > scheduled ? 'retry-after' : 'schedule');
      }),
    );
  });

  it('keeps delivered and failed terminal, delivers exactly on success, and retries only automatic failures', () => {
    fc.assert(
      fc.property(schedule, fc.array(anyOutcome, { minLength: 1, maxLength: 15 }), draw, (delaysMs, outcomes, random) => {
        const policyOf: RetryPolicy = { delaysMs, jitter: RETRY_JITTER, random: () => random };
        let delivery: { status: DeliveryStatus; attemptCount: number } = pending(0);
        for (const outcome of outcomes) {
          const decided = decideAfterAttempt(delivery, outcome, policyOf, NOW);
          if (delivery.status !== 'pending') expect(decided).toEqual({ status: delivery.status, nextAttemptAt: null });
          else if (outcome.error === null) expect(decided.status).toBe('delivered');
          else if (outcome.manual || outcome.error === 'subscription-inactive') expect(decided.status).toBe('failed');
          else expect(decided.status).toBe(delivery.attemptCount < delaysMs.length ? 'pending' : 'failed');
          delivery = { status: decided.status, attemptCount: delivery.attemptCount + (delivery.status === 'pending' ? 1 : 0) };
          expect(delivery.attemptCount).toBeLessThanOrEqual(delaysMs.length + 1);
        }
      }),
    );
  });
});

describe('a subscription’s health after a lane of attempts', () => {
  const DAY = 24 * 60 * MINUTE;
  const PERIOD = 5 * DAY;
  const at = (ms: number) => new Date(NOW.getTime() + ms);
  const healthy = { active: true, failingSince: null };

  it('is failing from the first failure after a delivered attempt, and healthy again at the next delivered one', () => {
    expect(decideEndpointHealth(healthy, [{ at: at(0), delivered: true }], PERIOD, at(1))).toEqual({ change: 'none' });
    expect(decideEndpointHealth(healthy, [{ at: at(0), delivered: false }, { at: at(5), delivered: false }], PERIOD, at(10))).toEqual({ change: 'failing', since: at(0) });
    expect(decideEndpointHealth(healthy, [{ at: at(0), delivered: true }, { at: at(5), delivered: false }], PERIOD, at(10))).toEqual({ change: 'failing', since: at(5) });
    const failing = { active: true, failingSince: at(-DAY) };
    expect(decideEndpointHealth(failing, [{ at: at(0), delivered: false }], PERIOD, at(1))).toEqual({ change: 'none' });
    expect(decideEndpointHealth(failing, [{ at: at(0), delivered: false }, { at: at(1), delivered: true }], PERIOD, at(2))).toEqual({ change: 'recovered' });
    expect(decideEndpointHealth(failing, [{ at: at(0), delivered: true }, { at: at(1), delivered: false }], PERIOD, at(2))).toEqual({ change: 'failing', since: at(1) });
  });

  it('disables at the first failure once every delivery has failed for the whole period, not before, and only an active one', () => {
    const since = at(-PERIOD);
    expect(decideEndpointHealth({ active: true, failingSince: since }, [{ at: at(0), delivered: false }], PERIOD, at(0))).toEqual({ change: 'disable', since });
    expect(decideEndpointHealth({ active: true, failingSince: at(-PERIOD + 1) }, [{ at: at(0), delivered: false }], PERIOD, at(0))).toEqual({ change: 'none' });
    expect(decideEndpointHealth({ active: false, failingSince: since }, [{ at: at(0), delivered: false }], PERIOD, at(0))).toEqual({ change: 'none' });
    // A delivered attempt last saves it, whatever failed before it in the lane.
    expect(decideEndpointHealth({ active: true, failingSince: since }, [{ at: at(0), delivered: false }, { at: at(1), delivered: true }], PERIOD, at(2))).toEqual({ change: 'recovered' });
  });

  it('never disables a subscription whose last attempt was delivered, and never calls a failing one healthy (property)', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.option(fc.integer({ min: 0, max: 10 * DAY })), fc.array(fc.record({ offset: fc.integer({ min: 0, max: DAY }), delivered: fc.boolean() }), { maxLength: 8 }), (active, failingFor, lane) => {
        const attempts = [...lane].sort((a, b) => a.offset - b.offset).map(({ offset, delivered }) => ({ at: at(offset), delivered }));
        const subscription = { active, failingSince: failingFor === null ? null : at(-failingFor) };
        const decision = decideEndpointHealth(subscription, attempts, PERIOD, at(DAY));
        const last = attempts.at(-1);
        if (last?.delivered) expect(['none', 'recovered']).toContain(decision.change);
        if (last && !last.delivered) expect(['none', 'failing', 'disable']).toContain(decision.change);
        if (decision.change === 'disable') {
          expect(active).toBe(true);
          expect(at(DAY).getTime() - decision.since.getTime()).toBeGreaterThanOrEqual(PERIOD);
        }
        if (attempts.length === 0) expect(decision.change).toBe('none');
      }),
    );
  });
});
