// Domain events and their outbox. A change that causes an event writes the event item in the same
// transaction (recordEvent returns the transaction operation), so an event exists exactly when its
// change does. Every event's data is checked against its type's declared schema
// (shared/schemas/events.ts) before anything is written. Pending events carry index keys in gsi1 under
// one of OUTBOX_SHARDS partitions (`OUTBOX#<n>`), so that writing events never concentrates on one index
// partition; the table's stream delivers them promptly and a sweep of the shards catches anything the
// stream missed. Each event is also listed, for as long as it is kept, under its seller in gsi2 and its
// buyer in gsi4: the events feed (GET /v1/events) of each party, with no write of its own. An RFQ's
// rfq.created and rfq.closed to a seller are also its recipient records (rfq-recipient-keys.ts).
import { createHash } from 'node:crypto';
import * as z from '../schemas/zod.ts';
import { newId } from '../ids.ts';
import { RECORDED_EVENT_DATA, RECORDED_EVENT_TYPES, typeDisagreement, type EventDataInput, type RecordedEventType } from '../schemas/event-data.ts';
import type { Role } from '../schemas/agents.ts';
import { CorruptItem, defineEntity, type IndexKeys } from './entity.ts';
import { where } from './expressions.ts';
import type { WriteRequest } from './batches.ts';
import { recipientIndexKeys } from './rfq-recipient-keys.ts';
import type { TransactOperation } from './transactions.ts';

/** Partitions of the outbox index: spreads event writes (DynamoDB: about 1,000 writes/s per partition). */
export const OUTBOX_SHARDS = 16;

/** Events are kept 30 days (delivery history, the events feed), then expire. */
export const EVENT_RETENTION_SECONDS = 30 * 24 * 60 * 60;

export function outboxShard(eventId: string): number {
  return createHash('sha256').update(eventId).digest().readUInt16BE(0) % OUTBOX_SHARDS;
}

/**
 * The parties an event's data names: its seller and its buyer, or one of them (feeds have no buyer; an
 * order awaiting approval is the buyer's alone until approved); or, for an event about an agent's own
 * setup (webhook.disabled), that agent alone (`agentId`).
 */
function partiesOf(data: Record<string, unknown>): { sellerId?: string; buyerId?: string; agentId?: string } {
  const { sellerId, buyerId, agentId } = data;
  if (typeof sellerId !== 'string' && typeof buyerId !== 'string') {
    if (typeof agentId === 'string') return { agentId };
    throw new Error('An event names its seller or its buyer (data.sellerId, data.buyerId) or its agent (data.agentId)');
  }
  return { ...(typeof sellerId === 'string' ? { sellerId } : {}), ...(typeof buyerId === 'string' ? { buyerId } : {}) };
}

/** The partitions of a party's events feed: the seller's in gsi2 (with its other lists), the buyer's in gsi4. */
export const feedPartition = (role: Role, agentId: string): string => (role === 'seller' ? `SELLER#${agentId}#EVENTS` : `BUYER#${agentId}#EVENTS`);

/** The feed entries of an event: under each party it concerns (all its parties, but for a sample event). */
function feedIndexKeys(eventId: string, data: Record<string, unknown>, agentIds: readonly string[]): IndexKeys {
  const { sellerId, buyerId, agentId } = partiesOf(data);
  // An agent's own event is listed under both roles' partitions: the agent has one role, and reads its own.
  if (agentId) return agentIds.includes(agentId) ? { gsi2pk: feedPartition('seller', agentId), gsi2sk: eventId, gsi4pk: feedPartition('buyer', agentId), gsi4sk: eventId } : {};
  return {
    ...(sellerId && agentIds.includes(sellerId) ? { gsi2pk: feedPartition('seller', sellerId), gsi2sk: eventId } : {}),
    ...(buyerId && agentIds.includes(buyerId) ? { gsi4pk: feedPartition('buyer', buyerId), gsi4sk: eventId } : {}),
  };
}

export const EventEntity = defineEntity({
  name: 'event',
  schema: z.object({
    eventId: z.string(),
    /** The recorded name (aliases are resolved when deliveries fan out). */
    type: z.enum(RECORDED_EVENT_TYPES),
    data: z.record(z.string(), z.unknown()),
    /** The agents the event concerns: its recipients, subject to their subscriptions. */
    agentIds: z.array(z.string()).check(z.minLength(1)),
    occurredAt: z.string(),
    /** Set once the event's deliveries are recorded; the item then leaves the outbox index. */
    dispatchedAt: z.optional(z.string()),
    /** When the table drops it; none for an event that is also a lasting record (an RFQ's recipient). Reads never show an event past EVENT_RETENTION_SECONDS. */
    expiresAt: z.optional(z.int()),
  }).check(z.superRefine((event, context) => {
    // Written only after this check (recordEvent), so a stored event that fails it is corrupt.
    const schema = RECORDED_EVENT_DATA[event.type] as z.ZodMiniType | undefined;
    if (!schema) return; // an unknown type is reported by the enum
    const parsed = schema.safeParse(event.data);
    for (const issue of parsed.error?.issues ?? []) context.addIssue({ code: 'custom', path: ['data', ...issue.path], message: issue.message });
  })),
  key: ({ eventId }: { eventId: string }) => ({ pk: `EVENT#${eventId}`, sk: 'EVENT' }),
  indexKeys: (event) => ({
    ...feedIndexKeys(event.eventId, event.data, event.agentIds),
    ...recipientIndexKeys(event.type, event.data),
    ...(event.dispatchedAt ? {} : { gsi1pk: `OUTBOX#${outboxShard(event.eventId)}`, gsi1sk: event.eventId }),
  }),
});
export type EventItem = z.output<typeof EventEntity.schema>;
export type DomainEvent = Omit<EventItem, 'expiresAt' | 'dispatchedAt'>;

/** An event to record: its data typed, and checked at run time, by the type's declared schema. */
export type NewEvent<T extends RecordedEventType = RecordedEventType> = {
  [K in T]: {
    type: K;
    data: EventDataInput<K>;
    /** Its recipients: exactly the parties its data names (its buyer and its seller, or the one it names). */
    agentIds: string[];
  };
}[T];

/**
 * The event and the transaction operation that records it; put the operation in the change's own
 * transaction. Data that does not match its type's schema, or recipients that are not the parties the
 * data names, are programming errors: this throws before anything is written.
 */
export function recordEvent<T extends RecordedEventType>(input: NewEvent<T>, now: Date): { event: DomainEvent; operation: TransactOperation } {
  const { event, item } = eventItem(input, now, newId('event'));
  return { event, operation: EventEntity.putOperation('event', item, event, where.notExists('pk')) };
}

/**
 * A new event as a put for batchWrite() (unconditional, not atomic with anything): for events sent to
 * many agents at once by a run that alone may send them (an RFQ's to its sellers, under its dispatch
 * lease: shared/domain/rfqs.ts). `kept`: the event is also a lasting record and never expires from the
 * table. Checked as recordEvent checks it.
 */
export function newEventPutRequest<T extends RecordedEventType>(input: NewEvent<T>, now: Date, options: { kept?: boolean } = {}): { event: DomainEvent; request: WriteRequest } {
  const { event, item } = eventItem(input, now, newId('event'));
  const { expiresAt, ...lasting } = item;
  return { event, request: EventEntity.putRequest(options.kept ? lasting : { ...lasting, expiresAt }, event) };
}

function eventItem<T extends RecordedEventType>(input: NewEvent<T>, now: Date, eventId: string): { event: DomainEvent; item: EventItem } {
  if (input.agentIds.length === 0) throw new Error(`Event ${input.type} concerns no agent`);
  const parsed = RECORDED_EVENT_DATA[input.type].safeParse(input.data);
  if (!parsed.success) {
    throw new Error(`Event ${input.type} does not match its declared data schema: ${parsed.error.issues.map((issue) => `${['data', ...issue.path].join('.')}: ${issue.message}`).join('; ')}`);
  }
  const data = parsed.data as Record<string, unknown>;
  const disagreement = typeDisagreement(input.type, data);
  if (disagreement) throw new Error(`Event ${input.type} does not match its type: ${disagreement}`);
  const agentIds = [...new Set(input.agentIds)];
  const parties = new Set(Object.values(partiesOf(data)));
  // A sample event (the sandbox's test helpers) goes to the caller alone, one of the parties it names.
  const sample = data.sample === true;
  if ((!sample && agentIds.length !== parties.size) || agentIds.some((agentId) => !parties.has(agentId))) {
    throw new Error(`Event ${input.type} concerns ${agentIds.join(', ')}, but its data names ${[...parties].join(', ')}: recipients are the parties the data names`);
  }
  const event: DomainEvent = { eventId, type: input.type, data, agentIds, occurredAt: now.toISOString() };
  return { event, item: { ...event, expiresAt: Math.floor(now.getTime() / 1000) + EVENT_RETENTION_SECONDS } };
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
    { allow: ['dispatchedAt'], condition: EventEntity.where.and(where.exists('pk'), EventEntity.where.notExists('dispatchedAt')) },
  );
}

/** One event, read consistently (it may have been recorded a moment ago); undefined when it does not exist or has expired from the table. */
export async function getEvent(eventId: string): Promise<DomainEvent | undefined> {
  const item = await EventEntity.get({ eventId }, { consistent: true });
  return item ? toDomainEvent(item) : undefined;
}

export interface EventFeedQuery {
  /** Sort-key range, inclusive at both ends (event ids, or id prefixes of a time). */
  from: string;
  to: string;
  ascending: boolean;
  limit: number;
  /** Only these recorded types. */
  types?: readonly RecordedEventType[] | undefined;
  startKey?: Record<string, unknown> | undefined;
}

/** A party's events by id (time) range: the seller's from gsi2, the buyer's from gsi4. */
export async function listEventsOf(role: Role, agentId: string, query: EventFeedQuery): Promise<{ events: DomainEvent[]; lastKey: Record<string, unknown> | undefined }> {
  const types = query.types ?? [];
  const page = await EventEntity.query({
    index: role === 'seller' ? 'gsi2' : 'gsi4',
    partition: feedPartition(role, agentId),
    sortKey: { between: [query.from, query.to] },
    ascending: query.ascending,
    limit: query.limit,
    startKey: query.startKey,
    ...(types.length > 0 ? { filter: where.in('type', types) } : {}),
  });
  return { events: page.items.map(toDomainEvent), lastKey: page.lastKey };
}
