// The webhook delivery's state machine after an attempt, as one pure rule: given the delivery as it was,
// the attempt's outcome, the retry policy and the time, the delivery becomes `delivered`, `failed`, or
// stays `pending` with the time of its next attempt. The sender applies it; tests check it alone.
//
//   pending ── 2xx ──────────────────────────────────────────────▶ delivered
//   pending ── failure, a step of the schedule left ─────────────▶ pending (retry at now + the step ±20 %,
//                                                                   or later if the receiver's Retry-After
//                                                                   asks, up to the schedule's next step)
//   pending ── failure, schedule exhausted / manual / inactive ──▶ failed
//   delivered, failed: terminal (only the owner's manual retry makes a delivery pending again)
import type { DeliveryAttempt, DeliveryStatus } from '../schemas/webhooks.ts';

/** Each retry delay is spread by up to this share either way, so receivers that failed together are not all retried at the same instant. */
export const RETRY_JITTER = 0.2;

export interface RetryPolicy {
  /** The delay after each failed automatic attempt, in milliseconds (WEBHOOK_RETRY_DELAYS): the n-th follows the n-th failure; after the last, the delivery fails. */
  delaysMs: readonly number[];
  /** The share by which a delay is spread either way (RETRY_JITTER). */
  jitter: number;
  /** A number in [0, 1): the jitter's draw (Math.random when sending; fixed in tests). */
  random: () => number;
}

export interface AttemptOutcome {
  error: DeliveryAttempt['error'];
  /** A manual retry or a test event: one attempt, never retried automatically. */
  manual: boolean;
  /** The response's Retry-After header as sent (delay-seconds or an HTTP date), or null. */
  retryAfter: string | null;
}

export type DeliveryDecision =
  | { status: 'delivered' | 'failed'; nextAttemptAt: null }
  | {
      status: 'pending';
      nextAttemptAt: Date;
      delayMs: number;
      /** What set the delay: the schedule's (jittered) step, or the receiver's Retry-After. */
      basis: 'schedule' | 'retry-after';
    };

/** The delay a Retry-After header asks for, in milliseconds from `now`; undefined when it is absent or unreadable. */
export function retryAfterMs(value: string | null, now: Date): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date must name a weekday or month; a bare number is not one.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/** The schedule's step spread by the jitter: within [step × (1 − jitter), step × (1 + jitter)). */
export function jitteredMs(stepMs: number, policy: Pick<RetryPolicy, 'jitter' | 'random'>): number {
  const draw = Math.min(Math.max(policy.random(), 0), 1);
  return Math.round(stepMs * (1 - policy.jitter + 2 * policy.jitter * draw));
}

/**
 * The delivery after an attempt. `delivery` is as it was before the attempt (`attemptCount` attempts
 * made), so this attempt is number `attemptCount + 1`; automatic attempts come before any manual one,
 * so the count also says which step of the schedule follows a failure.
 */
export function decideAfterAttempt(delivery: { status: DeliveryStatus; attemptCount: number }, outcome: AttemptOutcome, policy: RetryPolicy, now: Date): DeliveryDecision {
  if (delivery.status !== 'pending') return { status: delivery.status, nextAttemptAt: null };
  if (outcome.error === null) return { status: 'delivered', nextAttemptAt: null };
  if (outcome.manual || outcome.error === 'subscription-inactive') return { status: 'failed', nextAttemptAt: null };
  const step = policy.delaysMs[delivery.attemptCount];
  if (step === undefined) return { status: 'failed', nextAttemptAt: null };
  const scheduled = jitteredMs(step, policy);
  // A receiver may ask for more time (429, 503), up to the schedule's next step; never for less than the schedule's.
  const requested = retryAfterMs(outcome.retryAfter, now);
  const ceiling = policy.delaysMs[delivery.attemptCount + 1] ?? step;
  const honoured = requested === undefined ? 0 : Math.min(requested, ceiling);
  const delayMs = Math.max(scheduled, honoured);
  return { status: 'pending', nextAttemptAt: new Date(now.getTime() + delayMs), delayMs, basis: honoured > scheduled ? 'retry-after' : 'schedule' };
}

// A subscription's health after a lane of attempts (Svix's rule): it is failing from the first failed
// attempt after a delivered one until the next delivered one; failing for the whole disable period, it
// is disabled at its next failure.
//
//   healthy ── attempt fails ──────────────────────────────▶ failing since that attempt
//   failing ── attempt delivered ──────────────────────────▶ healthy
//   failing ── attempt fails, failing ≥ the disable period ▶ disabled (active: false, webhook.disabled)

export interface AttemptResult {
  at: Date;
  delivered: boolean;
}

export type HealthDecision =
  | { change: 'none' }
  | { change: 'recovered' }
  | { change: 'failing'; since: Date }
  | { change: 'disable'; since: Date };

/**
 * What a lane's attempts (oldest first; attempts not made because the subscription was inactive are not
 * attempts) do to a subscription that was `failingSince` (null: healthy) and `active`.
 */
export function decideEndpointHealth(subscription: { active: boolean; failingSince: Date | null }, attempts: readonly AttemptResult[], disableAfterMs: number, now: Date): HealthDecision {
  let since = subscription.failingSince;
  for (const attempt of attempts) since = attempt.delivered ? null : (since ?? attempt.at);
  if (since === null) return subscription.failingSince === null ? { change: 'none' } : { change: 'recovered' };
  const failedLast = attempts.length > 0 && !attempts.at(-1)?.delivered;
  if (subscription.active && failedLast && now.getTime() - since.getTime() >= disableAfterMs) return { change: 'disable', since };
  return subscription.failingSince?.getTime() === since.getTime() ? { change: 'none' } : { change: 'failing', since };
}
