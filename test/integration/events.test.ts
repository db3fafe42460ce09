// The domain-event outbox: an event is written exactly when the change that caused it is.
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '../../shared/data/client.ts';
import { transactWrite, TransactionRefused } from '../../shared/data/entity.ts';
import { EventEntity, listPendingEvents, markDispatchedOperation, recordEvent } from '../../shared/data/events.ts';

const now = new Date('2026-11-22T10:00:00.000Z');

async function readEvent(eventId: string) {
  return (await documentClient.send(new GetCommand({ TableName: tableName(), Key: EventEntity.key({ eventId }) }))).Item;
}

describe('recordEvent', () => {
  it('commits the event with its change; the delivery pipeline takes it out of the outbox', async () => {
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
    // The stream's fan-out records its deliveries (none: nobody subscribed) and marks it dispatched.
    const deadline = Date.now() + 15_000;
    while (!(await readEvent(event.eventId))?.dispatchedAt) {
      if (Date.now() > deadline) throw new Error('The event was not dispatched within 15 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await listPendingEvents(1000)).events.map((pendingEvent) => pendingEvent.eventId)).not.toContain(event.eventId);
    // A second fan-out of the same event is refused by its mark, so its deliveries are never recorded twice.
    const dispatchedAt = (await readEvent(event.eventId))?.dispatchedAt as string;
    const again = await transactWrite([markDispatchedOperation('event', event.eventId, now)]).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(TransactionRefused);
    expect((again as TransactionRefused).has('event')).toBe(true);
    expect(await readEvent(event.eventId)).toMatchObject({ type: 'order.created', dispatchedAt });
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
