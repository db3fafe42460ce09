// Webhook delivery (contract: "Webhook subscription", "Delivery"): events leave the outbox as one
// delivery per matching subscription (fanOut), queued deliveries are attempted a batch at a time, one
// lane per subscription (deliverBatch), failures are retried on WEBHOOK_RETRY_DELAYS by one-off schedules, and after the last one the
// delivery is `failed` until its owner retries it. Every attempt is recorded on the delivery.
import { randomUUID } from 'node:crypto';
import { config } from '../config.ts';
import { decodeCursor, encodeCursor } from '../data/cursor.ts';
import {
  createDelivery,
  createDeliveryOperation,
  deliveryIdFor,
  getDeliveries,
  getDelivery,
  listDeliveries,
  replaceDelivery,
  replaceDeliveryOperation,
  type DeliveryItem,
} from '../data/deliveries.ts';
import { enqueueDeliveries, scheduleDelivery, type DeliveryMessage } from '../data/delivery-queue.ts';
import { transactWrite, TransactionRefused } from '../data/entity.ts';
import { markDispatchedOperation, type DomainEvent } from '../data/events.ts';
import { heldSendingSlots, releaseSendingSlot, releaseSendingSlotOperation, SENDING_SLOTS, takeSendingSlot, type HeldSlot } from '../data/sending-slots.ts';
import { getSubscription, getSubscriptions, listSubscriptions, type WebhookSubscriptionItem } from '../data/webhook-subscriptions.ts';
import { fail } from '../failures.ts';
import { newId } from '../ids.ts';
import { EVENT_ALIASES, EVENT_DATA_SCHEMAS, TEST_EVENT_TYPE } from '../schemas/event-data.ts';
import type { Delivery, DeliveryAttempt, DeliveryStatus } from '../schemas/webhooks.ts';
import { DELIVERY_TIMEOUT_MS, postSigned } from './webhook-sender.ts';

/**
 * The name a subscription receives an event type under, or undefined when it does not receive it. Of an
 * alias pair, a subscription naming both, or `*`, receives the event once, under the first name.
 */
export function deliveryName(eventType: string, subscribed: readonly string[]): string | undefined {
  const pair = EVENT_ALIASES.find((names) => (names as readonly string[]).includes(eventType));
  if (!pair) return subscribed.includes('*') || subscribed.includes(eventType) ? eventType : undefined;
  const named = pair.filter((name) => subscribed.includes(name));
  if (subscribed.includes('*') || named.length === 2) return pair[0];
  return named[0];
}

export function toDelivery(item: DeliveryItem): Delivery {
  const { agentId: _agent, payload: _payload, attemptCount: _count, ...delivery } = item;
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
  };
}

/** An event and the deliveries its matching subscriptions get. */
interface EventPlan {
  event: DomainEvent;
  deliveries: DeliveryItem[];
}

/** TransactWriteItems' limit. An event's plan always fits: 2 agents × 20 subscriptions and its mark. */
const TRANSACTION_ITEMS = 100;
/** Transactions of one fan-out written at once. */
const FAN_OUT_PARALLELISM = 4;

/**
 * Records a delivery for each active subscription of each agent an event concerns whose events match,
 * and takes the events out of the outbox in the same transactions (whole events per transaction, up
 * to 100 items, several at once), then queues the deliveries. When a transaction fails, the
 * deliveries the others recorded are queued all the same before the error is thrown (so that the
 * stream retries the batch). Safe to repeat: an event dispatched before is refused by
 * its mark and queues nothing again; its deliveries were recorded then, and a delivery whose message
 * was lost (a crash between the commit and the queue) is queued again by the sweep.
 */
export async function fanOut(events: readonly DomainEvent[], now = new Date()): Promise<number> {
  const subscriptions = new Map<string, Promise<WebhookSubscriptionItem[]>>();
  const subscriptionsOf = (agentId: string) => {
    if (!subscriptions.has(agentId)) subscriptions.set(agentId, allSubscriptions(agentId));
    return subscriptions.get(agentId) as Promise<WebhookSubscriptionItem[]>;
  };
  const unique = [...new Map(events.map((event) => [event.eventId, event])).values()];
  const plans = await Promise.all(
    unique.map(async (event): Promise<EventPlan> => {
      const deliveries: DeliveryItem[] = [];
      for (const agentId of event.agentIds) {
        for (const subscription of await subscriptionsOf(agentId)) {
          const name = subscription.active ? deliveryName(event.type, subscription.events) : undefined;
          if (name) deliveries.push(newDelivery(subscription, { ...event, type: name }, deliveryIdFor(event.eventId, subscription.id), now));
        }
      }
      return { event, deliveries };
    }),
  );
  const chunks: { plans: EventPlan[]; items: number }[] = [];
  for (const plan of plans) {
    const items = plan.deliveries.length + 1;
    const last = chunks.at(-1);
    if (last && last.items + items <= TRANSACTION_ITEMS) {
      last.plans.push(plan);
      last.items += items;
    } else chunks.push({ plans: [plan], items });
  }
  const recorded: DeliveryItem[] = [];
  let failure: { error: unknown } | undefined;
  let next = 0;
  const writer = async () => {
    // After a failure no transaction starts; those in flight finish, and what they recorded is queued.
    while (next < chunks.length && !failure) {
      try {
        recorded.push(...(await recordPlans((chunks[next++] as (typeof chunks)[number]).plans, now)));
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FAN_OUT_PARALLELISM, chunks.length) }, writer));
  // A subscription's deliveries side by side: a batch of the queue then sends them in one lane.
  recorded.sort((a, b) => (a.subscriptionId < b.subscriptionId ? -1 : a.subscriptionId > b.subscriptionId ? 1 : 0));
  // Queued even when a transaction failed: their events are dispatched, so the stream's retry of the
  // batch will not queue them again, and only the sweep would find them, 15 s late.
  await enqueueDeliveries(recorded.map((delivery) => ({ subscriptionId: delivery.subscriptionId, deliveryId: delivery.deliveryId, attempt: 1 })));
  if (failure) throw failure.error;
  return recorded.length;
}

/** Writes the plans' deliveries and dispatch marks in one transaction; returns the deliveries it recorded. */
async function recordPlans(plans: readonly EventPlan[], now: Date): Promise<DeliveryItem[]> {
  const mark = (plan: EventPlan) => `event ${plan.event.eventId}`;
  try {
    await transactWrite(plans.flatMap((plan) => [...plan.deliveries.map((delivery) => createDeliveryOperation(delivery.deliveryId, delivery)), markDispatchedOperation(mark(plan), plan.event.eventId, now)]));
    return plans.flatMap((plan) => plan.deliveries);
  } catch (error) {
    if (!(error instanceof TransactionRefused)) throw error;
    // Each event on its own: the refusal concerns some of them only.
    if (plans.length > 1) return (await Promise.all(plans.map((plan) => recordPlans([plan], now)))).flat();
    const [plan] = plans as [EventPlan];
    if (error.has(mark(plan))) return []; // dispatched before, with its deliveries
    // Deliveries recorded outside this fan-out: keep those, record the rest.
    return recordPlans([{ event: plan.event, deliveries: plan.deliveries.filter((delivery) => !error.has(delivery.deliveryId)) }], now);
  }
}

const retryDelaysMs = () => config().WEBHOOK_RETRY_DELAYS.map((seconds) => seconds * 1000);

export type DeliveryResult = 'sent' | 'stale' | 'deferred';

/** A message that finds every sending slot of its subscription held comes back this much later. */
const DEFER_SECONDS = 2;
/** A lane starts no attempt after this long: the rest of its deliveries go back on the queue. */
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
  const slot = await takeSendingSlot(subscriptionId, { laneId, deliveryIds: mine.map(({ queued }) => queued.delivery.deliveryId) }, shuffle(free), now.getTime() + LANE_LEASE_MS, now.getTime());
  if (slot === undefined) {
    await defer(mine);
    return results;
  }
  const made: { queued: Queued; position: number; next: DeliveryItem; retryAt: Date | undefined }[] = [];
  const started = Date.now();
  let index = 0;
  for (; index < mine.length && Date.now() - started <= LANE_BUDGET_MS; index++) {
    const { queued, position } = mine[index] as (typeof mine)[number];
    made.push({ queued, position, ...(await attempt(queued, subscription)) });
  }
  const recorded = await recordLane(subscriptionId, slot, laneId, made);
  if (index < mine.length) await defer(mine.slice(index));
  for (const entry of made) {
    if (!recorded.has(entry.queued.delivery.deliveryId)) continue;
    results[entry.position] = 'sent';
    if (entry.retryAt) await scheduleDelivery({ subscriptionId, deliveryId: entry.queued.delivery.deliveryId, attempt: entry.next.attemptCount + 1 }, entry.retryAt);
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
  const outcome = subscription?.active
    ? await postSigned(subscription.url, delivery.payload, { secret: subscription.secret, eventId: delivery.eventId, allowPrivateAddresses: config().ALLOW_PRIVATE_WEBHOOK_URLS, now: started })
    : { statusCode: null, error: 'subscription-inactive' as const, durationMs: 0, responseBody: null };
  const made: DeliveryAttempt = { at: started.toISOString(), ...outcome, manual: message.manual ?? false };
  const count = delivery.attemptCount + 1;
  const finished = new Date();
  // Automatic retries follow failures of scheduled attempts only; a manual attempt is one attempt.
  const retryIn = made.error === null || made.manual || !subscription?.active ? undefined : retryDelaysMs()[count - 1];
  const status: DeliveryStatus = made.error === null ? 'delivered' : retryIn !== undefined ? 'pending' : 'failed';
  const retryAt = retryIn !== undefined ? new Date(finished.getTime() + retryIn) : undefined;
  const next: DeliveryItem = {
    ...delivery,
    status,
    attempts: [...delivery.attempts, made],
    attemptCount: count,
    nextAttemptAt: retryAt?.toISOString() ?? null,
    updatedAt: finished.toISOString(),
  };
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

/** Queues again the pending deliveries whose attempt is overdue (a lost message or schedule). */
export async function requeueOverdue(deliveries: readonly DeliveryItem[]): Promise<number> {
  const due = deliveries.filter((delivery) => delivery.status === 'pending');
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
  const data = EVENT_DATA_SCHEMAS[TEST_EVENT_TYPE].parse({ subscriptionId, agentId, message: 'A test event from Agent Marketplace: your receiver and signature check work if you can read this.' });
  const event = { eventId, type: TEST_EVENT_TYPE, occurredAt: now.toISOString(), data };
  const deliveryId = deliveryIdFor(eventId, subscriptionId);
  const item = newDelivery(subscription, event, deliveryId, now);
  await createDelivery(item);
  await enqueueDeliveries([{ subscriptionId, deliveryId, attempt: 1, manual: true }]);
  return toDelivery(item);
}
