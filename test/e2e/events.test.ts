// The events feed over HTTP against the local runtime: each party sees exactly its own events in the
// webhook envelope (a third agent none), newest first by default; `after` follows oldest first across
// pages without repeating or skipping; type filters with aliases; waitSeconds holds a request until an
// event arrives; validation errors; GET by id and its 404s; responses match the OpenAPI document.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { registerUnlimited } from '../support/catalog.ts';
import { awaitFreshMinute, registerAgent, type TestClient } from '../support/http-client.ts';
import { OpenApiResponseValidator } from '../support/openapi-validator.ts';
import { newClient } from '../support/runtime.ts';
import { listProduct, move, negotiate, orderAction, type Listing } from '../support/trade.ts';

const client = newClient();
let validator: OpenApiResponseValidator;

beforeAll(async () => {
  validator = await OpenApiResponseValidator.create((await client.get('/v1/openapi.json')).json);
});

function expectDocumented(method: string, path: string, response: Awaited<ReturnType<TestClient['get']>>) {
  expect(validator.problems(method, path, response)).toEqual([]);
}

async function events(apiKey: string, query = ''): Promise<{ items: any[]; nextCursor: string | null }> {
  const response = await client.get(`/v1/events${query}`, { apiKey });
  expect(response.status, response.text).toBe(200);
  expectDocumented('GET', '/v1/events', response);
  return response.json.data;
}

/** Follows from `after` until `count` events arrived (the last half second is held back until it settles), through nextCursor while there is one. */
async function follow(apiKey: string, after: string, count: number, query = '', limit = 2): Promise<any[]> {
  const seen: any[] = [];
  let cursor: string | null = null;
  let position = after;
  // The last event taken; when a page ends the cursor's run (even an empty page, its events still
  // held back), following goes on after it, never from the run's start again.
  let last = after;
  const deadline = Date.now() + 15_000;
  while (seen.length < count) {
    if (Date.now() > deadline) throw new Error(`followed ${seen.length} of ${count} events in 15 s`);
    const page = await events(apiKey, `?after=${position}&limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.items.length).toBeLessThanOrEqual(limit);
    seen.push(...page.items);
    if (page.items.length > 0) last = page.items.at(-1).id;
    cursor = page.nextCursor;
    if (!cursor) position = last;
    if (!cursor && page.items.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return seen;
}

const ids = (items: readonly any[]) => items.map((item) => item.id as string);
const byIdAscending = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface Trade {
  listing: Listing;
  buyer: { agentId: string; apiKey: string };
  sessionId: string;
  orderId: string;
}

/** A seller's listing, a negotiation with a counter, an accepted session and its order. */
async function trade(): Promise<Trade> {
  const listing = await listProduct(client);
  const buyer = await registerUnlimited(client, 'buyer');
  const started = await negotiate(client, buyer.apiKey, { offerId: listing.offerId, quantity: 20, unitPrice: 900 });
  expect(started.status, started.text).toBe(201);
  const sessionId = started.json.data.sessionId as string;
  expect((await move(client, listing.seller.apiKey, sessionId, 'counter', { unitPrice: 950 })).status).toBe(200);
  expect((await move(client, buyer.apiKey, sessionId, 'accept')).status).toBe(200);
  const order = await client.post('/v1/create-order', { sessionId }, { apiKey: buyer.apiKey });
  expect(order.status, order.text).toBe(201);
  return { listing, buyer, sessionId, orderId: order.json.data.orderId as string };
}

describe('GET /v1/events', () => {
  let deal: Trade;
  beforeAll(async () => {
    deal = await trade();
  });

  it('shows each party its own events, newest first, in the webhook envelope; a third agent sees none', async () => {
    const buyerView = await events(deal.buyer.apiKey);
    expect(buyerView.items.map((item) => item.type)).toEqual(['order.created', 'negotiation.accepted', 'negotiation.counter', 'negotiation.started']);
    expect(ids(buyerView.items)).toEqual([...ids(buyerView.items)].sort(byIdAscending).reverse());
    for (const item of buyerView.items) {
      expect(Object.keys(item)).toEqual(['id', 'type', 'timestamp', 'data']);
      expect(item.id).toMatch(/^evt_[0-9A-Z]{26}$/);
      expect(new Date(item.timestamp).toISOString()).toBe(item.timestamp);
      expect(JSON.stringify(item)).not.toMatch(/floorUnitPrice|autoAcceptUnitPrice/);
    }
    expect(buyerView.items[0].data).toEqual({
      orderId: deal.orderId,
      buyerId: deal.buyer.agentId,
      sellerId: deal.listing.seller.agentId,
      totalAmount: { amount: 19_000, currency: 'USD' },
      items: [{ productId: deal.listing.productId, sku: deal.listing.sku, title: 'Nitrile gloves, box of 100', quantity: 20, unitPrice: 950 }],
    });
    expect(buyerView.items[2].data).toMatchObject({ sessionId: deal.sessionId, by: 'seller', unitPrice: 950, round: 2, automatic: false });

    // The seller sees the same trade events, with the same ids, and its feed's event besides.
    const sellerView = await events(deal.listing.seller.apiKey);
    expect(sellerView.items.map((item) => item.type)).toEqual(['order.created', 'negotiation.accepted', 'negotiation.counter', 'negotiation.started', 'feed.completed']);
    expect(ids(sellerView.items.slice(0, 4))).toEqual(ids(buyerView.items));
    expect(sellerView.items[4].data).toMatchObject({ sellerId: deal.listing.seller.agentId, status: 'completed', rowsSucceeded: 1 });

    const third = await registerUnlimited(client, 'buyer');
    expect(await events(third.apiKey)).toEqual({ items: [], nextCursor: null });
    const otherSeller = await registerUnlimited(client, 'seller');
    expect((await events(otherSeller.apiKey)).items).toEqual([]);
  });

  it('pages newest first with limit and cursor, without repeating or skipping', async () => {
    const all = (await events(deal.listing.seller.apiKey)).items;
    const paged: any[] = [];
    let cursor: string | null = null;
    do {
      const page = await events(deal.listing.seller.apiKey, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(2);
      paged.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(ids(paged)).toEqual(ids(all));
  });

  it('follows with after, oldest first, across pages and new events, without repeating or skipping', async () => {
    const { items } = await events(deal.buyer.apiKey);
    const opening = items.at(-1);
    expect(opening.type).toBe('negotiation.started');
    await orderAction(client, deal.listing.seller.apiKey, deal.orderId, 'confirm');
    await orderAction(client, deal.listing.seller.apiKey, deal.orderId, 'ship', { carrier: 'DHL', trackingNumber: '42' });
    const followed = await follow(deal.buyer.apiKey, opening.id, 5);
    expect(followed.map((item) => item.type)).toEqual(['negotiation.counter', 'negotiation.accepted', 'order.created', 'order.confirmed', 'order.shipped']);
    expect(ids(followed)).toEqual([...ids(followed)].sort(byIdAscending));
    expect(followed.at(-1).data).toMatchObject({ orderId: deal.orderId, status: 'shipped', shipping: { carrier: 'DHL', trackingNumber: '42' } });
    // Caught up: nothing after the last one; more arrives and is followed from there.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await events(deal.buyer.apiKey, `?after=${followed.at(-1).id}`)).toEqual({ items: [], nextCursor: null });
    await orderAction(client, deal.listing.seller.apiKey, deal.orderId, 'deliver');
    const next = await follow(deal.buyer.apiKey, followed.at(-1).id, 1);
    expect(next.map((item) => item.type)).toEqual(['order.delivered']);
    // An id that is well-formed but never issued is a position in time: everything after it.
    const beforeEverything = 'evt_00000000000000000000000000';
    expect(ids((await events(deal.buyer.apiKey, `?after=${beforeEverything}&limit=100`)).items)).toEqual([opening.id, ...ids(followed), ...ids(next)]);
    expect((await events(deal.buyer.apiKey, '?after=evt_7ZZZZZZZZZZZZZZZZZZZZZZZZZ')).items).toEqual([]);
  });

  it('filters by type, aliases selecting the recorded name', async () => {
    const counters = await events(deal.buyer.apiKey, '?type=negotiation.offer');
    expect(counters.items.map((item) => item.type)).toEqual(['negotiation.counter']);
    expect((await events(deal.buyer.apiKey, '?type=negotiation.counter')).items).toEqual(counters.items);
    const trade = await events(deal.buyer.apiKey, '?type=order.created&type=negotiation.started');
    expect(trade.items.map((item) => item.type)).toEqual(['order.created', 'negotiation.started']);
    expect((await events(deal.buyer.apiKey, '?type=order.created,negotiation.started')).items).toEqual(trade.items);
    const feeds = await events(deal.listing.seller.apiKey, '?type=feed.processed');
    expect(feeds.items.map((item) => item.type)).toEqual(['feed.completed']);
    expect((await events(deal.buyer.apiKey, '?type=feed.completed')).items).toEqual([]);
    // A filter pages too: one order.created, then the opening, then the end.
    const first = await events(deal.buyer.apiKey, '?type=order.created&type=negotiation.started&limit=1');
    expect(first.items.map((item) => item.type)).toEqual(['order.created']);
    const second = await events(deal.buyer.apiKey, `?type=order.created&type=negotiation.started&limit=1&cursor=${first.nextCursor}`);
    expect(second.items.map((item) => item.type)).toEqual(['negotiation.started']);
  });

  it('holds a follow until an event arrives, and answers an empty page when the wait ends', async () => {
    const latest = (await events(deal.buyer.apiKey, '?limit=1')).items[0];
    const started = Date.now();
    const held = client.get(`/v1/events?after=${latest.id}&waitSeconds=20`, { apiKey: deal.buyer.apiKey });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const cancelled = await negotiate(client, deal.buyer.apiKey, { offerId: deal.listing.offerId, quantity: 10, unitPrice: 1 });
    expect(cancelled.status, cancelled.text).toBe(201);
    const response = await held;
    expect(response.status, response.text).toBe(200);
    expect(response.json.data.items.map((item: any) => item.type)).toEqual(['negotiation.started']);
    expect(response.json.data.items[0].data.sessionId).toBe(cancelled.json.data.sessionId);
    // It answered when the event came, not when the wait ran out.
    expect(Date.now() - started).toBeLessThan(15_000);

    const quiet = await registerUnlimited(client, 'buyer');
    const waitStarted = Date.now();
    expect(await events(quiet.apiKey, '?after=evt_00000000000000000000000000&waitSeconds=1')).toEqual({ items: [], nextCursor: null });
    expect(Date.now() - waitStarted).toBeGreaterThanOrEqual(1_000);
    // The first newest-first page waits as well, for an agent's first event.
    const firstWait = client.get('/v1/events?waitSeconds=20', { apiKey: deal.listing.seller.apiKey });
    expect((await firstWait).json.data.items.length).toBeGreaterThan(0);
  });

  it('counts a held request once against the rate limit', async () => {
    await awaitFreshMinute(10);
    const agent = await registerAgent(client, { role: 'buyer' });
    const before = await client.get('/v1/events', { apiKey: agent.apiKey });
    const held = await client.get('/v1/events?waitSeconds=2', { apiKey: agent.apiKey });
    expect(held.status, held.text).toBe(200);
    expect(Number(held.headers['x-ratelimit-remaining'])).toBe(Number(before.headers['x-ratelimit-remaining']) - 1);
  });

  it('refuses bad parameters with the field to fix', async () => {
    const apiKey = deal.buyer.apiKey;
    const problem = async (query: string, path: string, message: RegExp) => {
      const response = await client.get(`/v1/events${query}`, { apiKey });
      expectError(response, 422, 'validation/invalid');
      expectDocumented('GET', '/v1/events', response);
      expect(response.json.details).toContainEqual({ path, message: expect.stringMatching(message) });
    };
    await problem('?limit=0', 'limit', /1 to 100/);
    await problem('?limit=101', 'limit', /1 to 100/);
    await problem('?waitSeconds=21', 'waitSeconds', /0 to 20/);
    await problem('?waitSeconds=1.5', 'waitSeconds', /0 to 20/);
    await problem('?type=order.nope', 'type', /Unknown event type "order\.nope".*order\.created/);
    await problem('?type=order.created&type=*', 'type', /Unknown event type "\*"/);
    await problem('?after=ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR', 'after', /event id/);
    await problem('?typ=order.created', 'typ', /Unknown field/);
    // A cursor belongs to its list: not another filter, not another position.
    const page = await events(apiKey, '?limit=1');
    expect(page.nextCursor).not.toBeNull();
    await problem(`?limit=1&type=order.created&cursor=${page.nextCursor}`, 'cursor', /nextCursor/);
    await problem(`?limit=1&after=evt_00000000000000000000000000&cursor=${page.nextCursor}`, 'cursor', /nextCursor/);
  });
});

describe('GET /v1/events/{id}', () => {
  it('shows a party the event as the feed does, and 404 to anyone else', async () => {
    const deal = await trade();
    const [latest] = (await events(deal.buyer.apiKey, '?limit=1')).items;
    for (const apiKey of [deal.buyer.apiKey, deal.listing.seller.apiKey]) {
      const response = await client.get(`/v1/events/${latest.id}`, { apiKey });
      expect(response.status, response.text).toBe(200);
      expectDocumented('GET', '/v1/events/{id}', response);
      expect(response.json.data).toEqual(latest);
    }
    const third = await registerUnlimited(client, 'buyer');
    const hidden = await client.get(`/v1/events/${latest.id}`, { apiKey: third.apiKey });
    expectError(hidden, 404, 'not-found');
    expectDocumented('GET', '/v1/events/{id}', hidden);
    expectError(await client.get('/v1/events/evt_00000000000000000000000000', { apiKey: third.apiKey }), 404, 'not-found');
    expectError(await client.get('/v1/events/ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR', { apiKey: third.apiKey }), 404, 'not-found');
    expectError(await client.get(`/v1/events/${latest.id}`), 401, 'auth/invalid-key');
    // Whose session it was: the seller's own feed event is the seller's alone.
    const [feedEvent] = (await events(deal.listing.seller.apiKey, '?type=feed.completed')).items;
    expectError(await client.get(`/v1/events/${feedEvent.id}`, { apiKey: deal.buyer.apiKey }), 404, 'not-found');
  });
});

describe('rejections in the feed', () => {
  it('carry their reason and who rejected', async () => {
    const listing = await listProduct(client);
    const buyer = await registerUnlimited(client, 'buyer');
    const opened = await negotiate(client, buyer.apiKey, { offerId: listing.offerId, quantity: 10, unitPrice: 1 });
    expect(opened.status, opened.text).toBe(201);
    expect((await move(client, listing.seller.apiKey, opened.json.data.sessionId, 'reject')).status).toBe(200);
    const [rejected] = (await events(buyer.apiKey, '?type=negotiation.rejected')).items;
    expect(rejected.data).toMatchObject({ sessionId: opened.json.data.sessionId, status: 'rejected', reason: 'rejected', by: 'seller', turn: null, expiresAt: null });
  });
});
