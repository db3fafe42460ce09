// Webhook deliveries (contract: "Delivery" record): one per event and subscription, in the
// subscription's partition (`WEBHOOK#<whkId>`, sorted by delivery id, whose time part is the event's),
// so a subscription's delivery log is one Query, newest first. A delivery's id is derived from its
// event and subscription: the stream and the outbox sweep may both fan an event out, and the second
// put simply finds the first. Fan-out records deliveries in transactions with their events' dispatch
// marks, and the sender records a lane's attempts in one transaction. Every attempt is recorded on the
// item under a condition on the attempt count it was made as, so a duplicate queue message can never
// record an attempt twice. While a
// delivery waits for its next attempt it carries gsi3 keys (`DUE#DELIVERY`, by nextAttemptAt): the
// sweep finds deliveries whose queue message or retry schedule was lost. Access patterns: docs/data-model.md.
import { createHash } from 'node:crypto';
import * as z from '../schemas/zod.ts';
import { Delivery } from '../schemas/webhooks.ts';
import { ConditionRefused, defineEntity } from './entity.ts';
import { where, type Condition } from './expressions.ts';
import type { TransactOperation } from './transactions.ts';

const DUE_PARTITION = 'DUE#DELIVERY';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const DeliveryEntity = defineEntity({
  name: 'delivery',
  schema: z.extend(Delivery, {
    /** The subscription's owner (the recipient). */
    agentId: z.string(),
    /** The exact body: sent, signed and shown as it was. */
    payload: z.string(),
    /** Attempts made so far (= attempts.length); every change is conditional on it. */
    attemptCount: z.int().check(z.gte(0)),
  }),
  key: ({ subscriptionId, deliveryId }: { subscriptionId: string; deliveryId: string }) => ({ pk: `WEBHOOK#${subscriptionId}`, sk: `DELIVERY#${deliveryId}` }),
  indexKeys: (delivery) =>
    delivery.status === 'pending' && delivery.nextAttemptAt ? { gsi3pk: DUE_PARTITION, gsi3sk: `${delivery.nextAttemptAt}#${delivery.subscriptionId}#${delivery.deliveryId}` } : {},
});
export type DeliveryItem = z.output<typeof DeliveryEntity.schema>;

/** The delivery id of an event for a subscription: the event's time, then 16 characters of a hash of both ids. */
export function deliveryIdFor(eventId: string, subscriptionId: string): string {
  const time = eventId.slice(eventId.indexOf('_') + 1, eventId.indexOf('_') + 11);
  const digest = createHash('sha256').update(`${eventId}|${subscriptionId}`).digest();
  let random = '';
  for (let i = 0; i < 16; i++) random += CROCKFORD[(digest[i] as number) % 32];
  return `dlv_${time}${random}`;
}

/** A new pending delivery of an event (under the name the subscription receives it) to a subscription, due now. */
export function newDeliveryItem(subscription: { id: string; agentId: string }, event: { eventId: string; type: string; occurredAt: string; data: unknown }, now: Date): DeliveryItem {
  const at = now.toISOString();
  return {
    deliveryId: deliveryIdFor(event.eventId, subscription.id),
    subscriptionId: subscription.id,
    agentId: subscription.agentId,
    eventId: event.eventId,
    eventType: event.type,
    status: 'pending',
    attempts: [],
    nextAttemptAt: at,
    createdAt: at,
    updatedAt: at,
    // The envelope, exactly as it is signed and sent on every attempt.
    payload: JSON.stringify({ id: event.eventId, type: event.type, timestamp: event.occurredAt, data: event.data }),
    attemptCount: 0,
  };
}

const isNew = where.notExists('pk');

/** Records a new delivery; false when it already exists (the event was fanned out before). */
export async function createDelivery(item: DeliveryItem): Promise<boolean> {
  try {
    await DeliveryEntity.put(item, item, { condition: isNew });
    return true;
  } catch (error) {
    if (error instanceof ConditionRefused) return false;
    throw error;
  }
}

/** The same, inside a transaction (refused, under the operation's name, when it exists). */
export function createDeliveryOperation(name: string, item: DeliveryItem): TransactOperation {
  return DeliveryEntity.putOperation(name, item, item, isNew);
}

export function getDelivery(subscriptionId: string, deliveryId: string): Promise<DeliveryItem | undefined> {
  return DeliveryEntity.get({ subscriptionId, deliveryId }, { consistent: true });
}

/** Many deliveries by key, read consistently (one BatchGetItem per 100), keyed by delivery id. */
export async function getDeliveries(keys: readonly { subscriptionId: string; deliveryId: string }[]): Promise<Map<string, DeliveryItem>> {
  const found = await DeliveryEntity.batchGet(keys, { consistent: true });
  return new Map([...found.values()].map((delivery) => [delivery.deliveryId, delivery]));
}

const attemptsWere = (expectedAttempts: number) => DeliveryEntity.where.eq('attemptCount', expectedAttempts);

/** Writes `next` inside a transaction if the stored delivery still has `expectedAttempts` attempts. */
export function replaceDeliveryOperation(name: string, next: DeliveryItem, expectedAttempts: number): TransactOperation {
  return DeliveryEntity.putOperation(name, next, next, attemptsWere(expectedAttempts));
}

/** Writes `next` if the stored delivery still has `expectedAttempts` attempts (and, optionally, more); false otherwise. */
export async function replaceDelivery(next: DeliveryItem, expectedAttempts: number, condition?: Condition): Promise<boolean> {
  try {
    await DeliveryEntity.put(next, next, { condition: DeliveryEntity.where.and(attemptsWere(expectedAttempts), condition) });
    return true;
  } catch (error) {
    if (error instanceof ConditionRefused) return false;
    throw error;
  }
}

export function listDeliveries(subscriptionId: string, options: { limit: number; startKey?: Record<string, unknown>; status?: string }) {
  return DeliveryEntity.query({
    partition: `WEBHOOK#${subscriptionId}`,
    sortKey: { beginsWith: 'DELIVERY#' },
    ascending: false,
    limit: options.limit,
    startKey: options.startKey,
    ...(options.status ? { filter: where.eq('status', options.status) } : {}),
  });
}

/** Pending deliveries whose next attempt was due before `before`, oldest first. */
export async function listOverdueDeliveries(before: Date, limit: number): Promise<DeliveryItem[]> {
  return (await DeliveryEntity.query({ index: 'gsi3', partition: DUE_PARTITION, sortKey: { lessThan: before.toISOString() }, limit })).items;
}
