// Requests for quotes against the local runtime (contract §5.7), as buyers' and sellers' agents use
// them: one RFQ reaches the sellers whose active catalog matches it and no others; sealed quotes; the
// award becomes an accepted session that orders like any other; the losers hear it closed. Bad input
// gets the contract's errors and writes nothing; parallel quotes and awards stay consistent; closing at
// closesAt happens once (the runtime lets an RFQ close 2 s after it is made: global-setup.ts).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { registerUnlimited } from '../support/catalog.ts';
import { newClient } from '../support/runtime.ts';
import { listProduct, type Listing } from '../support/trade.ts';

const client = newClient();
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();

type Agent = { agentId: string; apiKey: string };

/** A word no other test's catalog holds: each test's RFQs reach only its own sellers. */
const uniqueWord = () => `zq${randomBytes(4).toString('hex').replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)] as string)}`;

/** Events of `type` in the agent's feed (oldest first). */
async function eventsOf(agent: Agent, type: string): Promise<Record<string, any>[]> {
  const response = await client.get(`/v1/events?type=${type}&limit=100`, { apiKey: agent.apiKey });
  expect(response.status, response.text).toBe(200);
  return (response.json.data.items as Record<string, any>[]).reverse();
}

/** Waits until `check` holds (the dispatch worker runs off the request path). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((wait) => setTimeout(wait, 250));
  }
}

async function createRfq(buyer: Agent, body: Record<string, unknown>) {
  const response = await client.post('/v1/rfqs', { quantity: 50, currency: 'EUR', closesAt: inAnHour(), ...body }, { apiKey: buyer.apiKey });
  expect(response.status, response.text).toBe(201);
  return response.json.data as Record<string, any>;
}

/** Waits until the RFQ's sellers are found (sellerCount set), as its buyer sees it. */
function dispatched(buyer: Agent, rfqId: string) {
  return eventually(
    async () => (await client.get(`/v1/rfqs/${rfqId}`, { apiKey: buyer.apiKey })).json.data,
    (rfq) => rfq.sellerCount !== null,
  );
}

function quote(seller: Agent, rfqId: string, body: Record<string, unknown>) {
  return client.post(`/v1/rfqs/${rfqId}/quotes`, { quantity: 50, leadTimeDays: 3, validUntil: tomorrow(), ...body }, { apiKey: seller.apiKey });
}

async function gloveSellers(count: number, word: string, row: Record<string, unknown> = {}): Promise<Listing[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      listProduct(client, { title: `Nitrile gloves ${word}, box of 100`, category: 'safety/gloves', price: { amount: 1200, currency: 'EUR' }, shipsFrom: 'DE', availableQuantity: 500, minOrderQuantity: 1, ...row }),
    ),
  );
}

describe('a request for quotes, from the buyer’s need to an order', () => {
  it('reaches the matching sellers only; quotes are sealed; the award orders like any accepted session; the losers hear it closed', { timeout: 120_000 }, async () => {
    const word = uniqueWord();
    const [first, second, third] = await gloveSellers(3, word);
    const [otherCurrency] = await gloveSellers(1, word, { price: { amount: 1200, currency: 'USD' } });
    const [otherCategory] = await gloveSellers(1, word, { title: `Safety goggles ${word}`, category: 'safety/eyewear' });
    const [otherOrigin] = await gloveSellers(1, word, { shipsFrom: 'CN' });
    const buyer = await registerUnlimited(client, 'buyer');
    const stranger = await registerUnlimited(client, 'buyer');
    const sellers = [first, second, third].map((listing) => listing!.seller);

    const rfq = await createRfq(buyer, { title: `5,000 nitrile gloves ${word}, size M`, category: 'safety', maxUnitPrice: 1200, shipsFrom: ['DE', 'FR'], deliverBy: '2027-01-15', shipTo: 'FR' });
    expect(rfq).toMatchObject({ status: 'open', buyerId: buyer.agentId, sellerCount: null, quotes: [], keywords: [] });
    expect(rfq.rfqId).toMatch(/^rfq_/);
    expect((await dispatched(buyer, rfq.rfqId)).sellerCount).toBe(3);

    for (const seller of sellers) {
      const created = await eventually(() => eventsOf(seller, 'rfq.created'), (events) => events.length > 0);
      expect(created.map((event) => event.data)).toEqual([expect.objectContaining({ rfqId: rfq.rfqId, sellerId: seller.agentId, invited: false, currency: 'EUR', maxUnitPrice: 1200 })]);
      expect(created[0]!.data).not.toHaveProperty('buyerId');
      const listed = await client.get('/v1/rfqs', { apiKey: seller.apiKey });
      expect(listed.json.data.items.map((item: { rfqId: string }) => item.rfqId)).toEqual([rfq.rfqId]);
      expect(listed.json.data.items[0]).not.toHaveProperty('invitedSellerIds');
    }
    for (const outsider of [otherCurrency!, otherCategory!, otherOrigin!]) {
      expect(await eventsOf(outsider.seller, 'rfq.created')).toEqual([]);
      expectError(await client.get(`/v1/rfqs/${rfq.rfqId}`, { apiKey: outsider.seller.apiKey }), 404, 'not-found');
      expectError(await quote(outsider.seller, rfq.rfqId, { offerId: outsider.offerId, unitPrice: 1000 }), 404, 'not-found');
    }
    expectError(await client.get(`/v1/rfqs/${rfq.rfqId}`, { apiKey: stranger.apiKey }), 404, 'not-found');
    expect((await client.get('/v1/rfqs', { apiKey: stranger.apiKey })).json.data.items).toEqual([]);

    // Bad quotes: the contract's 422 on the field, and nothing written.
    const overCap = await quote(first!.seller, rfq.rfqId, { offerId: first!.offerId, unitPrice: 1201 });
    expectError(overCap, 422, 'validation/invalid');
    expect(overCap.json.details).toEqual([expect.objectContaining({ path: 'unitPrice' })]);
    const overStock = await quote(first!.seller, rfq.rfqId, { offerId: first!.offerId, unitPrice: 1100, quantity: 501 });
    expectError(overStock, 422, 'validation/invalid');
    expect(overStock.json.details).toEqual([expect.objectContaining({ path: 'quantity' })]);
    const dollars = await listProduct(client, { title: `Nitrile gloves ${word} US`, price: { amount: 1000, currency: 'USD' } }, first!.seller);
    const wrongCurrency = await quote(first!.seller, rfq.rfqId, { offerId: dollars.offerId, unitPrice: 1000 });
    expectError(wrongCurrency, 422, 'validation/invalid');
    expect(wrongCurrency.json.details).toEqual([expect.objectContaining({ path: 'offerId', message: expect.stringContaining('EUR') })]);
    expectError(await quote(first!.seller, rfq.rfqId, { offerId: second!.offerId, unitPrice: 1000 }), 422, 'validation/invalid');
    expectError(await quote(first!.seller, rfq.rfqId, { unitPrice: 1000, currency: 'EUR' }), 422, 'validation/invalid');
    expect((await client.get(`/v1/rfqs/${rfq.rfqId}`, { apiKey: buyer.apiKey })).json.data.quotes).toEqual([]);

    // Three quotes (the third names no offer: its matching offer is taken); the first is replaced.
    const q1 = await quote(first!.seller, rfq.rfqId, { offerId: first!.offerId, unitPrice: 1150, message: 'From stock' });
    expect(q1.status, q1.text).toBe(201);
    expect(q1.json.data).toMatchObject({ status: 'submitted', revision: 1, unitPrice: 1150, totalAmount: { amount: 57500, currency: 'EUR' } });
    const q2 = await quote(second!.seller, rfq.rfqId, { offerId: second!.offerId, unitPrice: 1100, leadTimeDays: 5 });
    const q3 = await quote(third!.seller, rfq.rfqId, { unitPrice: 1180 });
    expect([q2.status, q3.status], q3.text).toEqual([201, 201]);
    expect(q3.json.data.offerId).toBe(third!.offerId);
    const replaced = await quote(first!.seller, rfq.rfqId, { offerId: first!.offerId, unitPrice: 1050 });
    expect(replaced.status, replaced.text).toBe(201);
    expect(replaced.json.data).toMatchObject({ quoteId: q1.json.data.quoteId, revision: 2, unitPrice: 1050 });

    // Sealed: each seller sees its own quote only; the buyer sees every quote, best first.
    for (const [seller, own] of [[first!.seller, q1], [second!.seller, q2], [third!.seller, q3]] as const) {
      const seen = (await client.get(`/v1/rfqs/${rfq.rfqId}`, { apiKey: seller.apiKey })).json.data;
      expect(seen.quotes.map((q: { quoteId: string }) => q.quoteId)).toEqual([own.json.data.quoteId]);
      expect(seen).not.toHaveProperty('sellerCount');
    }
    const compared = (await client.get(`/v1/rfqs/${rfq.rfqId}`, { apiKey: buyer.apiKey })).json.data;
    expect(compared.quotes.map((q: { unitPrice: number }) => q.unitPrice)).toEqual([1050, 1100, 1180]);
    const received = await eventually(() => eventsOf(buyer, 'rfq.quote_received'), (events) => events.length >= 4);
    expect(received.map((event) => event.data.quote.revision)).toEqual([1, 1, 1, 2]);
    for (const seller of sellers) expect(await eventsOf(seller, 'rfq.quote_received')).toEqual([]);

    // The award: an accepted session at the quote's terms, ordered like any other; a second award is 409.
    const awarded = await client.post(`/v1/rfqs/${rfq.rfqId}/award`, { quoteId: q2.json.data.quoteId }, { apiKey: buyer.apiKey });
    expect(awarded.status, awarded.text).toBe(200);
    expect(awarded.json.data).toMatchObject({ status: 'awarded', awardedQuoteId: q2.json.data.quoteId });
    expect(awarded.json.data.quotes.map((q: { status: string }) => q.status)).toEqual(['accepted', 'declined', 'declined']);
    const sessionId = awarded.json.data.sessionId as string;
    const session = await client.get(`/v1/negotiations/${sessionId}`, { apiKey: second!.seller.apiKey });
    expect(session.json.data).toMatchObject({ status: 'accepted', buyerId: buyer.agentId, sellerId: second!.seller.agentId, unitPrice: 1100, quantity: 50, currency: 'EUR', offerId: second!.offerId });
    const again = await client.post(`/v1/rfqs/${rfq.rfqId}/award`, { quoteId: q1.json.data.quoteId }, { apiKey: buyer.apiKey });
    expectError(again, 409, 'conflict');
    expect(again.json.details).toEqual([{ path: 'status', message: 'The request for quotes is awarded' }]);
    expectError(await quote(third!.seller, rfq.rfqId, { unitPrice: 1000 }), 409, 'conflict');
    const order = await client.post('/v1/create-order', { sessionId }, { apiKey: buyer.apiKey });
    expect(order.status, order.text).toBe(201);
    expect(order.json.data).toMatchObject({ status: 'pending', sellerId: second!.seller.agentId, totalAmount: { amount: 55000, currency: 'EUR' } });

    // The winner hears rfq.awarded and sees the award; the others hear rfq.closed, and see no winner.
    const won = await eventually(() => eventsOf(second!.seller, 'rfq.awarded'), (events) => events.length > 0);
    expect(won.map((event) => event.data)).toEqual([expect.objectContaining({ rfqId: rfq.rfqId, sessionId, quoteId: q2.json.data.quoteId })]);
    expect((await client.get(`/v1/rfqs/${rfq.rfqId}`, { apiKey: second!.seller.apiKey })).json.data).toMatchObject({ status: 'awarded', sessionId, quotes: [{ status: 'accepted' }] });
    for (const loser of [first!.seller, third!.seller]) {
      const closed = await eventually(() => eventsOf(loser, 'rfq.closed'), (events) => events.length > 0);
      expect(closed.map((event) => event.data)).toEqual([{ rfqId: rfq.rfqId, sellerId: loser.agentId, status: 'awarded' }]);
      expect(await eventsOf(loser, 'rfq.awarded')).toEqual([]);
      expect((await client.get(`/v1/rfqs/${rfq.rfqId}`, { apiKey: loser.apiKey })).json.data).toMatchObject({ status: 'awarded', awardedQuoteId: null, sessionId: null, quotes: [{ status: 'declined' }] });
    }
    expect(await eventsOf(second!.seller, 'rfq.closed')).toEqual([]);
  });

  it('sends an invitation-only RFQ to exactly the invited sellers, whatever they sell', { timeout: 60_000 }, async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    const invited = await registerUnlimited(client, 'seller');
    const word = uniqueWord();
    const [matching] = await gloveSellers(1, word);
    const rfq = await createRfq(buyer, { title: `Nitrile gloves ${word}`, sellerIds: [invited.agentId] });
    expect(rfq.invitedSellerIds).toEqual([invited.agentId]);
    expect((await dispatched(buyer, rfq.rfqId)).sellerCount).toBe(1);
    const created = await eventually(() => eventsOf(invited, 'rfq.created'), (events) => events.length > 0);
    expect(created[0]!.data).toMatchObject({ rfqId: rfq.rfqId, invited: true });
    expect(await eventsOf(matching!.seller, 'rfq.created')).toEqual([]);
  });
});

describe('refusals', () => {
  it('refuses a close too soon or too late, unknown invitees, sellers asking and keys without the scope; nothing is written', async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    const seller = await registerUnlimited(client, 'seller');
    const soon = await client.post('/v1/rfqs', { title: 'Gloves', quantity: 1, currency: 'EUR', closesAt: new Date(Date.now() + 500).toISOString() }, { apiKey: buyer.apiKey });
    expectError(soon, 422, 'validation/invalid');
    expect(soon.json.details).toEqual([expect.objectContaining({ path: 'closesAt' })]);
    const late = await client.post('/v1/rfqs', { title: 'Gloves', quantity: 1, currency: 'EUR', closesAt: new Date(Date.now() + 15 * 86_400_000).toISOString() }, { apiKey: buyer.apiKey });
    expectError(late, 422, 'validation/invalid');
    const notSeller = await client.post('/v1/rfqs', { title: 'Gloves', quantity: 1, currency: 'EUR', closesAt: inAnHour(), sellerIds: [buyer.agentId] }, { apiKey: buyer.apiKey });
    expectError(notSeller, 422, 'validation/invalid');
    expect(notSeller.json.details).toEqual([expect.objectContaining({ path: 'sellerIds.0' })]);
    expectError(await client.post('/v1/rfqs', { title: 'Gloves', quantity: 1, currency: 'EUR', closesAt: inAnHour(), colour: 'blue' }, { apiKey: buyer.apiKey }), 422, 'validation/invalid');
    expectError(await client.post('/v1/rfqs', { title: 'Gloves', quantity: 1, currency: 'EUR', closesAt: inAnHour() }, { apiKey: seller.apiKey }), 403, 'auth/forbidden');
    expect((await client.get('/v1/rfqs', { apiKey: buyer.apiKey })).json.data.items).toEqual([]);

    const key = await client.post('/v1/agents/me/keys', { name: 'Orders only', scopes: ['orders:write'] }, { apiKey: buyer.apiKey });
    expect(key.status, key.text).toBe(201);
    const refused = await client.post('/v1/rfqs', { title: 'Gloves', quantity: 1, currency: 'EUR', closesAt: inAnHour() }, { apiKey: key.json.data.apiKey });
    expectError(refused, 403, 'auth/insufficient-scope');
    expect(refused.json.details).toEqual([expect.objectContaining({ message: expect.stringContaining('rfqs:write') })]);
    const reader = await client.post('/v1/agents/me/keys', { name: 'RFQ writer', scopes: ['rfqs:write'] }, { apiKey: buyer.apiKey });
    expect((await client.get('/v1/rfqs', { apiKey: reader.json.data.apiKey })).status).toBe(200);
  });
});

describe('races', () => {
  async function invitedSellers(count: number, word: string) {
    const listings = await gloveSellers(count, word);
    return listings;
  }

  it('takes 20 sellers quoting at once: every quote lands once, the buyer sees 20 and hears 20', { timeout: 180_000 }, async () => {
    const word = uniqueWord();
    const listings = await invitedSellers(20, word);
    const buyer = await registerUnlimited(client, 'buyer');
    const rfq = await createRfq(buyer, { title: `Gloves ${word}`, sellerIds: listings.map((listing) => listing.seller.agentId) });
    expect((await dispatched(buyer, rfq.rfqId)).sellerCount).toBe(20);
    const responses = await Promise.all(listings.map((listing, index) => quote(listing.seller, rfq.rfqId, { offerId: listing.offerId, unitPrice: 1000 + index })));
    expect(responses.map((response) => response.status), responses.find((response) => response.status !== 201)?.text).toEqual(listings.map(() => 201));
    const seen = (await client.get(`/v1/rfqs/${rfq.rfqId}`, { apiKey: buyer.apiKey })).json.data;
    expect(seen.quotes.map((q: { unitPrice: number }) => q.unitPrice)).toEqual(listings.map((_, index) => 1000 + index));
    expect(new Set(seen.quotes.map((q: { quoteId: string }) => q.quoteId)).size).toBe(20);
    const heard = await eventually(() => eventsOf(buyer, 'rfq.quote_received'), (events) => events.length >= 20);
    expect(heard).toHaveLength(20);
  });

  it('awards once while quotes arrive and two awards race: a quote lands before the award or is refused, one award wins', { timeout: 180_000 }, async () => {
    const word = uniqueWord();
    const listings = await invitedSellers(10, word);
    const buyer = await registerUnlimited(client, 'buyer');
    const rfq = await createRfq(buyer, { title: `Gloves ${word}`, sellerIds: listings.map((listing) => listing.seller.agentId) });
    await dispatched(buyer, rfq.rfqId);
    const [a, b] = listings as [Listing, Listing];
    const qa = await quote(a.seller, rfq.rfqId, { offerId: a.offerId, unitPrice: 900 });
    const qb = await quote(b.seller, rfq.rfqId, { offerId: b.offerId, unitPrice: 950 });
    const [awardA, awardB, ...late] = await Promise.all([
      client.post(`/v1/rfqs/${rfq.rfqId}/award`, { quoteId: qa.json.data.quoteId }, { apiKey: buyer.apiKey }),
      client.post(`/v1/rfqs/${rfq.rfqId}/award`, { quoteId: qb.json.data.quoteId }, { apiKey: buyer.apiKey }),
      ...listings.slice(2).map((listing) => quote(listing.seller, rfq.rfqId, { offerId: listing.offerId, unitPrice: 1000 })),
    ]);
    const awards = [awardA, awardB];
    expect(awards.map((response) => response.status).sort()).toEqual([200, 409]);
    for (const response of late) expect([201, 409], response.text).toContain(response.status);
    const final = (await client.get(`/v1/rfqs/${rfq.rfqId}`, { apiKey: buyer.apiKey })).json.data;
    const winner = awards.find((response) => response.status === 200)!.json.data;
    expect(final).toMatchObject({ status: 'awarded', awardedQuoteId: winner.awardedQuoteId, sessionId: winner.sessionId });
    // Exactly the quotes that were accepted are there: none landed on the awarded RFQ.
    expect(final.quotes).toHaveLength(2 + late.filter((response) => response.status === 201).length);
    expect(final.quotes.filter((q: { status: string }) => q.status === 'accepted')).toHaveLength(1);
    // Every seller but the winner hears it closed, once.
    const winnerId = final.quotes.find((q: { status: string }) => q.status === 'accepted').sellerId;
    for (const listing of listings) {
      const closed = await eventually(() => eventsOf(listing.seller, 'rfq.closed'), (events) => listing.seller.agentId === winnerId || events.length > 0);
      expect(closed).toHaveLength(listing.seller.agentId === winnerId ? 0 : 1);
    }
  });
});

describe('closing at closesAt', () => {
  it('closes once, with rfq.closed to the buyer; no quote lands after it, but a quote can still be awarded until it expires', { timeout: 120_000 }, async () => {
    const word = uniqueWord();
    const [listing] = await gloveSellers(1, word);
    const buyer = await registerUnlimited(client, 'buyer');
    const rfq = await createRfq(buyer, { title: `Gloves ${word}`, closesAt: new Date(Date.now() + 4_000).toISOString() });
    await dispatched(buyer, rfq.rfqId);
    const early = await quote(listing!.seller, rfq.rfqId, { offerId: listing!.offerId, unitPrice: 1000 });
    expect(early.status, early.text).toBe(201);
    const closed = await eventually(() => eventsOf(buyer, 'rfq.closed'), (events) => events.length > 0, 60_000);
    expect(closed.map((event) => event.data)).toEqual([{ rfqId: rfq.rfqId, buyerId: buyer.agentId, status: 'closed', quoteCount: 1 }]);
    const after = await quote(listing!.seller, rfq.rfqId, { offerId: listing!.offerId, unitPrice: 900 });
    expectError(after, 409, 'conflict');
    expect(after.json.details).toEqual([{ path: 'status', message: 'The request for quotes is closed' }]);
    expect((await client.get(`/v1/rfqs/${rfq.rfqId}`, { apiKey: listing!.seller.apiKey })).json.data.status).toBe('closed');
    const awarded = await client.post(`/v1/rfqs/${rfq.rfqId}/award`, { quoteId: early.json.data.quoteId }, { apiKey: buyer.apiKey });
    expect(awarded.status, awarded.text).toBe(200);
    // Once: a later sweep finds nothing to close.
    await new Promise((wait) => setTimeout(wait, 6_000));
    expect(await eventsOf(buyer, 'rfq.closed')).toHaveLength(1);
  });

  it('cancels an open RFQ: its sellers hear rfq.closed (cancelled), and nothing moves after it', { timeout: 60_000 }, async () => {
    const word = uniqueWord();
    const [listing] = await gloveSellers(1, word);
    const buyer = await registerUnlimited(client, 'buyer');
    const rfq = await createRfq(buyer, { title: `Gloves ${word}` });
    await dispatched(buyer, rfq.rfqId);
    const cancelled = await client.post(`/v1/rfqs/${rfq.rfqId}/cancel`, { reason: 'Bought elsewhere' }, { apiKey: buyer.apiKey });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json.data).toMatchObject({ status: 'cancelled', cancellationReason: 'Bought elsewhere' });
    const told = await eventually(() => eventsOf(listing!.seller, 'rfq.closed'), (events) => events.length > 0);
    expect(told.map((event) => event.data)).toEqual([{ rfqId: rfq.rfqId, sellerId: listing!.seller.agentId, status: 'cancelled' }]);
    expectError(await client.post(`/v1/rfqs/${rfq.rfqId}/cancel`, {}, { apiKey: buyer.apiKey }), 409, 'conflict');
    expectError(await quote(listing!.seller, rfq.rfqId, { offerId: listing!.offerId, unitPrice: 900 }), 409, 'conflict');
    expectError(await client.post(`/v1/rfqs/${rfq.rfqId}/cancel`, {}, { apiKey: listing!.seller.apiKey }), 403, 'auth/forbidden');
  });
});


