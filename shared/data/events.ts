// Domain events and their outbox. A change that causes an event writes the event item in the same
// transaction (recordEvent returns the transaction operation), so an event exists exactly when its
// change does. Pending events carry index keys in gsi1 under one of OUTBOX_SHARDS partitions
// (`OUTBOX#<n>`), so that writing events never concentrates on one index partition; the table's stream
// delivers them promptly and a sweep of the shards catches anything the stream missed.
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { newId } from '../ids.ts';
import { EVENT_TYPES, type EventType } from '../schemas/webhooks.ts';
import { CorruptItem, defineEntity, type TransactOperation } from './entity.ts';

/** Partitions of the outbox index: spreads event writes (DynamoDB: about 1,000 writes/s per partition). */
export const OUTBOX_SHARDS = 16;

/** Events are kept 30 days for delivery history, then expire. */
const EVENT_TTL_SECONDS = 30 * 24 * 60 * 60;

export function outboxShard(eventId: string): number {
  return createHash('sha256').update(eventId).digest().readUInt16BE(0) % OUTBOX_SHARDS;
}

export const EventEntity = defineEntity({
  name: 'event',
  schema: z.object({
    eventId: z.string(),
    type: z.enum(EVENT_TYPES),
    data: z.record(z.string(), z.unknown()),
    /** The agents the event concerns: its recipients, subject to their subscriptions. */
    agentIds: z.array(z.string()).min(1),
    occurredAt: z.string(),
    /** Set once the event's deliveries are recorded; the item then leaves the outbox index. */
    dispatchedAt: z.string().optional(),
    expiresAt: z.int(),
  }),
  key: ({ eventId }: { eventId: string }) => ({ pk: `EVENT#${eventId}`, sk: 'EVENT' }),
  indexKeys: (event) => (event.dispatchedAt ? {} : { gsi1pk: `OUTBOX#${outboxShard(event.eventId)}`, gsi1sk: event.eventId }),
});
export type EventItem = z.output<typeof EventEntity.schema>;
export type DomainEvent = Omit<EventItem, 'expiresAt' | 'dispatchedAt'>;

export interface NewEvent {
  type: EventType;
  data: Record<string, unknown>;
  agentIds: string[];
}

/** The event and the transaction operation that records it; put the operation in the change's own transaction. */
export function recordEvent(input: NewEvent, now: Date): { event: DomainEvent; operation: TransactOperation } {
  if (input.agentIds.length === 0) throw new Error(`Event ${input.type} concerns no agent`);
  const event: DomainEvent = {
    eventId: newId('event'),
    type: input.type,
    data: input.data,
    agentIds: [...new Set(input.agentIds)],
    occurredAt: now.toISOString(),
  };
  const item = { ...event, expiresAt: Math.floor(now.getTime() / 1000) + EVENT_TTL_SECONDS };
  return { event, operation: EventEntity.putOperation('event', item, event, { expression: 'attribute_not_exists(pk)' }) };
}

function toDomainEvent(item: EventItem): DomainEvent {
  const { expiresAt: _expiresAt, dispatchedAt: _dispatchedAt, ...event } = item;
  return event;
}

/**
 * Pending events of every shard, oldest first; at most `limit` per shard. An outbox item that does not
 * match the event schema (a bug or a migration gap) is listed by key in `unreadable` rather than
 * failing the whole sweep.
 */
export async function listPendingEvents(limit: number): Promise<{ events: DomainEvent[]; unreadable: { key: string; problem: string }[] }> {
  const shards = await Promise.all(
    Array.from({ length: OUTBOX_SHARDS }, (_, shard) => EventEntity.queryRaw({ index: 'gsi1', partition: `OUTBOX#${shard}`, limit })),
  );
  const events: DomainEvent[] = [];
  const unreadable: { key: string; problem: string }[] = [];
  for (const raw of shards.flatMap((page) => page.items)) {
    try {
      events.push(toDomainEvent(EventEntity.parse(raw)));
    } catch (error) {
      if (!(error instanceof CorruptItem)) throw error;
      unreadable.push({ key: String(raw.pk), problem: error.message });
    }
  }
  return { events: events.sort((a, b) => (a.eventId < b.eventId ? -1 : 1)), unreadable };
}

/**
 * Takes an event out of the outbox, in the transaction that records its deliveries. Refused when the
 * event was dispatched already (its deliveries were recorded then) or is gone.
 */
export function markDispatchedOperation(name: string, eventId: string, now: Date): TransactOperation {
  return EventEntity.updateOperation(
    name,
    { eventId },
    { set: { dispatchedAt: now.toISOString() }, removeIndexKeys: ['gsi1'] },
    { allow: ['dispatchedAt'], condition: { expression: 'attribute_exists(pk) AND attribute_not_exists(dispatchedAt)' } },
  );
}
