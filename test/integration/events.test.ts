// The domain-event outbox: an event is written exactly when the change that caused it is, its data as
// its type declares, and listed under its parties for their events feeds.
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '../../shared/data/client.ts';
import { transactWrite, TransactionRefused } from '../../shared/data/transactions.ts';
import { EventEntity, listEventsOf, listPendingEvents, markDispatchedOperation, recordEvent } from '../../shared/data/events.ts';

const now = new Date('2026-11-22T10:00:00.000Z');

async function readEvent(eventId: string) {
  return (await documentClient.send(new GetCommand({ TableName: tableName(), Key: EventEntity.key({ eventId }) }))).Item;
}

const orderCreated = (buyerId: string, sellerId: string) => ({
  orderId: `ord_${randomUUID()}`,
  buyerId,
  sellerId,
  totalAmount: { amount: 19_000, currency: 'USD' },
  items: [{ productId: 'prd_1', sku: 'GLV-1', title: 'Gloves', quantity: 20, unitPrice: 950 }],
});

const feedFailed = (sellerId: string) => ({
  feedId: 'feed_1',
  sellerId,
  status: 'failed' as const,
  format: 'csv' as const,
  filename: 'catalog.csv',
  rowsTotal: 2,
  rowsSucceeded: 0,
  rowsFailed: 2,
  failureReason: 'Every row is invalid',
  completedAt: now.toISOString(),
});

describe('recordEvent', () => {
  it('commits the event with its change; the delivery pipeline takes it out of the outbox', async () => {
    const changeKey = { pk: `TEST#${randomUUID()}`, sk: 'TEST' };
    const data = orderCreated('agt_buyer', 'agt_seller');
    const { event, operation } = recordEvent({ type: 'order.created', data, agentIds: ['agt_buyer', 'agt_seller', 'agt_buyer'] }, now);
    expect(event.eventId).toMatch(/^evt_[0-9A-Z]{26}$/);
    expect(event.agentIds).toEqual(['agt_buyer', 'agt_seller']);
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [{ Put: { TableName: tableName(), Item: { ...changeKey, value: 1 } } }, operation.item],
      }),
    );
    expect(await readEvent(event.eventId)).toMatchObject({ type: 'order.created', data, occurredAt: now.toISOString() });
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
    const { event, operation } = recordEvent({ type: 'feed.failed', data: feedFailed('agt_x'), agentIds: ['agt_x'] }, now);
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
    expect(() => recordEvent({ type: 'feed.failed', data: feedFailed('agt_x'), agentIds: [] }, now)).toThrow(/concerns no agent/);
  });

  it('refuses data that does not match the type’s declared schema, naming the field', () => {
    // Runtime data can be anything: the check must not rest on the compiler.
    const loose = (data: unknown) => data as ReturnType<typeof orderCreated>;
    expect(() => recordEvent({ type: 'order.created', data: loose({ ...orderCreated('agt_b', 'agt_s'), status: 'pending' }), agentIds: ['agt_b', 'agt_s'] }, now)).toThrow(/order\.created .*data: Unrecognized key: "status"/);
    expect(() => recordEvent({ type: 'order.created', data: loose({ ...orderCreated('agt_b', 'agt_s'), totalAmount: { amount: 1.5, currency: 'USD' } }), agentIds: ['agt_b', 'agt_s'] }, now)).toThrow(/data\.totalAmount\.amount/);
    expect(() => recordEvent({ type: 'feed.failed', data: { ...feedFailed('agt_s'), failureReason: undefined }, agentIds: ['agt_s'] }, now)).toThrow(/data\.failureReason/);
  });

  it('refuses an event whose recipients are not the parties its data names', () => {
    expect(() => recordEvent({ type: 'order.created', data: orderCreated('agt_b', 'agt_s'), agentIds: ['agt_b'] }, now)).toThrow(/recipients are the parties/);
    expect(() => recordEvent({ type: 'order.created', data: orderCreated('agt_b', 'agt_s'), agentIds: ['agt_b', 'agt_s', 'agt_third'] }, now)).toThrow(/recipients are the parties/);
  });

  it('lists the event under its seller and its buyer, and a feed event under its seller only', async () => {
    const buyerId = `agt_${randomUUID()}`;
    const sellerId = `agt_${randomUUID()}`;
    const order = recordEvent({ type: 'order.created', data: orderCreated(buyerId, sellerId), agentIds: [buyerId, sellerId] }, new Date());
    const feed = recordEvent({ type: 'feed.failed', data: feedFailed(sellerId), agentIds: [sellerId] }, new Date());
    await transactWrite([order.operation, { ...feed.operation, name: 'feed' }]);
    const everything = { from: 'evt_', to: 'evt_~', ascending: true, limit: 10 };
    expect((await listEventsOf('seller', sellerId, everything)).events.map((event) => event.eventId)).toEqual([order.event.eventId, feed.event.eventId]);
    expect((await listEventsOf('buyer', buyerId, everything)).events.map((event) => event.eventId)).toEqual([order.event.eventId]);
    expect((await listEventsOf('seller', sellerId, { ...everything, types: ['feed.failed'] })).events.map((event) => event.eventId)).toEqual([feed.event.eventId]);
    // The roles' partitions are apart: a buyer id asked for as a seller finds nothing.
    expect((await listEventsOf('seller', buyerId, everything)).events).toEqual([]);
  });
});
