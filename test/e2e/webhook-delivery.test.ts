// Webhook delivery over HTTP against the local runtime (retries after 1, 2, 2, 3 s: the global setup
// sets WEBHOOK_RETRY_DELAYS), with real receivers on loopback: signatures checked with an HMAC built
// from SHA-256 by hand (RFC 2104), aliases and `*`, party scoping, retries on the schedule, the final
// failure and a manual retry, timeouts, redirects, refused connections, the delivery log and its
// BOLA, the test event, and every event type so far with its payload.
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { registerUnlimited, waitForFeed } from '../support/catalog.ts';
import type { TestClient } from '../support/http-client.ts';
import { Receiver, type Received } from '../support/receiver.ts';
import { newClient } from '../support/runtime.ts';
import { acceptedSession, listProduct, move, negotiate, orderAction } from '../support/trade.ts';

const client = newClient();
const receiver = new Receiver();
const SECRET = 'whsec_test_0123456789abcdef';

beforeAll(async () => {
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
});

/** HMAC-SHA-256 from the hash alone (RFC 2104), so the check does not share the product's HMAC code. */
function rfc2104(key: string, message: string): string {
  let k = Buffer.from(key, 'utf8');
  if (k.length > 64) k = createHash('sha256').update(k).digest();
  const block = Buffer.alloc(64);
  k.copy(block);
  const inner = createHash('sha256').update(Buffer.from(block.map((byte) => byte ^ 0x36))).update(message, 'utf8').digest();
  return createHash('sha256').update(Buffer.from(block.map((byte) => byte ^ 0x5c))).update(inner).digest('hex');
}

function expectSigned(request: Received, secret = SECRET): Record<string, any> {
  expect(request.headers['x-marketplace-signature']).toBe(`sha256=${rfc2104(secret, request.body)}`);
  expect(Number(request.headers['x-marketplace-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 120);
  expect(request.headers['user-agent']).toMatch(/^AgentMarketplace-Webhooks\//);
  const envelope = JSON.parse(request.body) as Record<string, any>;
  expect(request.headers['x-marketplace-event-id']).toBe(envelope.id);
  expect(envelope.id).toMatch(/^evt_/);
  expect(new Date(envelope.timestamp).toISOString()).toBe(envelope.timestamp);
  return envelope;
}

async function subscribe(apiKey: string, path: string, events: string[], secret = SECRET): Promise<string> {
  const response = await client.post('/v1/webhooks', { url: receiver.url(path), events, secret }, { apiKey });
  expect(response.status, response.text).toBe(201);
  return response.json.data.id as string;
}

async function deliveries(c: TestClient, apiKey: string, subscriptionId: string, query = ''): Promise<any[]> {
  const response = await c.get(`/v1/webhooks/${subscriptionId}/deliveries${query}`, { apiKey });
  expect(response.status, response.text).toBe(200);
  return response.json.data.items as any[];
}

/** Polls a delivery until `done` says so. */
async function waitForDelivery(apiKey: string, subscriptionId: string, deliveryId: string, done: (delivery: any) => boolean, timeoutMs = 30_000) {
  return vi.waitFor(
    async () => {
      const response = await client.get(`/v1/webhooks/${subscriptionId}/deliveries/${deliveryId}`, { apiKey });
      expect(response.status, response.text).toBe(200);
      if (!done(response.json.data)) throw new Error(`delivery still ${JSON.stringify(response.json.data)}`);
      return response.json.data;
    },
    { timeout: timeoutMs, interval: 200 },
  );
}

const unique = () => `/${Math.random().toString(36).slice(2)}`;

describe('webhook delivery', () => {
  it('delivers every event of a negotiation and an order to both parties, signed, with the spec’s order.created payload', { timeout: 120_000 }, async () => {
    const listing = await listProduct(client);
    const buyer = await registerUnlimited(client, 'buyer');
    const buyerPath = unique();
    const sellerPath = unique();
    await subscribe(buyer.apiKey, buyerPath, ['*']);
    await subscribe(listing.seller.apiKey, sellerPath, ['*']);
    const started = await negotiate(client, buyer.apiKey, { offerId: listing.offerId, quantity: 20, unitPrice: 900 });
    const sessionId = started.json.data.sessionId as string;
    await move(client, listing.seller.apiKey, sessionId, 'counter', { unitPrice: 950 });
    await move(client, buyer.apiKey, sessionId, 'accept');
    const order = (await client.send('POST', '/v1/create-order', { apiKey: buyer.apiKey, body: { sessionId } })).json.data;
    await orderAction(client, listing.seller.apiKey, order.orderId, 'confirm');
    await orderAction(client, listing.seller.apiKey, order.orderId, 'ship', { carrier: 'DHL', trackingNumber: '42' });
    await orderAction(client, listing.seller.apiKey, order.orderId, 'deliver');
    await orderAction(client, buyer.apiKey, order.orderId, 'complete');
    const expected = ['negotiation.started', 'negotiation.counter', 'negotiation.accepted', 'order.created', 'order.confirmed', 'order.shipped', 'order.delivered', 'order.completed'];
    // The seller's listing feed may still be fanning out as it subscribes: trade events only.
    const tradeAt = (path: string, count: number) =>
      vi.waitFor(
        () => {
          const envelopes = receiver.at(path).map((request) => expectSigned(request)).filter((envelope) => !String(envelope.type).startsWith('feed.'));
          if (envelopes.length < count) throw new Error(`${envelopes.length} of ${count} trade events at ${path}`);
          return envelopes;
        },
        { timeout: 30_000, interval: 50 },
      );
    for (const path of [buyerPath, sellerPath]) {
      const envelopes = await tradeAt(path, expected.length);
      expect(envelopes.map((envelope) => envelope.type).sort()).toEqual([...expected].sort());
      const created = envelopes.find((envelope) => envelope.type === 'order.created')!;
      expect(created.data).toEqual({
        orderId: order.orderId, buyerId: buyer.agentId, sellerId: listing.seller.agentId,
        totalAmount: { amount: 19_000, currency: 'USD' }, items: [{ productId: listing.productId, sku: listing.sku, title: 'Nitrile gloves, box of 100', quantity: 20, unitPrice: 950 }],
      });
      const shipped = envelopes.find((envelope) => envelope.type === 'order.shipped')!;
      expect(shipped.data).toMatchObject({ orderId: order.orderId, status: 'shipped', shipping: { carrier: 'DHL', trackingNumber: '42' } });
      const counter = envelopes.find((envelope) => envelope.type === 'negotiation.counter')!;
      expect(counter.data).toMatchObject({ sessionId, buyerId: buyer.agentId, sellerId: listing.seller.agentId, unitPrice: 950, by: 'seller', round: 2 });
      for (const envelope of envelopes) expect(JSON.stringify(envelope)).not.toMatch(/floorUnitPrice|autoAcceptUnitPrice/);
    }
    // Cancellation and rejection events too.
    const second = await acceptedSession(client, listing, buyer, 10);
    const cancelled = (await client.send('POST', '/v1/create-order', { apiKey: buyer.apiKey, body: { sessionId: second } })).json.data;
    await orderAction(client, buyer.apiKey, cancelled.orderId, 'cancel', { reason: 'changed plans' });
    const rejected = await negotiate(client, buyer.apiKey, { offerId: listing.offerId, quantity: 10, unitPrice: 1 });
    await move(client, listing.seller.apiKey, rejected.json.data.sessionId, 'reject');
    const more = (await tradeAt(sellerPath, expected.length + 6)).slice(expected.length);
    expect(more.find((envelope) => envelope.type === 'order.cancelled')?.data).toMatchObject({ orderId: cancelled.orderId, cancellation: { by: 'buyer', reason: 'changed plans' } });
    expect(more.find((envelope) => envelope.type === 'negotiation.rejected')?.data).toMatchObject({ sessionId: rejected.json.data.sessionId, reason: 'rejected', by: 'seller' });
  });

  it('delivers feed events under the subscription’s names: an alias named alone as the alias, the canonical name to *, both names, or itself', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const paths = { processed: unique(), completed: unique(), both: unique(), all: unique(), failed: unique() };
    await subscribe(seller.apiKey, paths.processed, ['feed.processed']);
    await subscribe(seller.apiKey, paths.completed, ['feed.completed']);
    await subscribe(seller.apiKey, paths.both, ['feed.processed', 'feed.completed']);
    await subscribe(seller.apiKey, paths.all, ['*']);
    await subscribe(seller.apiKey, paths.failed, ['feed.failed', 'order.created']);
    const upload = await client.send('POST', '/v1/seller/feeds', { apiKey: seller.apiKey, body: { products: [{ sku: 'W-1', title: 'Webhook widget', price: { amount: 100, currency: 'USD' }, availableQuantity: 5 }] } });
    const feed = await waitForFeed(client, seller.apiKey, upload.json.data.feedId);
    const bad = await client.send('POST', '/v1/seller/feeds', { apiKey: seller.apiKey, body: 'not,a\nvalid', headers: { 'content-type': 'text/csv' } });
    await waitForFeed(client, seller.apiKey, bad.json.data.feedId);
    const typeAt = async (path: string, count: number) => (await receiver.waitFor(path, count)).map((request) => expectSigned(request).type);
    expect(await typeAt(paths.processed, 1)).toEqual(['feed.processed']);
    expect(await typeAt(paths.completed, 1)).toEqual(['feed.completed']);
    expect(await typeAt(paths.both, 1)).toEqual(['feed.completed']);
    expect((await typeAt(paths.all, 2)).sort()).toEqual(['feed.completed', 'feed.failed']);
    expect(await typeAt(paths.failed, 1)).toEqual(['feed.failed']);
    expect(JSON.parse(receiver.at(paths.processed)[0]!.body).data).toMatchObject({ feedId: feed.feedId, sellerId: seller.agentId });
    // Nothing more arrives (each event once per subscription).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.at(paths.both)).toHaveLength(1);
    expect(receiver.at(paths.all)).toHaveLength(2);
    // `*` and the events feed name the event alike, with the same id.
    const completed = JSON.parse(receiver.at(paths.all).find((request) => JSON.parse(request.body).type === 'feed.completed')!.body);
    const listed = await client.get(`/v1/events/${completed.id}`, { apiKey: seller.apiKey });
    expect(listed.json.data).toMatchObject({ id: completed.id, type: 'feed.completed' });
    const aliasDelivery = JSON.parse(receiver.at(paths.processed)[0]!.body);
    expect(aliasDelivery.id).toBe(completed.id);
  });

  it('sends an agent only its own events, and nothing to inactive subscriptions', async () => {
    const listing = await listProduct(client);
    const buyer = await registerUnlimited(client, 'buyer');
    const stranger = await registerUnlimited(client, 'buyer');
    const strangerPath = unique();
    const inactivePath = unique();
    await subscribe(stranger.apiKey, strangerPath, ['*']);
    const inactive = await subscribe(buyer.apiKey, inactivePath, ['*']);
    expect((await client.send('PATCH', `/v1/webhooks/${inactive}`, { apiKey: buyer.apiKey, body: { active: false } })).status).toBe(200);
    const activePath = unique();
    await subscribe(buyer.apiKey, activePath, ['negotiation.started']);
    await negotiate(client, buyer.apiKey, { offerId: listing.offerId, quantity: 10, unitPrice: 900 });
    await receiver.waitFor(activePath, 1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.at(strangerPath)).toEqual([]);
    expect(receiver.at(inactivePath)).toEqual([]);
    expect(await deliveries(client, buyer.apiKey, inactive)).toEqual([]);
  });

  it('retries on the schedule until a 2xx, and records every attempt', async () => {
    const agent = await registerUnlimited(client, 'buyer');
    const path = unique();
    receiver.on(path, { script: [500, 503], then: 200 });
    const subscriptionId = await subscribe(agent.apiKey, path, ['*']);
    const test = await client.send('POST', `/v1/webhooks/${subscriptionId}/test`, { apiKey: agent.apiKey });
    expect(test.status, test.text).toBe(202);
    // A test event is one attempt: it fails once and stays failed.
    const failedTest = await waitForDelivery(agent.apiKey, subscriptionId, test.json.data.deliveryId, (d) => d.status !== 'pending');
    expect(failedTest).toMatchObject({ status: 'failed', eventType: 'webhook.test', attempts: [{ statusCode: 500, error: 'non-2xx', manual: true }] });
    expect(expectSigned(receiver.at(path)[0]!).type).toBe('webhook.test');

    // A real event: 503 first (the script's second answer), then 200 on the first retry.
    const listing = await listProduct(client);
    await negotiate(client, agent.apiKey, { offerId: listing.offerId, quantity: 10, unitPrice: 900 });
    const received = await receiver.waitFor(path, 3);
    // 1 s ± 20 %, rounded up to the second by the scheduler.
    expect(received[2]!.at - received[1]!.at).toBeGreaterThanOrEqual(700);
    // The receiver may answer before the attempt is recorded: find the event's delivery, then wait for it.
    const delivery = (await deliveries(client, agent.apiKey, subscriptionId)).find((d) => d.eventType === 'negotiation.started');
    expect(delivery).toBeDefined();
    const done = await waitForDelivery(agent.apiKey, subscriptionId, delivery.deliveryId, (d) => d.status === 'delivered');
    expect(done.attempts.map((a: any) => [a.statusCode, a.error])).toEqual([[503, 'non-2xx'], [200, null]]);
    expect(done.attempts[0].responseBody).toBe(`answer 2 from ${path}`);
    expect(done.nextAttemptAt).toBeNull();
    expect(done.payload).toBe(received[2]!.body);
  });

  it('schedules a retry at the jittered step, or later when the receiver asks, up to the schedule’s next step', { timeout: 60_000 }, async () => {
    const agent = await registerUnlimited(client, 'buyer');
    const listing = await listProduct(client);
    const plain = unique();
    const asking = unique();
    // Each second attempt is held for 6 s (under the sender's 10 s deadline, then answered 200), so the
    // first attempt's decision stays readable on the delivery however slowly this machine polls.
    receiver.on(plain, { script: [503, { hangMs: 6_000 }], then: 200 });
    // Asks for 30 s; the schedule's next step (the second retry's 2 s) bounds it.
    receiver.on(asking, { script: [{ status: 429, headers: { 'retry-after': '30' } }, { hangMs: 6_000 }], then: 200 });
    const ids = { plain: await subscribe(agent.apiKey, plain, ['negotiation.started']), asking: await subscribe(agent.apiKey, asking, ['negotiation.started']) };
    await negotiate(client, agent.apiKey, { offerId: listing.offerId, quantity: 10, unitPrice: 900 });
    const afterFirstAttempt = (subscriptionId: string) =>
      vi.waitFor(
        async () => {
          const [delivery] = await deliveries(client, agent.apiKey, subscriptionId);
          if (delivery?.attempts.length !== 1) throw new Error(`the first attempt is not recorded yet (${delivery?.attempts.length ?? 'no'} attempts)`);
          return delivery;
        },
        { timeout: 30_000, interval: 50 },
      );
    const [first, second] = await Promise.all([afterFirstAttempt(ids.plain), afterFirstAttempt(ids.asking)]);
    // The retry's time is decided when the attempt is recorded: the step (1 s) ± 20 %, or the bound (2 s).
    const delay = (delivery: any) => Date.parse(delivery.nextAttemptAt) - Date.parse(delivery.updatedAt);
    expect(first).toMatchObject({ status: 'pending', attempts: [{ statusCode: 503 }] });
    expect(delay(first)).toBeGreaterThanOrEqual(800);
    expect(delay(first)).toBeLessThanOrEqual(1_200);
    expect(second).toMatchObject({ status: 'pending', attempts: [{ statusCode: 429, error: 'non-2xx' }] });
    expect(delay(second)).toBe(2_000);
    const [request1, request2] = await receiver.waitFor(asking, 2);
    expect(request2!.at - request1!.at).toBeGreaterThanOrEqual(1_900);
    await waitForDelivery(agent.apiKey, ids.asking, second.deliveryId, (d) => d.status === 'delivered');
  });

  it('fails after five attempts, then a manual retry delivers; a retry while pending is 409', { timeout: 60_000 }, async () => {
    const agent = await registerUnlimited(client, 'buyer');
    const path = unique();
    receiver.on(path, { status: 500 });
    const subscriptionId = await subscribe(agent.apiKey, path, ['negotiation.started']);
    const listing = await listProduct(client);
    await negotiate(client, agent.apiKey, { offerId: listing.offerId, quantity: 10, unitPrice: 900 });
    await receiver.waitFor(path, 1);
    const [pending] = await deliveries(client, agent.apiKey, subscriptionId);
    expect(pending.status).toBe('pending');
    expectError(await client.send('POST', `/v1/webhooks/${subscriptionId}/deliveries/${pending.deliveryId}/retry`, { apiKey: agent.apiKey }), 409, 'conflict');
    const failed = await waitForDelivery(agent.apiKey, subscriptionId, pending.deliveryId, (d) => d.status === 'failed', 40_000);
    expect(failed.attempts).toHaveLength(5);
    expect(failed.nextAttemptAt).toBeNull();
    const times = receiver.at(path).map((request) => request.at);
    const gaps = times.slice(1).map((time, i) => time - times[i]!);
    // 1, 2, 2, 3 s (WEBHOOK_RETRY_DELAYS in the test runtime) ± 20 %, whole seconds rounded up by the scheduler.
    [1, 2, 2, 3].forEach((seconds, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(seconds * 800 - 100);
      expect(gaps[i]).toBeLessThan(seconds * 1200 + 2_500);
    });
    expect((await deliveries(client, agent.apiKey, subscriptionId, '?status=failed')).map((d) => d.deliveryId)).toEqual([pending.deliveryId]);

    receiver.on(path, { status: 204 });
    const retried = await client.send('POST', `/v1/webhooks/${subscriptionId}/deliveries/${pending.deliveryId}/retry`, { apiKey: agent.apiKey });
    expect(retried.status, retried.text).toBe(202);
    const delivered = await waitForDelivery(agent.apiKey, subscriptionId, pending.deliveryId, (d) => d.status === 'delivered');
    expect(delivered.attempts).toHaveLength(6);
    expect(delivered.attempts[5]).toMatchObject({ statusCode: 204, error: null, manual: true });
    // The same body was signed and sent every time.
    expect(new Set(receiver.at(path).map((request) => request.body)).size).toBe(1);
  });

  it('classifies a timeout, a redirect and a refused connection', { timeout: 60_000 }, async () => {
    const agent = await registerUnlimited(client, 'buyer');
    const hang = unique();
    const redirect = unique();
    receiver.on(hang, { hangMs: 15_000 });
    receiver.on(redirect, { redirect: receiver.url('/elsewhere') });
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const ids = {
      hang: await subscribe(agent.apiKey, hang, ['*']),
      redirect: await subscribe(agent.apiKey, redirect, ['*']),
      refused: (await client.post('/v1/webhooks', { url: `http://127.0.0.1:${closed}/hook`, events: ['*'], secret: SECRET }, { apiKey: agent.apiKey })).json.data.id as string,
    };
    const tests = Object.fromEntries(
      await Promise.all(Object.entries(ids).map(async ([name, id]) => [name, (await client.send('POST', `/v1/webhooks/${id}/test`, { apiKey: agent.apiKey })).json.data.deliveryId as string])),
    );
    const outcome = async (name: keyof typeof ids) => (await waitForDelivery(agent.apiKey, ids[name], tests[name], (d) => d.status !== 'pending', 30_000)).attempts[0];
    const [hung, redirected, refused] = await Promise.all([outcome('hang'), outcome('redirect'), outcome('refused')]);
    expect(hung).toMatchObject({ statusCode: null, error: 'timeout' });
    expect(hung.durationMs).toBeGreaterThanOrEqual(9_900);
    expect(hung.durationMs).toBeLessThan(13_000);
    expect(redirected).toMatchObject({ statusCode: 302, error: 'redirect' });
    expect(receiver.at('/elsewhere')).toEqual([]); // not followed
    expect(refused).toMatchObject({ statusCode: null, error: 'connection-refused' });
  });

  it('shows a subscription’s deliveries to its owner only', async () => {
    const owner = await registerUnlimited(client, 'buyer');
    const other = await registerUnlimited(client, 'buyer');
    const path = unique();
    const subscriptionId = await subscribe(owner.apiKey, path, ['*']);
    const test = (await client.send('POST', `/v1/webhooks/${subscriptionId}/test`, { apiKey: owner.apiKey })).json.data;
    await waitForDelivery(owner.apiKey, subscriptionId, test.deliveryId, (d) => d.status === 'delivered');
    expectError(await client.get(`/v1/webhooks/${subscriptionId}/deliveries`, { apiKey: other.apiKey }), 404, 'not-found');
    expectError(await client.get(`/v1/webhooks/${subscriptionId}/deliveries/${test.deliveryId}`, { apiKey: other.apiKey }), 404, 'not-found');
    expectError(await client.send('POST', `/v1/webhooks/${subscriptionId}/deliveries/${test.deliveryId}/retry`, { apiKey: other.apiKey }), 404, 'not-found');
    expectError(await client.send('POST', `/v1/webhooks/${subscriptionId}/test`, { apiKey: other.apiKey }), 404, 'not-found');
    const otherSubscription = await subscribe(other.apiKey, unique(), ['*']);
    expectError(await client.get(`/v1/webhooks/${otherSubscription}/deliveries/${test.deliveryId}`, { apiKey: other.apiKey }), 404, 'not-found');
    expectError(await client.get(`/v1/webhooks/${subscriptionId}/deliveries?status=lost`, { apiKey: owner.apiKey }), 422, 'validation/invalid');
    const listed = await deliveries(client, owner.apiKey, subscriptionId);
    expect(listed).toEqual([expect.objectContaining({ deliveryId: test.deliveryId, subscriptionId, eventType: 'webhook.test', status: 'delivered' })]);
    expect(listed[0]).not.toHaveProperty('payload');
  });
});

describe('sending slots', () => {
  it('keeps a hanging receiver to four attempts at once, and other subscribers are served meanwhile', { timeout: 60_000 }, async () => {
    const agent = await registerUnlimited(client, 'buyer');
    const slowPath = unique();
    const fastPath = unique();
    receiver.on(slowPath, { delayMs: 3_000, status: 200 });
    const slow = await subscribe(agent.apiKey, slowPath, ['*']);
    const fast = await subscribe(agent.apiKey, fastPath, ['*']);
    for (let i = 0; i < 10; i++) expect((await client.send('POST', `/v1/webhooks/${slow}/test`, { apiKey: agent.apiKey })).status).toBe(202);
    await receiver.waitFor(slowPath, 4);
    const sentAt = Date.now();
    expect((await client.send('POST', `/v1/webhooks/${fast}/test`, { apiKey: agent.apiKey })).status).toBe(202);
    const [fastRequest] = await receiver.waitFor(fastPath, 1);
    expect(fastRequest!.at - sentAt).toBeLessThan(2_000);
    // All ten arrive in the end, never more than four at once.
    const slowRequests = await receiver.waitFor(slowPath, 10, 40_000);
    const inFlight = (at: number) => slowRequests.filter((request) => request.at <= at && at < request.at + 3_000).length;
    expect(Math.max(...slowRequests.map((request) => inFlight(request.at)))).toBeLessThanOrEqual(4);
  });
});
