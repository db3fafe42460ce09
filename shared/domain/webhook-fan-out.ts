// Webhook fan-out (contract: "Webhook subscription", "Delivery"): each event leaves the outbox as one
// delivery per matching active subscription of the agents it concerns, recorded with the event's
// dispatch mark in one transaction and then queued. The sweep's second path: deliveries whose attempt
// is overdue (a lost message or schedule) are queued again.
import { createDeliveryOperation, newDeliveryItem, type DeliveryItem } from '../data/deliveries.ts';
import { enqueueDeliveries } from '../data/delivery-queue.ts';
import { transactWrite, TransactionRefused } from '../data/transactions.ts';
import { markDispatchedOperation, type DomainEvent } from '../data/events.ts';
import { listSubscriptions, type WebhookSubscriptionItem } from '../data/webhook-subscriptions.ts';
import { EVENT_ALIASES } from '../schemas/event-data.ts';
import { forEachConcurrently } from '../concurrency.ts';

/**
 * The name a subscription receives an event type under, or undefined when it does not receive it. Of an
 * alias pair, a subscription naming only the alias receives the event under the alias; one naming the
 * canonical name, both names, or `*` receives it once, under the canonical name (the name it is recorded
 * under, which GET /v1/events shows too).
 */
export function deliveryName(eventType: string, subscribed: readonly string[]): string | undefined {
  const pair = EVENT_ALIASES.find((names) => (names as readonly string[]).includes(eventType));
  if (!pair) return subscribed.includes('*') || subscribed.includes(eventType) ? eventType : undefined;
  const [alias, canonical] = pair;
  if (subscribed.includes('*') || subscribed.includes(canonical)) return canonical;
  return subscribed.includes(alias) ? alias : undefined;
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
          if (name) deliveries.push(newDeliveryItem(subscription, { ...event, type: name }, now));
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
  try {
    // After a failure no transaction starts; those in flight finish, and what they recorded is queued.
    await forEachConcurrently(chunks, FAN_OUT_PARALLELISM, async (chunk) => {
      recorded.push(...(await recordPlans(chunk.plans, now)));
    });
  } catch (error) {
    failure = { error };
  }
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

/** Queues again the pending deliveries whose attempt is overdue (a lost message or schedule). */
export async function requeueOverdue(deliveries: readonly DeliveryItem[]): Promise<number> {
  const due = deliveries.filter((delivery) => delivery.status === 'pending');
  await enqueueDeliveries(due.map((delivery) => ({ subscriptionId: delivery.subscriptionId, deliveryId: delivery.deliveryId, attempt: delivery.attemptCount + 1 })));
  return due.length;
}
