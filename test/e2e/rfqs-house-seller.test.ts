// The sandbox's house seller on requests for quotes, over HTTP against the local runtime (a sandbox):
// a buyer's RFQ for something the house catalog sells gets the house seller's quote — within the cap,
// from its matching offer, for what it has, valid past the close — and the award orders from it like
// any accepted session; an RFQ whose cap is below what its policy would ever accept gets none.
import { describe, expect, it } from 'vitest';
import { getOffer, getProductWithOffers } from '../../shared/data/products.ts';
import { HOUSE_SELLER } from '../../shared/domain/house-agents.ts';
import { offerPriceFor } from '../../shared/domain/negotiation-policy.ts';
import { registerUnlimited } from '../support/catalog.ts';
import { newClient } from '../support/runtime.ts';

const client = newClient();
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

type Agent = { agentId: string; apiKey: string };

/** Reads the RFQ as its buyer until `done` holds (the dispatch worker and the house seller act off the request path). */
async function rfqUntil(buyer: Agent, rfqId: string, done: (rfq: any) => boolean, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await client.get(`/v1/rfqs/${rfqId}`, { apiKey: buyer.apiKey });
    expect(response.status, response.text).toBe(200);
    if (done(response.json.data) || Date.now() > deadline) return response.json.data;
    await new Promise((wait) => setTimeout(wait, 250));
  }
}

describe('the house seller on requests for quotes', () => {
  it('quotes on a matching RFQ by its offer’s policy within the cap, and not on one capped below what it would accept', { timeout: 120_000 }, async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    const found = await client.send('POST', '/v1/search', { apiKey: buyer.apiKey, body: { query: 'nitrile gloves', filters: { sellerId: HOUSE_SELLER.agentId, currency: 'EUR' }, limit: 10 } });
    expect(found.status, found.text).toBe(200);
    const item = found.json.data.items.find((candidate: any) => candidate.offer.negotiable);
    expect(item, 'a negotiable house offer of gloves').toBeDefined();
    const { product } = item;
    const request = { title: product.title, category: product.category, currency: 'EUR', shipsFrom: [product.shipsFrom], quantity: 1000, closesAt: inAnHour() };

    // Capped below any price it would accept, first: the house seller, reading its events in order, passes it over before it reaches the next.
    const capped = await client.post('/v1/rfqs', { ...request, maxUnitPrice: 1 }, { apiKey: buyer.apiKey });
    expect(capped.status, capped.text).toBe(201);
    expect((await rfqUntil(buyer, capped.json.data.rfqId, (rfq) => rfq.sellerCount !== null)).sellerCount).toBeGreaterThanOrEqual(1);

    const cap = item.offer.unitPrice.amount;
    const created = await client.post('/v1/rfqs', { ...request, maxUnitPrice: cap }, { apiKey: buyer.apiKey });
    expect(created.status, created.text).toBe(201);
    const rfq = await rfqUntil(buyer, created.json.data.rfqId, (read) => read.quotes.some((quote: any) => quote.sellerId === HOUSE_SELLER.agentId));
    const houseQuotes = rfq.quotes.filter((quote: any) => quote.sellerId === HOUSE_SELLER.agentId);
    expect(houseQuotes, JSON.stringify(rfq)).toHaveLength(1);
    const quote = houseQuotes[0];
    // Its best matching offer (this one or another of its gloves), within the cap and its policy, for what it has.
    const offer = (await getOffer(quote.offerId))!;
    const quoted = (await getProductWithOffers(offer.productId))!.product;
    expect(offer.sellerId).toBe(HOUSE_SELLER.agentId);
    expect(quote).toMatchObject({ status: 'submitted', revision: 1, currency: 'EUR', quantity: Math.min(1000, quoted.availableQuantity), leadTimeDays: quoted.leadTimeDays });
    expect(quote.unitPrice).toBeLessThanOrEqual(cap);
    expect(quote.unitPrice).toBeLessThanOrEqual(offerPriceFor(offer, quote.quantity));
    if (offer.floorUnitPrice) expect(quote.unitPrice).toBeGreaterThanOrEqual(offer.floorUnitPrice.amount);
    // Its offer's policy accepts the auto-accept price at once: that is where the sealed quote opens.
    if (offer.autoAcceptUnitPrice && offer.autoAcceptUnitPrice.amount <= cap) expect(quote.unitPrice).toBe(Math.min(offer.autoAcceptUnitPrice.amount, offerPriceFor(offer, quote.quantity)));
    expect(Date.parse(quote.validUntil)).toBeGreaterThan(Date.parse(rfq.closesAt));

    const cappedNow = await rfqUntil(buyer, capped.json.data.rfqId, () => true);
    expect(cappedNow.quotes.filter((other: any) => other.sellerId === HOUSE_SELLER.agentId)).toEqual([]);

    // The award orders from the house seller like any accepted session.
    const awarded = await client.post(`/v1/rfqs/${rfq.rfqId}/award`, { quoteId: quote.quoteId }, { apiKey: buyer.apiKey });
    expect(awarded.status, awarded.text).toBe(200);
    const order = await client.post('/v1/create-order', { sessionId: awarded.json.data.sessionId }, { apiKey: buyer.apiKey });
    expect(order.status, order.text).toBe(201);
    expect(order.json.data).toMatchObject({ sellerId: HOUSE_SELLER.agentId, totalAmount: { amount: quote.unitPrice * quote.quantity, currency: 'EUR' } });
  });
});
