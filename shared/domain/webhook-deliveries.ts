// A subscription's deliveries as its owner sees them (contract: "Delivery", an extension): the
// delivery log with every attempt and the exact payload, a manual retry of a delivered or failed
// delivery (one attempt), and a test event (one attempt).
import { decodeCursor, encodeCursor } from '../data/cursor.ts';
import { createDelivery, DeliveryEntity, getDelivery, listDeliveries, newDeliveryItem, replaceDelivery, type DeliveryItem } from '../data/deliveries.ts';
import { enqueueDeliveries } from '../data/delivery-queue.ts';
import { getSubscription, type WebhookSubscriptionItem } from '../data/webhook-subscriptions.ts';
import { fail } from '../failures.ts';
import { newId } from '../ids.ts';
import { EVENT_DATA_SCHEMAS, TEST_EVENT_TYPE } from '../schemas/event-data.ts';
import type { Delivery, DeliveryStatus } from '../schemas/webhooks.ts';

export function toDelivery(item: DeliveryItem): Delivery {
  const { agentId: _agent, payload: _payload, attemptCount: _count, ...delivery } = item;
  return delivery;
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
  if (!(await replaceDelivery(next, delivery.attemptCount, DeliveryEntity.where.eq('status', delivery.status)))) throw inFlight();
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
  const item = newDeliveryItem(subscription, event, now);
  await createDelivery(item);
  await enqueueDeliveries([{ subscriptionId, deliveryId: item.deliveryId, attempt: 1, manual: true }]);
  return toDelivery(item);
}
