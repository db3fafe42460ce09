// The delivery pipeline's batch paths against DynamoDB Local and fauxqs, called directly alongside the
// running local runtime: fan-out records an event's deliveries exactly once however many fan-outs race
// for it (the stream's included), and queues what it recorded even when one of its transactions
// fails (an injected store error); a batch of queue messages sends one lane per subscription, leaves
// duplicates and deliveries another sender holds alone, defers what finds every slot held, hands back
// at once what its lane had no time for (even while an attempt hangs), and records each attempt once.
import { randomUUID } from 'node:crypto';
import { DynamoDBClient, InternalServerError } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUnlimited } from '../support/catalog.ts';
import { Receiver } from '../support/receiver.ts';
import { newClient } from '../support/runtime.ts';
import { documentClient, tableName } from '../../shared/data/client.ts';
import { createDelivery, deliveryIdFor, DeliveryEntity, getDelivery, type DeliveryItem } from '../../shared/data/deliveries.ts';
import { transactWrite } from '../../shared/data/transactions.ts';
import { EventEntity, listPendingEvents, recordEvent, type DomainEvent } from '../../shared/data/events.ts';
import { SendingSlotEntity, SENDING_SLOTS } from '../../shared/data/sending-slots.ts';
import { fanOut } from '../../shared/domain/webhook-fan-out.ts';
import { deliverBatch } from '../../shared/domain/webhook-sending.ts';
import { DELIVERY_TIMEOUT_MS } from '../../shared/domain/webhook-sender.ts';
import { newId } from '../../shared/ids.ts';

const client = newClient();
const receiver = new Receiver();
const SECRET = 'whsec_pipeline_0123456789abcdef';

beforeAll(async () => {
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
});

const unique = () => `/pipeline/${randomUUID()}`;

async function subscriber(paths: string[]) {
  const agent = await registerUnlimited(client, 'buyer');
  const subscriptions: string[] = [];
  for (const path of paths) {
    const response = await client.post('/v1/webhooks', { url: receiver.url(path), events: ['*'], secret: SECRET }, { apiKey: agent.apiKey });
    expect(response.status, response.text).toBe(201);
    subscriptions.push(response.json.data.id as string);
  }
  return { agentId: agent.agentId, subscriptions };
}

async function commitEvent(agentId: string): Promise<DomainEvent> {
  const data = { orderId: `ord_${randomUUID()}`, buyerId: agentId, sellerId: agentId, totalAmount: { amount: 100, currency: 'USD' }, items: [] };
  const { event, operation } = recordEvent({ type: 'order.created', data, agentIds: [agentId] }, new Date());
  await transactWrite([operation]);
  return event;
}

/**
 * An event as a stream outage leaves it: in the outbox, but written under another entity name, so the
 * runtime's stream reader passes it over. Only this test's fan-outs see it (and the sweep, once it is
 * 10 s old); the dispatch mark stamps it an event again.
 */
async function unstreamedEvent(agentId: string): Promise<DomainEvent> {
  const data = { orderId: `ord_${randomUUID()}`, buyerId: agentId, sellerId: agentId, totalAmount: { amount: 100, currency: 'USD' }, items: [] };
  const { event, operation } = recordEvent({ type: 'order.created', data, agentIds: [agentId] }, new Date());
  await documentClient.send(new PutCommand({ TableName: tableName(), Item: { ...operation.item.Put!.Item, entity: 'unstreamedEvent' } }));
  return event;
}

const eventIdsAt = (path: string) => receiver.at(path).map((request) => (JSON.parse(request.body) as { id: string }).id);

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The sweep queues a pending delivery again once its attempt is this overdue (functions/webhooks/sweep.worker.ts). */
const SWEEP_DELIVERY_GRACE_MS = 15_000;

describe('fan-out', () => {
  it('records and queues an event’s deliveries once, however many fan-outs race for it', { timeout: 30_000 }, async () => {
    const paths = [unique(), unique(), unique()];
    const { agentId, subscriptions } = await subscriber(paths);
    const event = await commitEvent(agentId);
    // Three fan-outs here, and the runtime's own from the stream.
    const queued = await Promise.all([fanOut([event]), fanOut([event]), fanOut([event])]);
    expect(queued.filter((count) => count > 0).length).toBeLessThanOrEqual(1);
    expect([0, 3]).toContain(queued.reduce((sum, count) => sum + count, 0));
    for (const path of paths) await receiver.waitFor(path, 1);
    await settle(1_500);
    for (const path of paths) expect(receiver.at(path)).toHaveLength(1);
    for (const subscriptionId of subscriptions) {
      const recorded = (await DeliveryEntity.query({ partition: `WEBHOOK#${subscriptionId}`, sortKey: { beginsWith: 'DELIVERY#' } })).items;
      expect(recorded.map((delivery) => delivery.deliveryId)).toEqual([deliveryIdFor(event.eventId, subscriptionId)]);
    }
    expect((await EventEntity.get({ eventId: event.eventId }))?.dispatchedAt).toEqual(expect.any(String));
  });

  it('fans out the rest of a batch when one of its events was dispatched before', { timeout: 30_000 }, async () => {
    const path = unique();
    const { agentId, subscriptions } = await subscriber([path]);
    const before = await commitEvent(agentId);
    await receiver.waitFor(path, 1); // the stream's fan-out dispatched it
    const fresh = await commitEvent(agentId);
    const queued = await fanOut([before, fresh]);
    expect([0, 1]).toContain(queued); // 0 when the stream took `fresh` first
    await receiver.waitFor(path, 2);
    await settle(1_500);
    expect(receiver.at(path).map((request) => (JSON.parse(request.body) as { id: string }).id).sort()).toEqual([before.eventId, fresh.eventId].sort());
    // The receiver can answer before the sender records the attempt: wait for the record.
    const freshDelivery = () => getDelivery(subscriptions[0] as string, deliveryIdFor(fresh.eventId, subscriptions[0] as string));
    await expect.poll(async () => (await freshDelivery())?.status, { timeout: 10_000 }).toBe('delivered');
    expect(await freshDelivery()).toMatchObject({ status: 'delivered', attemptCount: 1 });
  });

  it('queues what the transactions that committed recorded when another fails, then fails', { timeout: 60_000 }, async () => {
    // 20 subscriptions: an event and its deliveries are 21 items, so four events fill one transaction
    // and the fifth is written in a second one, in parallel.
    const paths = Array.from({ length: 20 }, unique);
    const { agentId, subscriptions } = await subscriber(paths);
    const events: DomainEvent[] = [];
    for (let i = 0; i < 5; i++) events.push(await unstreamedEvent(agentId));
    const [poison] = events as [DomainEvent];
    const committed = events[4] as DomainEvent;
    // The first transaction fails with an error of the store (not a refusal); everything else reaches DynamoDB Local.
    const real = DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });
    const mock = mockClient(documentClient);
    mock.on(QueryCommand).callsFake((input) => real.send(new QueryCommand(input)));
    mock.on(TransactWriteCommand).callsFake((input: TransactWriteCommand['input']) =>
      input.TransactItems?.some((item) => item.Update?.Key?.pk === `EVENT#${poison.eventId}`)
        ? Promise.reject(new InternalServerError({ message: 'Internal server error', $metadata: {} }))
        : real.send(new TransactWriteCommand(input)),
    );
    let failure: unknown;
    try {
      await fanOut(events);
    } catch (error) {
      failure = error;
    } finally {
      mock.restore();
    }
    // Failed, so that the stream retries the batch…
    expect(failure).toBeInstanceOf(InternalServerError);
    expect((await EventEntity.get({ eventId: poison.eventId }))?.dispatchedAt).toBeUndefined();
    expect(await getDelivery(subscriptions[0] as string, deliveryIdFor(poison.eventId, subscriptions[0] as string))).toBeUndefined();
    // …but the deliveries the other transaction recorded were queued then, not left for the sweep.
    for (const subscriptionId of subscriptions) {
      const firstAttempt = async () => (await getDelivery(subscriptionId, deliveryIdFor(committed.eventId, subscriptionId)))?.attempts[0];
      await expect.poll(firstAttempt, { timeout: 2 * SWEEP_DELIVERY_GRACE_MS, interval: 200 }).toBeDefined();
      const delivery = (await getDelivery(subscriptionId, deliveryIdFor(committed.eventId, subscriptionId))) as DeliveryItem;
      expect(Date.parse(delivery.attempts[0]!.at) - Date.parse(delivery.createdAt)).toBeLessThan(SWEEP_DELIVERY_GRACE_MS);
    }
    // The retry fans out the rest; each event reaches each subscription once.
    await fanOut(events);
    for (const path of paths) await receiver.waitFor(path, 5);
    await settle(1_500);
    for (const path of paths) expect(new Set(eventIdsAt(path))).toEqual(new Set(events.map((event) => event.eventId)));
    for (const path of paths) expect(receiver.at(path)).toHaveLength(5);
  });
});

describe('an outbox item that is not a valid event', () => {
  it('is passed over by the fan-out and listed by the sweep, and the events after it go out', { timeout: 30_000 }, async () => {
    const path = unique();
    const { agentId } = await subscriber([path]);
    const key = { pk: `EVENT#corrupt-${randomUUID()}`, sk: 'EVENT' };
    // An event item without its id or type, as a bug or a half-done migration might leave one.
    await documentClient.send(new PutCommand({ TableName: tableName(), Item: { ...key, entity: 'event', data: {}, agentIds: [agentId], occurredAt: new Date().toISOString(), expiresAt: 0, gsi1pk: 'OUTBOX#0', gsi1sk: 'evt_0' } }));
    try {
      const event = await commitEvent(agentId);
      // Promptly: not after the stream's retries of the bad record run out.
      const [request] = await receiver.waitFor(path, 1, 5_000);
      expect(JSON.parse(request!.body)).toMatchObject({ id: event.eventId });
      const pending = await listPendingEvents(1000);
      expect(pending.unreadable).toContainEqual({ key: key.pk, problem: expect.stringMatching(/eventId/) });
      expect(pending.events.map((listed) => listed.eventId)).not.toContain(event.eventId);
    } finally {
      await documentClient.send(new DeleteCommand({ TableName: tableName(), Key: key }));
    }
  });
});

describe('sending a batch', () => {
  /** A pending delivery recorded without a queue message, so that only this test sends it. */
  async function pendingDelivery(agentId: string, subscriptionId: string): Promise<DeliveryItem> {
    const eventId = newId('event');
    const at = new Date().toISOString();
    const delivery: DeliveryItem = {
      deliveryId: deliveryIdFor(eventId, subscriptionId),
      subscriptionId,
      agentId,
      eventId,
      eventType: 'order.created',
      status: 'pending',
      attempts: [],
      // Not due for a while: the sweep leaves it alone during the test.
      nextAttemptAt: new Date(Date.now() + 10 * 60_000).toISOString(),
      createdAt: at,
      updatedAt: at,
      payload: JSON.stringify({ id: eventId, type: 'order.created', timestamp: at, data: {} }),
      attemptCount: 0,
    };
    expect(await createDelivery(delivery)).toBe(true);
    return delivery;
  }
  const messageFor = (delivery: DeliveryItem, attempt = 1) => ({ subscriptionId: delivery.subscriptionId, deliveryId: delivery.deliveryId, attempt });

  it('sends each delivery once: a message twice in a batch, and one for an attempt made, are stale', { timeout: 30_000 }, async () => {
    const paths = [unique(), unique()];
    const { agentId, subscriptions } = await subscriber(paths);
    const first = await pendingDelivery(agentId, subscriptions[0] as string);
    const second = await pendingDelivery(agentId, subscriptions[1] as string);
    expect(await deliverBatch([messageFor(first), messageFor(first), messageFor(second)])).toEqual(['sent', 'stale', 'sent']);
    expect(receiver.at(paths[0] as string)).toHaveLength(1);
    expect(receiver.at(paths[1] as string)).toHaveLength(1);
    expect(await getDelivery(first.subscriptionId, first.deliveryId)).toMatchObject({ status: 'delivered', attemptCount: 1, nextAttemptAt: null });
    expect(await deliverBatch([messageFor(first)])).toEqual(['stale']);
    expect(receiver.at(paths[0] as string)).toHaveLength(1);
    // Every slot was given back with the lane's records.
    const slots = await SendingSlotEntity.batchGet(Array.from({ length: SENDING_SLOTS }, (_, slot) => ({ subscriptionId: first.subscriptionId, slot })));
    expect(slots.size).toBe(0);
  });

  it('leaves alone a delivery another sender holds, and defers one whose subscription’s slots are all held', { timeout: 30_000 }, async () => {
    const path = unique();
    const { agentId, subscriptions } = await subscriber([path]);
    const subscriptionId = subscriptions[0] as string;
    const held = await pendingDelivery(agentId, subscriptionId);
    const waiting = await pendingDelivery(agentId, subscriptionId);
    const until = Date.now() + 60_000;
    await SendingSlotEntity.put({ laneId: 'other-sender', deliveryIds: [held.deliveryId], until }, { subscriptionId, slot: 0 });
    for (let slot = 1; slot < SENDING_SLOTS; slot++) await SendingSlotEntity.put({ laneId: `busy-${slot}`, deliveryIds: ['dlv_elsewhere'], until }, { subscriptionId, slot });
    expect(await deliverBatch([messageFor(held), messageFor(waiting)])).toEqual(['stale', 'deferred']);
    await settle(500);
    expect(receiver.at(path)).toHaveLength(0);
    expect(await getDelivery(subscriptionId, waiting.deliveryId)).toMatchObject({ status: 'pending', attemptCount: 0 });
    // The deferred message comes back from the queue and is sent once a slot is free.
    await SendingSlotEntity.delete({ subscriptionId, slot: 3 });
    const [request] = await receiver.waitFor(path, 1);
    expect(JSON.parse(request!.body)).toMatchObject({ id: waiting.eventId });
    for (let slot = 0; slot < 3; slot++) await SendingSlotEntity.delete({ subscriptionId, slot });
  });

  it('keeps a hanging attempt from holding its subscription’s other deliveries: the lane hands them back at once', { timeout: 60_000 }, async () => {
    const path = unique();
    // The first request gets no answer until long after the sender's deadline; the rest are answered at once.
    receiver.on(path, { script: [{ hangMs: 3 * DELIVERY_TIMEOUT_MS }], then: 200 });
    const { agentId, subscriptions } = await subscriber([path]);
    const subscriptionId = subscriptions[0] as string;
    const hanging = await pendingDelivery(agentId, subscriptionId);
    const healthy = await pendingDelivery(agentId, subscriptionId);
    let batchDone = false;
    const batch = deliverBatch([messageFor(hanging), messageFor(healthy)]).finally(() => {
      batchDone = true;
    });
    // The healthy delivery goes out (from another lane, through the queue) while the first attempt still hangs.
    const [first, second] = await receiver.waitFor(path, 2, 3 * DELIVERY_TIMEOUT_MS);
    expect(batchDone).toBe(false);
    expect(JSON.parse(first!.body)).toMatchObject({ id: hanging.eventId });
    expect(JSON.parse(second!.body)).toMatchObject({ id: healthy.eventId });
    expect(await batch).toEqual(['sent', 'deferred']);
    expect(await getDelivery(subscriptionId, hanging.deliveryId)).toMatchObject({ status: 'pending', attempts: [{ error: 'timeout' }] });
    await expect.poll(async () => (await getDelivery(subscriptionId, healthy.deliveryId))?.status, { timeout: 10_000 }).toBe('delivered');
    expect((await getDelivery(subscriptionId, healthy.deliveryId))?.attempts).toHaveLength(1);
  });

  it('sends a subscription’s deliveries one at a time and hands back what its lane had no time for', { timeout: 30_000 }, async () => {
    const path = unique();
    receiver.on(path, { delayMs: 1_200, status: 200 });
    const { agentId, subscriptions } = await subscriber([path]);
    const deliveries = [];
    for (let i = 0; i < 4; i++) deliveries.push(await pendingDelivery(agentId, subscriptions[0] as string));
    // Attempts start at 0 s and 1.2 s; at 2 s the lane's time is up and the other two go back on the queue.
    expect(await deliverBatch(deliveries.map((delivery) => messageFor(delivery)))).toEqual(['sent', 'sent', 'deferred', 'deferred']);
    const [first, second] = receiver.at(path);
    expect([first, second].map((request) => (JSON.parse(request!.body) as { id: string }).id)).toEqual([deliveries[0]!.eventId, deliveries[1]!.eventId]);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_100);
    const all = await receiver.waitFor(path, 4);
    expect(new Set(all.map((request) => (JSON.parse(request.body) as { id: string }).id))).toEqual(new Set(deliveries.map((delivery) => delivery.eventId)));
  });
});
