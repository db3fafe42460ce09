// The sandbox without a counterparty, over HTTP against the local runtime (a sandbox): a buyer finds,
// negotiates and orders from the house seller and sees its order confirmed, shipped and delivered with
// every webhook; the test helpers move an order of the house seller on, expire a negotiation and send
// sample events of every type; a seller's offer is negotiated and ordered by house buyers, which answer
// by their strategies, order once agreed and complete what was delivered. The house catalog is what
// the contract promises. Responses match the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getOffers, listSellerProducts } from '../../shared/data/products.ts';
import { HOUSE_BUYERS, HOUSE_SELLER } from '../../shared/domain/house-agents.ts';
import { sampleRoles } from '../../shared/domain/sample-events.ts';
import { EVENT_TYPES, RECORDED_EVENT_TYPES, recordedTypeOf } from '../../shared/schemas/event-data.ts';
import { expectError } from '../support/assertions.ts';
import { registerUnlimited } from '../support/catalog.ts';
import type { TestResponse } from '../support/http-client.ts';
import { OpenApiResponseValidator } from '../support/openapi-validator.ts';
import { Receiver } from '../support/receiver.ts';
import { newClient } from '../support/runtime.ts';
import { listProduct, move, negotiate, orderAction } from '../support/trade.ts';

const client = newClient();
const receiver = new Receiver();
let validator: OpenApiResponseValidator;

beforeAll(async () => {
  await receiver.start();
  validator = await OpenApiResponseValidator.create((await client.get('/v1/openapi.json')).json);
});
afterAll(() => receiver.stop());

function expectDocumented(method: string, path: string, response: TestResponse) {
  expect(validator.problems(method, path, response)).toEqual([]);
}

async function subscribe(apiKey: string, path: string): Promise<void> {
  const created = await client.send('POST', '/v1/webhooks', { apiKey, body: { url: receiver.url(path), events: ['*'], secret: 'sandbox-webhook-secret-1' } });
  expect(created.status, created.text).toBe(201);
}

/** The recorded names of what `path` received (a `*` subscription gets one name of an alias pair). */
const typesAt = (path: string) => receiver.at(path).map((request) => recordedTypeOf(JSON.parse(request.body).type));

/** Reads `path` until `done` holds (the house agents act a moment after the events that concern them). */
async function until(apiKey: string, path: string, done: (data: any) => boolean, timeoutMs = 25_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await client.get(path, { apiKey });
    expect(response.status, response.text).toBe(200);
    if (done(response.json.data)) return response.json.data;
    if (Date.now() > deadline) throw new Error(`${path} did not get there: ${response.text}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the house seller', () => {
  it('has a standing catalog of at least 200 active products over 6 categories, 3 currencies, 4 ship-from countries and every strategy', async () => {
    const products = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await listSellerProducts(HOUSE_SELLER.agentId, { limit: 100, startKey, status: 'active' });
      products.push(...page.items);
      startKey = page.lastKey;
    } while (startKey);
    expect(products.length).toBeGreaterThanOrEqual(200);
    expect(new Set(products.map((product) => product.category?.split('/')[0])).size).toBeGreaterThanOrEqual(6);
    expect(new Set(products.map((product) => product.price.currency)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(products.map((product) => product.shipsFrom)).size).toBeGreaterThanOrEqual(4);
    const offers = await getOffers(products.map((product) => product.standingOfferId));
    expect(new Set([...offers.values()].map((offer) => offer.negotiationStrategy))).toEqual(expect.objectContaining(new Set(['firm', 'linear', 'boulware', 'conceder'])));
    for (const strategy of ['firm', 'linear', 'boulware', 'conceder']) expect([...offers.values()].some((offer) => offer.negotiationStrategy === strategy), strategy).toBe(true);
  });

  it('sells to a buyer with nothing but its key: search, negotiate, order, and the order confirmed, shipped and delivered with every webhook', async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    await subscribe(buyer.apiKey, '/buyer-flow');
    const found = await client.send('POST', '/v1/search', { apiKey: buyer.apiKey, body: { query: 'gloves', filters: { sellerId: HOUSE_SELLER.agentId, currency: 'EUR' }, limit: 5 } });
    expect(found.status, found.text).toBe(200);
    const item = found.json.data.items.find((candidate: any) => candidate.offer.negotiable);
    expect(item, 'a negotiable house offer').toBeDefined();
    expect(item.product.sellerId).toBe(HOUSE_SELLER.agentId);

    const offer = item.offer;
    const quantity = Math.max(offer.minQuantity, item.product.minOrderQuantity);
    let session = (await negotiate(client, buyer.apiKey, { offerId: offer.offerId, quantity, unitPrice: Math.max(1, Math.floor(offer.unitPrice.amount * 0.9)) })).json.data;
    // The house seller answers by its offer's policy in the same request; the buyer meets its ask.
    expect(session.turn === 'buyer' || session.status === 'accepted', JSON.stringify(session)).toBe(true);
    if (session.status === 'open') {
      const accepted = await move(client, buyer.apiKey, session.sessionId, 'accept');
      expect(accepted.status, accepted.text).toBe(200);
      session = accepted.json.data;
    }
    expect(session.status).toBe('accepted');
    const placed = await client.send('POST', '/v1/create-order', { apiKey: buyer.apiKey, body: { sessionId: session.sessionId } });
    expect(placed.status, placed.text).toBe(201);
    const orderId = placed.json.data.orderId as string;

    const delivered = await until(buyer.apiKey, `/v1/orders/${orderId}`, (order) => order.status === 'delivered', 40_000);
    expect(delivered.shipping).toMatchObject({ carrier: 'Sandbox Freight', trackingNumber: expect.stringMatching(/^SBX/) });
    const audit = await client.get(`/v1/orders/${orderId}/audit`, { apiKey: buyer.apiKey });
    expect(audit.json.data.items.map((entry: any) => `${entry.action}:${entry.actor.agentId ?? entry.actor}`)).toEqual([
      `create:${buyer.agentId}`,
      `confirm:${HOUSE_SELLER.agentId}`,
      `ship:${HOUSE_SELLER.agentId}`,
      `deliver:${HOUSE_SELLER.agentId}`,
    ]);
    await receiver.waitFor('/buyer-flow', 6 + (session.round > 1 ? 1 : 0));
    expect(typesAt('/buyer-flow')).toEqual(expect.arrayContaining(['negotiation.started', 'negotiation.accepted', 'order.created', 'order.confirmed', 'order.shipped', 'order.delivered']));
  });

  it('advances its order for the buyer now, through every status with its event; refuses orders of other sellers and moves backwards', async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    const found = await client.send('POST', '/v1/search', { apiKey: buyer.apiKey, body: { query: 'paper', filters: { sellerId: HOUSE_SELLER.agentId }, limit: 1 } });
    const offer = found.json.data.items[0].offer;
    const started = await negotiate(client, buyer.apiKey, { offerId: offer.offerId, quantity: offer.minQuantity });
    expect(started.json.data.status).toBe('accepted'); // the list price is accepted at once
    const orderId = (await client.send('POST', '/v1/create-order', { apiKey: buyer.apiKey, body: { sessionId: started.json.data.sessionId } })).json.data.orderId as string;

    const advanced = await client.send('POST', `/v1/test-helpers/orders/${orderId}/advance`, { apiKey: buyer.apiKey, body: { to: 'delivered' } });
    expect(advanced.status, advanced.text).toBe(200);
    expectDocumented('POST', '/v1/test-helpers/orders/{id}/advance', advanced);
    expect(advanced.json.data.status).toBe('delivered');
    const feed = await until(buyer.apiKey, '/v1/events?type=order.confirmed,order.shipped,order.delivered', (page) => page.items.length >= 3);
    expect(feed.items.map((event: any) => event.type).reverse()).toEqual(['order.confirmed', 'order.shipped', 'order.delivered']);

    expectError(await client.send('POST', `/v1/test-helpers/orders/${orderId}/advance`, { apiKey: buyer.apiKey, body: { to: 'shipped' } }), 409, 'conflict');
    const other = await listProduct(client);
    const otherSession = await negotiate(client, buyer.apiKey, { offerId: other.offerId, quantity: 20 });
    await move(client, other.seller.apiKey, otherSession.json.data.sessionId, 'accept');
    const otherOrder = (await client.send('POST', '/v1/create-order', { apiKey: buyer.apiKey, body: { sessionId: otherSession.json.data.sessionId } })).json.data.orderId;
    expectError(await client.send('POST', `/v1/test-helpers/orders/${otherOrder as string}/advance`, { apiKey: buyer.apiKey, body: { to: 'confirmed' } }), 422, 'validation/invalid');
    expectError(await client.send('POST', `/v1/test-helpers/orders/${orderId}/advance`, { apiKey: other.seller.apiKey, body: { to: 'confirmed' } }), 403, 'auth/forbidden');
    const bad = await client.send('POST', `/v1/test-helpers/orders/${orderId}/advance`, { apiKey: buyer.apiKey, body: { to: 'completed' } });
    expectError(bad, 422, 'validation/invalid');
    expect(bad.json.details[0].path).toBe('to');
  });
});

describe('house buyers, for sellers', () => {
  it('negotiate on the seller’s own offer by their strategy, order once agreed, and complete once delivered', async () => {
    const listing = await listProduct(client, { price: { amount: 1000, currency: 'USD' }, negotiable: true });
    await subscribe(listing.seller.apiKey, '/seller-flow');
    const started = await client.send('POST', '/v1/test-helpers/negotiations', { apiKey: listing.seller.apiKey, body: { offerId: listing.offerId, quantity: 50, strategy: 'conceder' } });
    expect(started.status, started.text).toBe(201);
    expectDocumented('POST', '/v1/test-helpers/negotiations', started);
    expect(started.json.data).toMatchObject({ buyerId: HOUSE_BUYERS.conceder.agentId, sellerId: listing.seller.agentId, status: 'open', turn: 'seller', quantity: 50, unitPrice: 800 });
    const sessionId = started.json.data.sessionId as string;

    // The seller asks 950; the conceding house buyer answers with a higher bid, between its opening and the list price.
    expect((await move(client, listing.seller.apiKey, sessionId, 'counter', { unitPrice: 950 })).status).toBe(200);
    const answered = await until(listing.seller.apiKey, `/v1/negotiations/${sessionId}`, (session) => session.turn === 'seller' || session.status !== 'open');
    expect(answered.status).toBe('open');
    expect(answered.history.at(-1)).toMatchObject({ by: 'buyer', action: 'counter' });
    expect(answered.unitPrice).toBeGreaterThan(800);
    expect(answered.unitPrice).toBeLessThanOrEqual(1000);

    // Accepting the house buyer's bid: it orders at once.
    expect((await move(client, listing.seller.apiKey, sessionId, 'accept')).status).toBe(200);
    const ordered = await until(listing.seller.apiKey, `/v1/negotiations/${sessionId}`, (session) => session.status === 'ordered');
    const orderId = ordered.orderId as string;
    for (const action of ['confirm', 'ship', 'deliver']) {
      const moved = await orderAction(client, listing.seller.apiKey, orderId, action, action === 'ship' ? { carrier: 'DHL', trackingNumber: 'T-1' } : undefined);
      expect(moved.status, moved.text).toBe(200);
    }
    await until(listing.seller.apiKey, `/v1/orders/${orderId}`, (order) => order.status === 'completed');
    // Deliveries arrive in no set order: wait until the last of the flow's events is among them.
    await vi.waitFor(
      () => expect(typesAt('/seller-flow')).toEqual(expect.arrayContaining(['negotiation.started', 'negotiation.counter', 'negotiation.accepted', 'order.created', 'order.completed'])),
      { timeout: 20_000, interval: 100 },
    );
  });

  it('a firm house buyer never moves from its opening and walks away at its last answer', async () => {
    const listing = await listProduct(client, { price: { amount: 1000, currency: 'USD' } });
    const started = await client.send('POST', '/v1/test-helpers/negotiations', { apiKey: listing.seller.apiKey, body: { offerId: listing.offerId, quantity: 20, unitPrice: 700, strategy: 'firm' } });
    expect(started.json.data).toMatchObject({ buyerId: HOUSE_BUYERS.firm.agentId, unitPrice: 700 });
    const sessionId = started.json.data.sessionId as string;
    let session = started.json.data;
    while (session.status === 'open') {
      const countered = await move(client, listing.seller.apiKey, sessionId, 'counter', { unitPrice: 900 });
      expect(countered.status, countered.text).toBe(200);
      session = await until(listing.seller.apiKey, `/v1/negotiations/${sessionId}?`, (current) => current.turn === 'seller' || current.status !== 'open');
      if (session.status === 'open') expect(session.unitPrice).toBe(700);
    }
    expect(session.status).toBe('rejected');
    expect(session.history.at(-1)).toMatchObject({ by: 'buyer', action: 'reject' });
  });

  it('order from the seller’s own offer at its price: pending, for the seller to fulfil', async () => {
    const listing = await listProduct(client, { price: { amount: 1000, currency: 'USD' } });
    const placed = await client.send('POST', '/v1/test-helpers/orders', { apiKey: listing.seller.apiKey, body: { offerId: listing.offerId, quantity: 30 } });
    expect(placed.status, placed.text).toBe(201);
    expectDocumented('POST', '/v1/test-helpers/orders', placed);
    expect(placed.json.data).toMatchObject({ status: 'pending', sellerId: listing.seller.agentId, buyerId: HOUSE_BUYERS.linear.agentId, totalAmount: { amount: 30_000, currency: 'USD' } });
    const events = await until(listing.seller.apiKey, '/v1/events?type=order.created', (page) => page.items.length === 1);
    expect(events.items[0].data.orderId).toBe(placed.json.data.orderId);
  });

  it('only on the seller’s own offers, and only for sellers', async () => {
    const listing = await listProduct(client);
    const other = await registerUnlimited(client, 'seller');
    expectError(await client.send('POST', '/v1/test-helpers/orders', { apiKey: other.apiKey, body: { offerId: listing.offerId, quantity: 20 } }), 404, 'not-found');
    expectError(await client.send('POST', '/v1/test-helpers/negotiations', { apiKey: other.apiKey, body: { offerId: listing.offerId } }), 404, 'not-found');
    const buyer = await registerUnlimited(client, 'buyer');
    expectError(await client.send('POST', '/v1/test-helpers/negotiations', { apiKey: buyer.apiKey, body: { offerId: listing.offerId } }), 403, 'auth/forbidden');
    const tooFew = await client.send('POST', '/v1/test-helpers/orders', { apiKey: listing.seller.apiKey, body: { offerId: listing.offerId, quantity: 1 } });
    expectError(tooFew, 422, 'validation/invalid');
    expect(tooFew.json.details[0].path).toBe('quantity');
  });
});

describe('expiring a negotiation', () => {
  it('applies the timeout now: expired, with negotiation.rejected (reason expired) to both parties; only open sessions', async () => {
    const listing = await listProduct(client);
    const buyer = await registerUnlimited(client, 'buyer');
    const started = await negotiate(client, buyer.apiKey, { offerId: listing.offerId, quantity: 20, unitPrice: 700 });
    const sessionId = started.json.data.sessionId as string;
    const expired = await client.send('POST', `/v1/test-helpers/negotiations/${sessionId}/expire`, { apiKey: buyer.apiKey });
    expect(expired.status, expired.text).toBe(200);
    expectDocumented('POST', '/v1/test-helpers/negotiations/{sessionId}/expire', expired);
    expect(expired.json.data).toMatchObject({ status: 'expired', turn: null });
    for (const apiKey of [buyer.apiKey, listing.seller.apiKey]) {
      const feed = await until(apiKey, '/v1/events?type=negotiation.rejected', (page) => page.items.length === 1);
      expect(feed.items[0].data).toMatchObject({ sessionId, status: 'expired', reason: 'expired', by: null });
    }
    expectError(await move(client, listing.seller.apiKey, sessionId, 'accept'), 409, 'conflict');
    expect((await client.send('POST', `/v1/test-helpers/negotiations/${sessionId}/expire`, { apiKey: buyer.apiKey })).json.data.status).toBe('expired');
    const rejected = await negotiate(client, buyer.apiKey, { offerId: listing.offerId, quantity: 20, unitPrice: 700 });
    await move(client, buyer.apiKey, rejected.json.data.sessionId, 'reject');
    expectError(await client.send('POST', `/v1/test-helpers/negotiations/${rejected.json.data.sessionId as string}/expire`, { apiKey: buyer.apiKey }), 409, 'conflict');
    const stranger = await registerUnlimited(client, 'buyer');
    expectError(await client.send('POST', `/v1/test-helpers/negotiations/${sessionId}/expire`, { apiKey: stranger.apiKey }), 404, 'not-found');
  });
});

describe('expiring an approval', () => {
  it('declines an order awaiting approval now (approval_expired), releasing its stock; for the main key, on awaiting orders only', async () => {
    const listing = await listProduct(client, { price: { amount: 10_000, currency: 'EUR' }, availableQuantity: 100, minOrderQuantity: 1 });
    const buyer = await registerUnlimited(client, 'buyer');
    const key = await client.post('/v1/agents/me/keys', { name: 'Reorder bot', scopes: ['catalog:read', 'negotiations:write', 'orders:write'], limits: { approvalAbove: { amount: 5_000, currency: 'EUR' } } }, { apiKey: buyer.apiKey });
    expect(key.status, key.text).toBe(201);
    const program = key.json.data.apiKey as string;
    const started = await negotiate(client, program, { offerId: listing.offerId, quantity: 2 });
    await move(client, listing.seller.apiKey, started.json.data.sessionId, 'accept');
    const placed = await client.send('POST', '/v1/create-order', { apiKey: program, body: { sessionId: started.json.data.sessionId } });
    expect(placed.json.data.status, placed.text).toBe('awaiting_approval');
    const orderId = placed.json.data.orderId as string;

    expectError(await client.send('POST', `/v1/test-helpers/orders/${orderId}/expire-approval`, { apiKey: program }), 403, 'auth/insufficient-scope');
    const expired = await client.send('POST', `/v1/test-helpers/orders/${orderId}/expire-approval`, { apiKey: buyer.apiKey });
    expect(expired.status, expired.text).toBe(200);
    expectDocumented('POST', '/v1/test-helpers/orders/{id}/expire-approval', expired);
    expect(expired.json.data).toMatchObject({ status: 'declined', approval: { decision: 'declined', reason: 'approval_expired', decidedByKeyId: null } });
    const audit = await client.get(`/v1/orders/${orderId}/audit`, { apiKey: buyer.apiKey });
    expect(audit.json.data.items.at(-1)).toMatchObject({ actor: 'system', action: 'decline', toStatus: 'declined' });
    const declined = await until(buyer.apiKey, '/v1/events?type=order.declined', (page) => page.items.length === 1);
    expect(declined.items[0].data).toMatchObject({ orderId, reason: 'approval_expired' });
    expect((await client.get(`/v1/products/${listing.productId}`, { apiKey: buyer.apiKey })).json.data.availableQuantity).toBe(100);
    expectError(await client.send('POST', `/v1/test-helpers/orders/${orderId}/expire-approval`, { apiKey: buyer.apiKey }), 409, 'conflict');
    expectError(await client.send('POST', `/v1/test-helpers/orders/${orderId}/expire-approval`, { apiKey: listing.seller.apiKey }), 403, 'auth/forbidden');
  });
});

describe('sample events', () => {
  it('of every type a role receives: valid for the type, marked sample, to the caller’s webhooks and events feed alone', { timeout: 120_000 }, async () => {
    for (const role of ['buyer', 'seller'] as const) {
      const agent = await registerUnlimited(client, role);
      const path = `/samples-${role}`;
      await subscribe(agent.apiKey, path);
      const types = EVENT_TYPES.filter((type) => sampleRoles(type).includes(role));
      expect(types.length).toBeGreaterThanOrEqual(role === 'buyer' ? 12 : 13);
      for (const type of types) {
        const sent = await client.send('POST', '/v1/test-helpers/events', { apiKey: agent.apiKey, body: { type } });
        expect(sent.status, `${type}: ${sent.text}`).toBe(201);
        expectDocumented('POST', '/v1/test-helpers/events', sent);
        expect(sent.json.data.data.sample).toBe(true);
        expect(RECORDED_EVENT_TYPES).toContain(sent.json.data.type);
        // An event about the caller's own setup (webhook.disabled) names it alone; the others name it as a party.
        const own = sent.json.data.type === 'webhook.disabled' ? 'agentId' : role === 'buyer' ? 'buyerId' : 'sellerId';
        expect(sent.json.data.data[own]).toBe(agent.agentId);
      }
      const deliveries = await receiver.waitFor(path, types.length);
      // Delivered under the name subscribed to (`*`: the canonical name), each signed like any delivery.
      expect(new Set(deliveries.map((request) => recordedTypeOf(JSON.parse(request.body).type)))).toEqual(new Set(RECORDED_EVENT_TYPES.filter((type) => sampleRoles(type).includes(role))));
      for (const request of deliveries) expect(request.headers['webhook-signature']).toMatch(/^v1,/);
      const feed = await client.get('/v1/events?limit=50', { apiKey: agent.apiKey });
      expect(feed.json.data.items).toHaveLength(types.length);
    }
  });

  it('never reach the house agent they name, and a buyer gets no feed events', async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    const sent = await client.send('POST', '/v1/test-helpers/events', { apiKey: buyer.apiKey, body: { type: 'order.created' } });
    expect(sent.json.data.data.sellerId).toBe(HOUSE_SELLER.agentId);
    const orderId = sent.json.data.data.orderId as string;
    expectError(await client.get(`/v1/orders/${orderId}`, { apiKey: buyer.apiKey }), 404, 'not-found');
    const feed = await client.send('POST', '/v1/test-helpers/events', { apiKey: buyer.apiKey, body: { type: 'feed.completed' } });
    expectError(feed, 422, 'validation/invalid');
    expect(feed.json.details[0].path).toBe('type');
    expectError(await client.send('POST', '/v1/test-helpers/events', { apiKey: buyer.apiKey, body: { type: 'order.teleported' } }), 422, 'validation/invalid');
  });
});
