// Spending limits and approvals over HTTP against the local runtime (contract §5.2): a restricted key's
// daily budget holds under racing orders (12 parallel orders against a budget for 5: exactly 5); every
// limit refuses with 403 spending-limit, its path and what is left, writing nothing; a dry run answers
// the order as it would be and writes nothing; an order over approvalAbove waits for the main key,
// invisible to the seller, which sees it (and gets order.created) only once it is approved; declined and
// cancelled orders give their stock and spend back.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { registerUnlimited } from '../support/catalog.ts';
import { recordedEventsOf } from '../support/events.ts';
import { newClient } from '../support/runtime.ts';
import { availableQuantity, listProduct, move, negotiate, orderAction, type Listing } from '../support/trade.ts';

const client = newClient();
const EUR = (amount: number) => ({ amount, currency: 'EUR' });

/** A buyer whose main key made a restricted key with `limits` for its program (search, negotiate, order). */
async function buyerWithKey(limits: Record<string, unknown>) {
  const buyer = await registerUnlimited(client, 'buyer');
  const created = await client.post('/v1/agents/me/keys', { name: `Program ${randomBytes(2).toString('hex')}`, scopes: ['catalog:read', 'negotiations:write', 'orders:write'], limits }, { apiKey: buyer.apiKey });
  expect(created.status, created.text).toBe(201);
  return { ...buyer, mainKey: buyer.apiKey, programKey: created.json.data.apiKey as string, keyId: created.json.data.keyId as string };
}

/** An accepted session of the program on the listing, for `quantity` units at the list price (the seller accepts). */
async function accepted(listing: Listing, programKey: string, quantity: number): Promise<string> {
  const started = await negotiate(client, programKey, { offerId: listing.offerId, quantity });
  expect(started.status, started.text).toBe(201);
  const sessionId = started.json.data.sessionId as string;
  if (started.json.data.status !== 'accepted') expect((await move(client, listing.seller.apiKey, sessionId, 'accept')).status).toBe(200);
  return sessionId;
}

const order = (apiKey: string, body: Record<string, unknown>, headers?: Record<string, string>) => client.send('POST', '/v1/create-order', { apiKey, body, ...(headers ? { headers } : {}) });

describe('spending limits', () => {
  it('never overspends a daily budget however orders race: 12 parallel orders against a budget for 5 give exactly 5', async () => {
    const listing = await listProduct(client, { price: EUR(10000), availableQuantity: 1000, minOrderQuantity: 1, shipsFrom: 'DE' });
    const buyer = await buyerWithKey({ spendPerDay: EUR(50000) });
    const sessions = await Promise.all(Array.from({ length: 12 }, () => accepted(listing, buyer.programKey, 1)));
    const responses = await Promise.all(sessions.map((sessionId) => order(buyer.programKey, { sessionId })));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 403, 403, 403, 403, 403, 403, 403]);
    for (const refused of responses.filter((response) => response.status === 403)) {
      expectError(refused, 403, 'spending-limit');
      expect(refused.json.details).toEqual([{ path: 'limits.spendPerDay', message: 'This order of 100.00 EUR is over the key’s daily budget: 0.00 EUR of 500.00 EUR left today' }]);
    }
    expect(await availableQuantity(client, buyer.mainKey, listing.productId)).toBe(995);
    const orders = await client.get('/v1/orders?limit=100', { apiKey: buyer.mainKey });
    expect(orders.json.data.items).toHaveLength(5);

    // A cancelled order gives its spend back: one more fits, and then no more.
    const cancelled = await orderAction(client, buyer.programKey, orders.json.data.items[0].orderId, 'cancel', { reason: 'Duplicate' });
    expect(cancelled.status, cancelled.text).toBe(200);
    const refused = responses.filter((response) => response.status === 403).map((_, i) => sessions.filter((_, j) => responses[j]!.status === 403)[i]!);
    expect((await order(buyer.programKey, { sessionId: refused[0] })).status).toBe(201);
    const over = await order(buyer.programKey, { sessionId: refused[1] });
    expectError(over, 403, 'spending-limit');
  });

  it('refuses each limit with its path and what is left, and writes nothing', async () => {
    const listing = await listProduct(client, { price: EUR(10000), availableQuantity: 100, minOrderQuantity: 1, shipsFrom: 'DE' });
    const usdListing = await listProduct(client, { price: { amount: 100, currency: 'USD' }, availableQuantity: 100, minOrderQuantity: 1, shipsFrom: 'DE' });
    const usListing = await listProduct(client, { price: EUR(100), availableQuantity: 100, minOrderQuantity: 1, shipsFrom: 'US' }, listing.seller);
    const buyer = await buyerWithKey({ maxOrderAmount: EUR(25000), spendPerMonth: EUR(100000), allowedSellerIds: [listing.seller.agentId], allowedShipsFrom: ['DE', 'NL'] });

    const big = await accepted(listing, buyer.programKey, 3);
    const tooBig = await order(buyer.programKey, { sessionId: big });
    expectError(tooBig, 403, 'spending-limit');
    expect(tooBig.json.details).toEqual([{ path: 'limits.maxOrderAmount', message: 'This order of 300.00 EUR is over the key’s limit of 250.00 EUR per order' }]);
    expect(tooBig.json.error).toContain('nothing was ordered');

    const usd = await order(buyer.programKey, { sessionId: await accepted(usdListing, buyer.programKey, 1) });
    expectError(usd, 403, 'spending-limit');
    expect(usd.json.details).toEqual([{ path: 'limits.currency', message: 'This key orders in EUR only; the order is in USD' }]);

    const otherSeller = await order(buyer.programKey, { sessionId: await accepted(await listProduct(client, { price: EUR(100), minOrderQuantity: 1 }), buyer.programKey, 1) });
    expect(otherSeller.json.details[0].path).toBe('limits.allowedSellerIds');

    const fromUs = await order(buyer.programKey, { sessionId: await accepted(usListing, buyer.programKey, 1) });
    expectError(fromUs, 403, 'spending-limit');
    expect(fromUs.json.details).toEqual([{ path: 'limits.allowedShipsFrom', message: 'This key orders only products shipping from DE, NL; this one ships from US' }]);

    // Nothing was written: the sessions are still accepted, the stock untouched, no order, no event.
    expect((await client.get(`/v1/negotiations/${big}`, { apiKey: buyer.mainKey })).json.data).toMatchObject({ status: 'accepted', orderId: null });
    expect(await availableQuantity(client, buyer.mainKey, usListing.productId)).toBe(100);
    expect((await client.get('/v1/orders', { apiKey: buyer.mainKey })).json.data.items).toEqual([]);
    expect((await recordedEventsOf(buyer.agentId)).filter((event) => event.type.startsWith('order.'))).toEqual([]);

    // The main key has no limits: it orders what the program could not.
    expect((await order(buyer.mainKey, { sessionId: big })).status).toBe(201);
  });

  it('answers a dry run with the order as it would be and what is left, or the error it would get; writes nothing, keeps no Idempotency-Key', async () => {
    const listing = await listProduct(client, { price: EUR(10000), availableQuantity: 100, minOrderQuantity: 1 });
    const buyer = await buyerWithKey({ spendPerDay: EUR(50000), approvalAbove: EUR(20000) });
    const first = await accepted(listing, buyer.programKey, 2);
    expect((await order(buyer.programKey, { sessionId: first })).status).toBe(201);
    const sessionId = await accepted(listing, buyer.programKey, 3);
    const preview = await order(buyer.programKey, { sessionId, dryRun: true, buyerReference: 'PO-7' }, { 'idempotency-key': 'order-7' });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json.data).toMatchObject({
      dryRun: true,
      sessionId,
      status: 'awaiting_approval',
      totalAmount: EUR(30000),
      buyerReference: 'PO-7',
      approval: { keyId: buyer.keyId, approvalAbove: EUR(20000), decision: null },
      limits: { spendPerDay: { limit: EUR(50000), remaining: EUR(30000) }, approvalAbove: { limit: EUR(20000), required: true } },
    });
    expect(preview.headers['idempotent-replayed']).toBeUndefined();
    expect((await client.get(`/v1/negotiations/${sessionId}`, { apiKey: buyer.mainKey })).json.data.status).toBe('accepted');
    expect(await availableQuantity(client, buyer.mainKey, listing.productId)).toBe(98);
    expect((await client.get('/v1/orders', { apiKey: buyer.mainKey })).json.data.items).toHaveLength(1);
    // The same Idempotency-Key places the order for real.
    const placed = await order(buyer.programKey, { sessionId, buyerReference: 'PO-7' }, { 'idempotency-key': 'order-7' });
    expect(placed.status, placed.text).toBe(201);
    expect(placed.headers['idempotent-replayed']).toBeUndefined();
    expect(placed.json.data).toMatchObject({ status: 'awaiting_approval', totalAmount: EUR(30000) });
    expect(placed.json.data.dryRun).toBeUndefined();
    // Now the budget is spent: the dry run answers the refusal the order would get.
    const over = await order(buyer.programKey, { sessionId: await accepted(listing, buyer.programKey, 1), dryRun: true });
    expectError(over, 403, 'spending-limit');
    expect(over.json.details).toEqual([{ path: 'limits.spendPerDay', message: 'This order of 100.00 EUR is over the key’s daily budget: 0.00 EUR of 500.00 EUR left today' }]);
  });
});

describe('approvals', () => {
  it('holds an order over approvalAbove for the main key, invisible to the seller; approved, the seller sees it and both get order.created', async () => {
    const listing = await listProduct(client, { price: EUR(10000), availableQuantity: 50, minOrderQuantity: 1 });
    const buyer = await buyerWithKey({ spendPerDay: EUR(50000), approvalAbove: EUR(20000) });
    const sessionId = await accepted(listing, buyer.programKey, 3);
    const placed = await order(buyer.programKey, { sessionId });
    expect(placed.status, placed.text).toBe(201);
    const { orderId, approval } = placed.json.data;
    expect(placed.json.data).toMatchObject({ status: 'awaiting_approval', totalAmount: EUR(30000) });
    expect(approval).toMatchObject({ keyId: buyer.keyId, keyName: expect.stringMatching(/^Program /), approvalAbove: EUR(20000), decision: null, decidedAt: null, decidedByKeyId: null, reason: null });
    expect(Date.parse(approval.expiresAt) - Date.parse(placed.json.data.createdAt)).toBe(72 * 3600 * 1000);
    expect(await availableQuantity(client, buyer.mainKey, listing.productId)).toBe(47);

    // The seller: no order, no list entry, no event.
    expectError(await client.get(`/v1/orders/${orderId}`, { apiKey: listing.seller.apiKey }), 404, 'not-found');
    expectError(await client.get(`/v1/orders/${orderId}/audit`, { apiKey: listing.seller.apiKey }), 404, 'not-found');
    expectError(await orderAction(client, listing.seller.apiKey, orderId, 'confirm'), 404, 'not-found');
    expect((await client.get('/v1/orders', { apiKey: listing.seller.apiKey })).json.data.items).toEqual([]);
    expect((await client.get('/v1/events', { apiKey: listing.seller.apiKey })).json.data.items.filter((event: any) => event.type.startsWith('order.'))).toEqual([]);
    // The buyer: order.approval_required, to it alone.
    const required = (await recordedEventsOf(buyer.agentId)).filter((event) => event.type === 'order.approval_required');
    expect(required).toHaveLength(1);
    expect(required[0]).toMatchObject({ agentIds: [buyer.agentId], data: { orderId, buyerId: buyer.agentId, keyId: buyer.keyId, totalAmount: EUR(30000), approvalExpiresAt: approval.expiresAt } });
    expect(required[0]!.data.sellerId).toBeUndefined();
    expect((await client.get('/v1/orders?status=awaiting_approval', { apiKey: buyer.mainKey })).json.data.items.map((item: any) => item.orderId)).toEqual([orderId]);

    // The program cannot approve its own order, nor cancel it; the seller is not a party yet.
    const self = await orderAction(client, buyer.programKey, orderId, 'approve');
    expectError(self, 403, 'auth/insufficient-scope');
    expect(self.json.details).toEqual([{ path: 'scope', message: 'needs main' }]);
    expectError(await orderAction(client, buyer.programKey, orderId, 'cancel'), 409, 'conflict');

    const approved = await orderAction(client, buyer.mainKey, orderId, 'approve');
    expect(approved.status, approved.text).toBe(200);
    expect(approved.json.data).toMatchObject({ status: 'pending', approval: { decision: 'approved', decidedByKeyId: expect.stringMatching(/^key_/) } });
    expectError(await orderAction(client, buyer.mainKey, orderId, 'approve'), 409, 'conflict');

    const seen = await client.get(`/v1/orders/${orderId}`, { apiKey: listing.seller.apiKey });
    expect(seen.status).toBe(200);
    expect(seen.json.data).toMatchObject({ orderId, status: 'pending' });
    expect(seen.json.data.approval).toBeUndefined();
    expect((await client.get('/v1/orders', { apiKey: listing.seller.apiKey })).json.data.items.map((item: any) => item.orderId)).toEqual([orderId]);
    const created = (await recordedEventsOf(listing.seller.agentId)).filter((event) => event.type === 'order.created');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ agentIds: [buyer.agentId, listing.seller.agentId], data: { orderId, buyerId: buyer.agentId, sellerId: listing.seller.agentId, totalAmount: EUR(30000) } });
    expect(Object.keys(created[0]!.data).sort()).toEqual(['buyerId', 'items', 'orderId', 'sellerId', 'totalAmount']);

    // The audit trail names the key of every step.
    const audit = await client.get(`/v1/orders/${orderId}/audit`, { apiKey: listing.seller.apiKey });
    expect(audit.json.data.items.map((entry: any) => [entry.action, entry.toStatus, entry.actor.keyId])).toEqual([
      ['create', 'awaiting_approval', buyer.keyId],
      ['approve', 'pending', approved.json.data.approval.decidedByKeyId],
    ]);
    const confirmed = await orderAction(client, listing.seller.apiKey, orderId, 'confirm');
    expect(confirmed.status).toBe(200);
  });

  it('declines with the main key: stock and spend released, order.declined to the buyer only, the seller never knew', async () => {
    const listing = await listProduct(client, { price: EUR(10000), availableQuantity: 50, minOrderQuantity: 1 });
    const buyer = await buyerWithKey({ spendPerDay: EUR(50000), approvalAbove: EUR(20000) });
    const placed = await order(buyer.programKey, { sessionId: await accepted(listing, buyer.programKey, 5) });
    expect(placed.json.data.status).toBe('awaiting_approval');
    // The whole budget is held by the waiting order.
    expectError(await order(buyer.programKey, { sessionId: await accepted(listing, buyer.programKey, 1), dryRun: true }), 403, 'spending-limit');
    expectError(await orderAction(client, listing.seller.apiKey, placed.json.data.orderId, 'decline'), 403, 'auth/forbidden');
    const declined = await orderAction(client, buyer.mainKey, placed.json.data.orderId, 'decline', { reason: 'Not this week' });
    expect(declined.status, declined.text).toBe(200);
    expect(declined.json.data).toMatchObject({ status: 'declined', approval: { decision: 'declined', reason: 'Not this week' } });
    expect(await availableQuantity(client, buyer.mainKey, listing.productId)).toBe(50);
    expect((await order(buyer.programKey, { sessionId: await accepted(listing, buyer.programKey, 2) })).status).toBe(201);
    const events = await recordedEventsOf(buyer.agentId);
    const declinedEvent = events.find((event) => event.type === 'order.declined');
    expect(declinedEvent).toMatchObject({ agentIds: [buyer.agentId], data: { orderId: placed.json.data.orderId, status: 'declined', reason: 'Not this week', keyId: buyer.keyId } });
    expect((await recordedEventsOf(listing.seller.agentId)).filter((event) => event.data.orderId === placed.json.data.orderId)).toEqual([]);
    expectError(await client.get(`/v1/orders/${placed.json.data.orderId}`, { apiKey: listing.seller.apiKey }), 404, 'not-found');
  });
});
