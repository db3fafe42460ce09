// Domain events and their outbox. A change that causes an event writes the event item in the same
// transaction (recordEvent returns the transaction item), so an event exists exactly when its change
// does. Pending events sit in the sparse gsi1 under OUTBOX until the webhook dispatcher drains them.
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { newId } from '../ids.ts';
import type { EventType } from '../schemas/webhooks.ts';
import { documentClient, tableName } from './client.ts';
import { GSI1 } from './table-definition.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export const eventKeys = {
  event: (eventId: string) => ({ pk: `EVENT#${eventId}`, sk: 'EVENT' }),
  /** gsi1 partition of events not yet dispatched; the sort key is the (time-ordered) event id. */
  outbox: (eventId: string) => ({ gsi1pk: 'OUTBOX', gsi1sk: eventId }),
};

/** Events are kept 30 days for delivery history, then expire. */
const EVENT_TTL_SECONDS = 30 * 24 * 60 * 60;

export interface DomainEvent {
  eventId: string;
  type: EventType;
  data: Record<string, unknown>;
  /** The agents the event concerns: its recipients, subject to their subscriptions. */
  agentIds: string[];
  occurredAt: string;
}

export interface NewEvent {
  type: EventType;
  data: Record<string, unknown>;
  agentIds: string[];
}

/** The event and the transaction item that records it; put the item in the change's own transaction. */
export function recordEvent(input: NewEvent, now: Date): { event: DomainEvent; transactItem: TransactItem } {
  if (input.agentIds.length === 0) throw new Error(`Event ${input.type} concerns no agent`);
  const event: DomainEvent = {
    eventId: newId('event'),
    type: input.type,
    data: input.data,
    agentIds: [...new Set(input.agentIds)],
    occurredAt: now.toISOString(),
  };
  const item = {
    ...eventKeys.event(event.eventId),
    ...eventKeys.outbox(event.eventId),
    entity: 'event',
    ...event,
    expiresAt: Math.floor(now.getTime() / 1000) + EVENT_TTL_SECONDS,
  };
  return {
    event,
    transactItem: { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
  };
}

/** Oldest pending events first. */
export async function listPendingEvents(limit: number): Promise<DomainEvent[]> {
  const result = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI1.indexName,
      KeyConditionExpression: 'gsi1pk = :outbox',
      ExpressionAttributeValues: { ':outbox': 'OUTBOX' },
      Limit: limit,
    }),
  );
  return (result.Items ?? []).map((item) => {
    const { eventId, type, data, agentIds, occurredAt } = item as DomainEvent;
    return { eventId, type, data, agentIds, occurredAt };
  });
}

/** Takes an event out of the outbox once it has been handed to delivery. */
export async function markDispatched(eventId: string): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: eventKeys.event(eventId),
      UpdateExpression: 'REMOVE gsi1pk, gsi1sk',
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}
