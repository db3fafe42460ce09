// The domain-event outbox: an event is written exactly when the change that caused it is.
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '../../shared/data/client.ts';
import { EventEntity, listPendingEvents, markDispatched, recordEvent } from '../../shared/data/events.ts';

const now = new Date('2026-11-22T10:00:00.000Z');

async function readEvent(eventId: string) {
  return (await documentClient.send(new GetCommand({ TableName: tableName(), Key: EventEntity.key({ eventId }) }))).Item;
}

describe('recordEvent', () => {
  it('commits the event with its change, and it waits in the outbox until dispatched', async () => {
    const changeKey = { pk: `TEST#${randomUUID()}`, sk: 'TEST' };
    const { event, operation } = recordEvent(
      { type: 'order.created', data: { orderId: 'ord_1' }, agentIds: ['agt_buyer', 'agt_seller', 'agt_buyer'] },
      now,
    );
    expect(event.eventId).toMatch(/^evt_[0-9A-Z]{26}$/);
    expect(event.agentIds).toEqual(['agt_buyer', 'agt_seller']);
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [{ Put: { TableName: tableName(), Item: { ...changeKey, value: 1 } } }, operation.item],
      }),
    );
    expect(await readEvent(event.eventId)).toMatchObject({ type: 'order.created', data: { orderId: 'ord_1' }, occurredAt: now.toISOString() });
    const pending = await listPendingEvents(1000);
    expect(pending.map((pendingEvent) => pendingEvent.eventId)).toContain(event.eventId);

    await markDispatched(event.eventId, now);
    expect((await listPendingEvents(1000)).map((pendingEvent) => pendingEvent.eventId)).not.toContain(event.eventId);
    expect(await readEvent(event.eventId)).toMatchObject({ type: 'order.created' });
  });

  it('writes no event when the change is refused', async () => {
    const changeKey = { pk: `TEST#${randomUUID()}`, sk: 'TEST' };
    const { event, operation } = recordEvent({ type: 'order.cancelled', data: {}, agentIds: ['agt_x'] }, now);
    await expect(
      documentClient.send(
        new TransactWriteCommand({
          TransactItems: [
            { Update: { TableName: tableName(), Key: changeKey, UpdateExpression: 'SET v = :v', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: { ':v': 1 } } },
            operation.item,
          ],
        }),
      ),
    ).rejects.toThrow();
    expect(await readEvent(event.eventId)).toBeUndefined();
  });

  it('refuses an event that concerns nobody', () => {
    expect(() => recordEvent({ type: 'feed.failed', data: {}, agentIds: [] }, now)).toThrow(/concerns no agent/);
  });
});
