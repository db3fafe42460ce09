// Sending queued webhook deliveries (the delivery queue's consumer): a batch of messages is read at
// once, its deliveries to one subscription form a lane that takes one of the subscription's sending
// slots and sends them one after another (shared/domain/webhook-sender.ts makes each signed POST), and
// a lane's attempts are recorded with its slot's release in one transaction. What becomes of a
// delivery after an attempt is the pure rule of shared/domain/delivery-decision.ts: a failed attempt's
// retry is scheduled on WEBHOOK_RETRY_DELAYS (jittered, or later as the receiver's Retry-After asks);
// after the last, the delivery is `failed` until its owner retries it.
import { randomUUID } from 'node:crypto';
import { config } from '../config.ts';
import { getDeliveries, replaceDelivery, replaceDeliveryOperation, type DeliveryItem } from '../data/deliveries.ts';
import { enqueueDeliveries, type DeliveryMessage } from '../data/delivery-queue.ts';
import { scheduleDelivery } from '../data/retry-schedules.ts';
import { transactWrite, TransactionRefused } from '../data/transactions.ts';
import { heldSendingSlots, narrowSendingSlot, releaseSendingSlot, releaseSendingSlotOperation, SENDING_SLOTS, takeSendingSlot, type HeldSlot } from '../data/sending-slots.ts';
import { disableFailingSubscription, getSubscriptions, markSubscriptionHealth, type WebhookSubscriptionItem } from '../data/webhook-subscriptions.ts';
import { recordEvent } from '../data/events.ts';
import type { DeliveryAttempt } from '../schemas/webhooks.ts';
import { logger } from '../logger.ts';
import { decideAfterAttempt, decideEndpointHealth, RETRY_JITTER, type RetryPolicy } from './delivery-decision.ts';
import { DELIVERY_TIMEOUT_MS, postSigned } from './webhook-sender.ts';
import { countMetric } from '../metrics.ts';

/** The schedule (WEBHOOK_RETRY_DELAYS), each step spread by ±20 %. */
const retryPolicy = (): RetryPolicy => ({ delaysMs: config().WEBHOOK_RETRY_DELAYS.map((seconds) => seconds * 1000), jitter: RETRY_JITTER, random: Math.random });

export type DeliveryResult = 'sent' | 'stale' | 'deferred';

/** A message that finds every sending slot of its subscription held comes back this much later. */
const DEFER_SECONDS = 2;
/**
 * A lane starts no attempt after this long: then the deliveries it has not started go back on the queue
 * at once, even while an attempt of the lane still hangs, so another lane (another slot) sends them.
 */
const LANE_BUDGET_MS = 2_000;
/** How long a lane holds its slot at most (a crashed sender's slot is free again then): its budget, one attempt's 10 s and a margin. */
const LANE_LEASE_MS = LANE_BUDGET_MS + DELIVERY_TIMEOUT_MS + 5_000;

interface Queued {
  message: DeliveryMessage;
  delivery: DeliveryItem;
}

/**
 * Makes the attempts a batch of queue messages names: with three reads for the whole batch (its
 * deliveries, then their subscriptions and sending slots at once), one lane
 * per subscription (one sending slot, attempts one after another), and one transaction per lane that
 * records its attempts and gives its slot back. Failed attempts get their retry scheduled. Returns
 * each message's result in order, or the error that kept its lane from finishing (the message then
 * stays on the queue).
 */
export async function deliverBatch(messages: readonly DeliveryMessage[], now = new Date()): Promise<(DeliveryResult | { error: unknown })[]> {
  const results: (DeliveryResult | { error: unknown })[] = messages.map(() => 'stale');
  const deliveries = await getDeliveries(messages.map(({ subscriptionId, deliveryId }) => ({ subscriptionId, deliveryId })));
  const lanes = new Map<string, { index: number; queued: Queued }[]>();
  const taken = new Set<string>();
  for (const [index, message] of messages.entries()) {
    const delivery = deliveries.get(message.deliveryId);
    // A duplicate or outdated message: the attempt it names was made already, or is in this batch twice.
    if (!delivery || delivery.status !== 'pending' || message.attempt !== delivery.attemptCount + 1 || taken.has(delivery.deliveryId)) continue;
    taken.add(delivery.deliveryId);
    lanes.set(delivery.subscriptionId, [...(lanes.get(delivery.subscriptionId) ?? []), { index, queued: { message, delivery } }]);
  }
  if (lanes.size === 0) return results;
  const owners = [...lanes.values()].map((lane) => lane[0]?.queued.delivery as DeliveryItem);
  const [subscriptions, held] = await Promise.all([
    getSubscriptions(owners.map((delivery) => ({ agentId: delivery.agentId, id: delivery.subscriptionId }))),
    heldSendingSlots([...lanes.keys()], now.getTime()),
  ]);
  await Promise.all(
    [...lanes.entries()].map(async ([subscriptionId, lane]) => {
      try {
        const outcome = await sendLane(subscriptionId, lane.map((entry) => entry.queued), subscriptions.get(subscriptionId), held.get(subscriptionId) ?? [], now);
        for (const [position, entry] of lane.entries()) results[entry.index] = outcome[position] as DeliveryResult;
      } catch (error) {
        for (const entry of lane) results[entry.index] = { error };
      }
    }),
  );
  return results;
}

/** One subscription's share of a batch: takes a slot, sends one after another, records all at once. */
async function sendLane(subscriptionId: string, lane: readonly Queued[], subscription: WebhookSubscriptionItem | undefined, held: readonly HeldSlot[], now: Date): Promise<DeliveryResult[]> {
  const results: DeliveryResult[] = lane.map(() => 'stale');
  // Another sender holds some of these deliveries (a duplicate message, being handled right now).
  const elsewhere = new Set(held.flatMap((slot) => slot.deliveryIds));
  const mine = lane.map((queued, position) => ({ queued, position })).filter(({ queued }) => !elsewhere.has(queued.delivery.deliveryId));
  if (mine.length === 0) return results;
  const defer = async (entries: typeof mine) => {
    await enqueueDeliveries(entries.map(({ queued }) => queued.message), { delaySeconds: DEFER_SECONDS });
    for (const { position } of entries) results[position] = 'deferred';
  };
  const laneId = randomUUID();
  const heldSlots = new Set(held.map((slot) => slot.slot));
  const free = Array.from({ length: SENDING_SLOTS }, (_, slot) => slot).filter((slot) => !heldSlots.has(slot));
  // One receiver gets at most SENDING_SLOTS attempts at once; the rest wait on the queue a moment.
  const until = now.getTime() + LANE_LEASE_MS;
  const slot = await takeSendingSlot(subscriptionId, { laneId, deliveryIds: mine.map(({ queued }) => queued.delivery.deliveryId) }, shuffle(free), until, now.getTime());
  if (slot === undefined) {
    await defer(mine);
    return results;
  }
  // Handed back at the budget: the slot first stops naming them, then they are queued, due at once.
  const handBack = async (entries: typeof mine, started: typeof mine) => {
    await narrowSendingSlot(subscriptionId, slot, { laneId, deliveryIds: started.map(({ queued }) => queued.delivery.deliveryId) }, until);
    await enqueueDeliveries(entries.map(({ queued }) => queued.message));
    for (const { position } of entries) results[position] = 'deferred';
  };
  const made: { queued: Queued; position: number; next: DeliveryItem; retryAt: Date | undefined }[] = [];
  let next = 0;
  let handedBack: Promise<void> | undefined;
  const budget = setTimeout(() => {
    const unstarted = mine.slice(next);
    const started = mine.slice(0, next);
    next = mine.length;
    if (unstarted.length === 0) return;
    handedBack = handBack(unstarted, started);
    handedBack.catch(() => undefined); // awaited below, once the lane's attempts are recorded
  }, LANE_BUDGET_MS);
  try {
    while (next < mine.length) {
      const { queued, position } = mine[next++] as (typeof mine)[number];
      made.push({ queued, position, ...(await attempt(queued, subscription)) });
    }
  } finally {
    clearTimeout(budget);
  }
  const recorded = await recordLane(subscriptionId, slot, laneId, made);
  await handedBack;
  for (const entry of made) {
    if (!recorded.has(entry.queued.delivery.deliveryId)) continue;
    results[entry.position] = 'sent';
    // Its last automatic attempt failed: the delivery waits for its owner to retry it.
    if (entry.next.status === 'failed') countMetric('webhookDeliveriesFailed');
    if (entry.retryAt) await scheduleDelivery({ subscriptionId, deliveryId: entry.queued.delivery.deliveryId, attempt: entry.next.attemptCount + 1 }, entry.retryAt);
  }
  // After the retries are scheduled: health is bookkeeping, and a failure here must not cost a retry.
  try {
    await trackHealth(subscription, made.filter((entry) => recorded.has(entry.queued.delivery.deliveryId)).map((entry) => entry.next));
  } catch (error) {
    logger.error('Webhook subscription health not recorded', { subscriptionId, error: error as Error });
  }
  return results;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** One signed POST (none to an inactive or deleted subscription) and the delivery as it is after it. */
async function attempt({ message, delivery }: Queued, subscription: WebhookSubscriptionItem | undefined): Promise<{ next: DeliveryItem; retryAt: Date | undefined }> {
  const started = new Date();
  const { retryAfter, ...outcome } = subscription?.active
    ? await postSigned(subscription.url, delivery.payload, { secret: subscription.secret, eventId: delivery.eventId, allowPrivateAddresses: config().ALLOW_PRIVATE_WEBHOOK_URLS, now: started })
    : { statusCode: null, error: 'subscription-inactive' as const, durationMs: 0, responseBody: null, retryAfter: null };
  const made: DeliveryAttempt = { at: started.toISOString(), ...outcome, manual: message.manual ?? false };
  const finished = new Date();
  const decision = decideAfterAttempt(delivery, { error: made.error, manual: made.manual, retryAfter }, retryPolicy(), finished);
  const next: DeliveryItem = {
    ...delivery,
    status: decision.status,
    attempts: [...delivery.attempts, made],
    attemptCount: delivery.attemptCount + 1,
    nextAttemptAt: decision.nextAttemptAt?.toISOString() ?? null,
    updatedAt: finished.toISOString(),
  };
  const retryAt = decision.nextAttemptAt ?? undefined;
  return { next, retryAt };
}

/**
 * Records a lane's attempts and gives its slot back, in one transaction; the ids of the deliveries
 * whose attempt was recorded. An attempt another sender recorded first (a duplicate message) is not.
 */
async function recordLane(subscriptionId: string, slot: number, laneId: string, made: readonly { queued: Queued; next: DeliveryItem }[]): Promise<Set<string>> {
  try {
    await transactWrite([
      ...made.map(({ queued, next }) => replaceDeliveryOperation(next.deliveryId, next, queued.delivery.attemptCount)),
      releaseSendingSlotOperation('slot', subscriptionId, slot, laneId),
    ]);
    return new Set(made.map(({ next }) => next.deliveryId));
  } catch (error) {
    if (!(error instanceof TransactionRefused)) {
      await releaseSendingSlot(subscriptionId, slot, laneId).catch(() => undefined);
      throw error;
    }
    // One at a time: the refusal concerns some of them only (or the slot, taken over after its lease).
    const recorded = new Set<string>();
    for (const { queued, next } of made) if (await replaceDelivery(next, queued.delivery.attemptCount)) recorded.add(next.deliveryId);
    await releaseSendingSlot(subscriptionId, slot, laneId);
    return recorded;
  }
}

/**
 * Moves the subscription's health on after a lane's recorded attempts (delivery-decision.ts,
 * decideEndpointHealth): marks when its deliveries began to fail, clears the mark when one gets through,
 * and disables a subscription that has failed for WEBHOOK_DISABLE_AFTER_SECONDS, with a webhook.disabled
 * event to its agent (its events feed and its other subscriptions). Writes only when something changes.
 */
async function trackHealth(subscription: WebhookSubscriptionItem | undefined, deliveries: readonly DeliveryItem[]): Promise<void> {
  if (!subscription) return;
  const attempts = deliveries
    .map((delivery) => delivery.attempts.at(-1))
    .filter((attempt): attempt is DeliveryAttempt => attempt !== undefined && attempt.error !== 'subscription-inactive')
    .map((attempt) => ({ at: new Date(attempt.at), delivered: attempt.error === null }))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  if (attempts.length === 0) return;
  const now = new Date();
  const failingSince = subscription.failingSince === null ? null : new Date(subscription.failingSince);
  const decision = decideEndpointHealth({ active: subscription.active, failingSince }, attempts, config().WEBHOOK_DISABLE_AFTER_SECONDS * 1000, now);
  const { agentId, id } = subscription;
  if (decision.change === 'recovered') await markSubscriptionHealth(agentId, id, null);
  // Failing from this lane on, or failing long enough before the mark was ever written: mark it first.
  if (decision.change === 'failing' || (decision.change === 'disable' && subscription.failingSince === null)) await markSubscriptionHealth(agentId, id, decision.since.toISOString());
  if (decision.change !== 'disable' || subscription.failingSince === null) return;
  const disabledAt = now.toISOString();
  const { operation } = recordEvent(
    { type: 'webhook.disabled', data: { subscriptionId: id, agentId, url: subscription.url, failingSince: subscription.failingSince }, agentIds: [agentId] },
    now,
  );
  if (await disableFailingSubscription(subscription, subscription.failingSince, disabledAt, operation)) {
    logger.warn('Webhook subscription disabled: every delivery failed', { agentId, subscriptionId: id, failingSince: subscription.failingSince });
  }
}
