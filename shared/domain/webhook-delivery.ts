// Webhook delivery (contract: "Webhook subscription", "Delivery"): events leave the outbox as one
// delivery per matching subscription (fanOut), each delivery is attempted from the queue (deliver),
// failures are retried on WEBHOOK_RETRY_DELAYS by one-off schedules, and after the last one the
// delivery is `failed` until its owner retries it. Every attempt is recorded on the delivery.
import { config } from '../config.ts';
import { decodeCursor, encodeCursor } from '../data/cursor.ts';
import { createDelivery, deliveryIdFor, getDelivery, listDeliveries, replaceDelivery, type DeliveryItem } from '../data/deliveries.ts';
import { enqueueDeliveries, scheduleDelivery, type DeliveryMessage } from '../data/delivery-queue.ts';
import { releaseSendingSlot, takeSendingSlot } from '../data/sending-slots.ts';
import { markDispatched, type DomainEvent } from '../data/events.ts';
import { getSubscription, listSubscriptions, type WebhookSubscriptionItem } from '../data/webhook-subscriptions.ts';
import { fail } from '../failures.ts';
import { newId } from '../ids.ts';
import type { Delivery, DeliveryAttempt, DeliveryStatus } from '../schemas/webhooks.ts';
import { postSigned } from './webhook-sender.ts';

/** Alias pairs: a subscription naming both, or `*`, receives the event once, under the first name. */
const ALIASES: readonly (readonly [string, string])[] = [
  ['negotiation.offer', 'negotiation.counter'],
  ['feed.processed', 'feed.completed'],
];

/** The name a subscription receives an event type under, or undefined when it does not receive it. */
export function deliveryName(eventType: string, subscribed: readonly string[]): string | undefined {
  const pair = ALIASES.find((names) => names.includes(eventType));
  if (!pair) return subscribed.includes('*') || subscribed.includes(eventType) ? eventType : undefined;
  const named = pair.filter((name) => subscribed.includes(name));
  if (subscribed.includes('*') || named.length === 2) return pair[0];
  return named[0];
}

/** How long one attempt may hold a delivery before another may take it over (a crashed sender): the 10 s send limit and a margin. */
const SENDING_LEASE_MS = 15_000;

export function toDelivery(item: DeliveryItem): Delivery {
  const { agentId: _agent, payload: _payload, attemptCount: _count, sendingUntil: _sending, ...delivery } = item;
  return delivery;
}

async function allSubscriptions(agentId: string): Promise<WebhookSubscriptionItem[]> {
  const items: WebhookSubscriptionItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await listSubscriptions(agentId, 100, startKey);
    items.push(...page.items);
    startKey = page.lastKey;
  } while (startKey);
  return items;
}

function newDelivery(subscription: WebhookSubscriptionItem, event: { eventId: string; type: string; occurredAt: string; data: unknown }, deliveryId: string, now: Date): DeliveryItem {
  const at = now.toISOString();
  return {
    deliveryId,
    subscriptionId: subscription.id,
    agentId: subscription.agentId,
    eventId: event.eventId,
    eventType: event.type,
    status: 'pending',
    attempts: [],
    nextAttemptAt: at,
    createdAt: at,
    updatedAt: at,
    payload: JSON.stringify({ id: event.eventId, type: event.type, timestamp: event.occurredAt, data: event.data }),
    attemptCount: 0,
    sendingUntil: null,
  };
}

/**
 * Records a delivery for each active subscription of each agent an event concerns whose events match,
 * queues them, then takes the events out of the outbox. Safe to repeat: a delivery already recorded
 * is found, not duplicated.
 */
export async function fanOut(events: readonly DomainEvent[], now = new Date()): Promise<number> {
  const subscriptions = new Map<string, Promise<WebhookSubscriptionItem[]>>();
  const messages: DeliveryMessage[] = [];
  for (const event of events) {
    for (const agentId of event.agentIds) {
      if (!subscriptions.has(agentId)) subscriptions.set(agentId, allSubscriptions(agentId));
      for (const subscription of await (subscriptions.get(agentId) as Promise<WebhookSubscriptionItem[]>)) {
        if (!subscription.active) continue;
        const name = deliveryName(event.type, subscription.events);
        if (!name) continue;
        const deliveryId = deliveryIdFor(event.eventId, subscription.id);
        if (await createDelivery(newDelivery(subscription, { ...event, type: name }, deliveryId, now))) messages.push({ subscriptionId: subscription.id, deliveryId, attempt: 1 });
      }
    }
  }
  await enqueueDeliveries(messages);
  // Dispatched only once its deliveries are recorded and queued.
  for (const event of events) await markDispatched(event.eventId, now);
  return messages.length;
}

const retryDelaysMs = () => config().WEBHOOK_RETRY_DELAYS.map((seconds) => seconds * 1000);

/** Makes one attempt of a queued delivery, records it, and schedules the next attempt when one is due. */
export async function deliver(message: DeliveryMessage, now = new Date()): Promise<'sent' | 'stale' | 'deferred'> {
  const delivery = await getDelivery(message.subscriptionId, message.deliveryId);
  // A duplicate or outdated message: the attempt it names was made, or is being made, already.
  if (!delivery || delivery.status !== 'pending' || message.attempt !== delivery.attemptCount + 1) return 'stale';
  if (delivery.sendingUntil && Date.parse(delivery.sendingUntil) > now.getTime()) return 'stale';
  // One receiver gets at most SENDING_SLOTS attempts at once; the rest wait on the queue a moment.
  const slot = await takeSendingSlot(delivery.subscriptionId, delivery.deliveryId, now.getTime() + SENDING_LEASE_MS, now.getTime());
  if (slot === undefined) {
    await enqueueDeliveries([message], { delaySeconds: DEFER_SECONDS });
    return 'deferred';
  }
  try {
    return await attempt(delivery, message, now);
  } finally {
    await releaseSendingSlot(delivery.subscriptionId, slot, delivery.deliveryId);
  }
}

/** A message that finds every sending slot of its subscription held comes back this much later. */
const DEFER_SECONDS = 2;

async function attempt(delivery: DeliveryItem, message: DeliveryMessage, now: Date): Promise<'sent' | 'stale'> {
  const claimed: DeliveryItem = { ...delivery, sendingUntil: new Date(now.getTime() + SENDING_LEASE_MS).toISOString() };
  const claim = { expression: '#status = :pending AND (attribute_type(sendingUntil, :null) OR sendingUntil < :now)', names: { '#status': 'status' }, values: { ':pending': 'pending', ':null': 'NULL', ':now': now.toISOString() } };
  if (!(await replaceDelivery(claimed, delivery.attemptCount, claim))) return 'stale';

  const subscription = await getSubscription(delivery.agentId, delivery.subscriptionId);
  const started = new Date();
  const outcome = subscription?.active
    ? await postSigned(subscription.url, delivery.payload, { secret: subscription.secret, eventId: delivery.eventId, allowPrivateAddresses: config().ALLOW_PRIVATE_WEBHOOK_URLS, now: started })
    : { statusCode: null, error: 'subscription-inactive' as const, durationMs: 0, responseBody: null };
  const made: DeliveryAttempt = { at: started.toISOString(), ...outcome, manual: message.manual ?? false };
  const count = delivery.attemptCount + 1;
  const delays = retryDelaysMs();
  const finished = new Date();
  // Automatic retries follow failures of scheduled attempts only; a manual attempt is one attempt.
  const retryIn = made.error === null || made.manual || !subscription?.active ? undefined : delays[count - 1];
  const status: DeliveryStatus = made.error === null ? 'delivered' : retryIn !== undefined ? 'pending' : 'failed';
  const nextAttemptAt = retryIn !== undefined ? new Date(finished.getTime() + retryIn) : undefined;
  const next: DeliveryItem = {
    ...delivery,
    status,
    attempts: [...delivery.attempts, made],
    attemptCount: count,
    nextAttemptAt: nextAttemptAt?.toISOString() ?? null,
    sendingUntil: null,
    updatedAt: finished.toISOString(),
  };
  if (!(await replaceDelivery(next, delivery.attemptCount))) return 'stale';
  if (nextAttemptAt) await scheduleDelivery({ subscriptionId: delivery.subscriptionId, deliveryId: delivery.deliveryId, attempt: count + 1 }, nextAttemptAt);
  return 'sent';
}

/** Queues again the pending deliveries whose attempt is overdue (a lost message or schedule). */
export async function requeueOverdue(deliveries: readonly DeliveryItem[], now = new Date()): Promise<number> {
  const due = deliveries.filter((delivery) => delivery.status === 'pending' && (!delivery.sendingUntil || Date.parse(delivery.sendingUntil) < now.getTime()));
  await enqueueDeliveries(due.map((delivery) => ({ subscriptionId: delivery.subscriptionId, deliveryId: delivery.deliveryId, attempt: delivery.attemptCount + 1 })));
  return due.length;
}

async function ownSubscription(agentId: string, subscriptionId: string): Promise<WebhookSubscriptionItem> {
  const subscription = await getSubscription(agentId, subscriptionId);
  if (!subscription) throw fail.notFound(`Webhook subscription ${subscriptionId} not found`);
  return subscription;
}

async function ownDelivery(agentId: string, subscriptionId: string, deliveryId: string): Promise<DeliveryItem> {
  await ownSubscription(agentId, subscriptionId);
  const delivery = await getDelivery(subscriptionId, deliveryId);
  if (!delivery || delivery.agentId !== agentId) throw fail.notFound(`Delivery ${deliveryId} not found`);
  return delivery;
}

export async function listOwnDeliveries(agentId: string, subscriptionId: string, query: { limit: number; cursor?: string | undefined; status?: DeliveryStatus | undefined }) {
  await ownSubscription(agentId, subscriptionId);
  const scope = `deliveries:${agentId}:${subscriptionId}:${query.status ?? ''}`;
  const page = await listDeliveries(subscriptionId, { limit: query.limit, startKey: decodeCursor(scope, query.cursor), ...(query.status ? { status: query.status } : {}) });
  return { items: page.items.map(toDelivery), nextCursor: encodeCursor(scope, page.lastKey) };
}

export async function getOwnDelivery(agentId: string, subscriptionId: string, deliveryId: string) {
  const delivery = await ownDelivery(agentId, subscriptionId, deliveryId);
  return { ...toDelivery(delivery), payload: delivery.payload };
}

/** Sends a delivered or failed delivery again now, as a new attempt; 409 while one is pending. */
export async function retryOwnDelivery(agentId: string, subscriptionId: string, deliveryId: string, now = new Date()): Promise<Delivery> {
  const delivery = await ownDelivery(agentId, subscriptionId, deliveryId);
  const inFlight = () => fail.conflict('The delivery has an attempt in flight or scheduled; retry it once it is delivered or failed', [{ path: 'status', message: 'The delivery is pending' }]);
  if (delivery.status === 'pending') throw inFlight();
  const next: DeliveryItem = { ...delivery, status: 'pending', nextAttemptAt: now.toISOString(), updatedAt: now.toISOString() };
  if (!(await replaceDelivery(next, delivery.attemptCount, { expression: '#status = :status', names: { '#status': 'status' }, values: { ':status': delivery.status } }))) throw inFlight();
  await enqueueDeliveries([{ subscriptionId, deliveryId, attempt: delivery.attemptCount + 1, manual: true }]);
  return toDelivery(next);
}

/** A `webhook.test` event to one subscription, now: one attempt, no automatic retries. */
export async function sendTestEvent(agentId: string, subscriptionId: string, now = new Date()): Promise<Delivery> {
  const subscription = await ownSubscription(agentId, subscriptionId);
  if (!subscription.active) throw fail.conflict('The subscription is inactive: activate it (PATCH active: true) to test it', [{ path: 'active', message: 'The subscription is inactive' }]);
  const eventId = newId('event');
  const event = { eventId, type: 'webhook.test', occurredAt: now.toISOString(), data: { subscriptionId, agentId, message: 'A test event from Agent Marketplace: your receiver and signature check work if you can read this.' } };
  const deliveryId = deliveryIdFor(eventId, subscriptionId);
  const item = newDelivery(subscription, event, deliveryId, now);
  await createDelivery(item);
  await enqueueDeliveries([{ subscriptionId, deliveryId, attempt: 1, manual: true }]);
  return toDelivery(item);
}
