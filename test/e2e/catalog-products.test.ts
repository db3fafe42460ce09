// Products and offers as buyers and sellers read them: offers embedded, private negotiation prices
// only for the offer's own seller, inactive products only for their seller, upserts by sku.
import { describe, expect, it } from 'vitest';
import { recordedEventsOf } from '../support/events.ts';
import { expectError } from '../support/assertions.ts';
import { registerUnlimited, uploadCsv, waitForFeed } from '../support/catalog.ts';
import { newClient } from '../support/runtime.ts';

const client = newClient();
const HEADER = 'sku,title,price,currency,available_quantity,min_order_quantity,floor_price,auto_accept_price,status';

async function loadCatalog(apiKey: string, rows: string[]) {
  const feed = await waitForFeed(client, apiKey, (await uploadCsv(client, apiKey, [HEADER, ...rows].join('\n'))).json.data.feedId);
  expect(feed.status).toBe('completed');
  return feed;
}

async function productBySku(apiKey: string, sku: string) {
  const [product] = (await client.get(`/v1/seller/products?sku=${sku}`, { apiKey })).json.data.items;
  return product;
}

describe('products and offers', () => {
  it('shows a product with its offer to a buyer without the private prices, and with them to its seller', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const buyer = await registerUnlimited(client, 'buyer');
    const otherSeller = await registerUnlimited(client, 'seller');
    await loadCatalog(seller.apiKey, ['PRIV-1,Private policy product,12.50,USD,100,10,10.00,12.00,active']);
    const own = await productBySku(seller.apiKey, 'PRIV-1');
    const offerId = own.offers[0].offerId;
    expect(own.offers[0]).toMatchObject({ floorUnitPrice: { amount: 1000, currency: 'USD' }, autoAcceptUnitPrice: { amount: 1200, currency: 'USD' } });

    for (const reader of [buyer, otherSeller]) {
      const product = await client.get(`/v1/products/${own.productId}`, { apiKey: reader.apiKey });
      expect(product.status).toBe(200);
      expect(product.json.data).toMatchObject({ productId: own.productId, sellerId: seller.agentId, sku: 'PRIV-1', price: { amount: 1250, currency: 'USD' }, minOrderQuantity: 10 });
      expect(product.json.data.offers).toEqual([
        expect.objectContaining({ offerId, productId: own.productId, unitPrice: { amount: 1250, currency: 'USD' }, minQuantity: 10, negotiable: true, status: 'active', validUntil: null }),
      ]);
      const offer = await client.get(`/v1/offers/${offerId}`, { apiKey: reader.apiKey });
      expect(offer.status).toBe(200);
      for (const text of [product.text, offer.text]) {
        expect(text).not.toContain('floorUnitPrice');
        expect(text).not.toContain('autoAcceptUnitPrice');
        expect(text).not.toContain('"amount":1000');
        expect(text).not.toContain('"amount":1200');
      }
    }
    const ownView = await client.get(`/v1/products/${own.productId}`, { apiKey: seller.apiKey });
    expect(ownView.json.data.offers[0].floorUnitPrice).toEqual({ amount: 1000, currency: 'USD' });
    const ownOffer = await client.get(`/v1/offers/${offerId}`, { apiKey: seller.apiKey });
    expect(ownOffer.json.data.autoAcceptUnitPrice).toEqual({ amount: 1200, currency: 'USD' });
  });

  it('upserts by sku: a later feed updates the product in place and keeps its ids; a product left out is not deleted', async () => {
    const seller = await registerUnlimited(client, 'seller');
    await loadCatalog(seller.apiKey, ['UP-1,First title,5.00,EUR,10,1,,,active', 'UP-2,Stays,6.00,EUR,10,1,,,active']);
    const before = await productBySku(seller.apiKey, 'UP-1');
    const second = await loadCatalog(seller.apiKey, ['UP-1,Second title,4.00,EUR,7,1,,,active']);
    const after = await productBySku(seller.apiKey, 'UP-1');
    expect(after).toMatchObject({ productId: before.productId, title: 'Second title', price: { amount: 400, currency: 'EUR' }, availableQuantity: 7, createdAt: before.createdAt, sourceFeedId: second.feedId });
    expect(after.offers[0].offerId).toBe(before.offers[0].offerId);
    expect(after.updatedAt > before.updatedAt).toBe(true);
    expect(await productBySku(seller.apiKey, 'UP-2')).toMatchObject({ title: 'Stays', status: 'active' });
  });

  it('deactivates a product with status inactive: its offer is withdrawn and others get 404', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const buyer = await registerUnlimited(client, 'buyer');
    await loadCatalog(seller.apiKey, ['OFF-1,Soon inactive,5.00,USD,10,1,,,active']);
    const active = await productBySku(seller.apiKey, 'OFF-1');
    expect((await client.get(`/v1/products/${active.productId}`, { apiKey: buyer.apiKey })).status).toBe(200);

    await loadCatalog(seller.apiKey, ['OFF-1,Soon inactive,5.00,USD,10,1,,,inactive']);
    expectError(await client.get(`/v1/products/${active.productId}`, { apiKey: buyer.apiKey }), 404, 'not-found');
    expectError(await client.get(`/v1/offers/${active.offers[0].offerId}`, { apiKey: buyer.apiKey }), 404, 'not-found');
    const own = await client.get(`/v1/products/${active.productId}`, { apiKey: seller.apiKey });
    expect(own.json.data).toMatchObject({ status: 'inactive', offers: [expect.objectContaining({ status: 'withdrawn' })] });
    const inactive = await client.get('/v1/seller/products?status=inactive', { apiKey: seller.apiKey });
    expect(inactive.json.data.items.map((product: { sku: string }) => product.sku)).toEqual(['OFF-1']);
    expect((await client.get('/v1/seller/products?status=active', { apiKey: seller.apiKey })).json.data.items).toEqual([]);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    expectError(await client.get('/v1/products/prd_01JF3Q5Z8X2C7V9B4N6M1K0PQR', { apiKey: buyer.apiKey }), 404, 'not-found');
    expectError(await client.get('/v1/products/not-an-id', { apiKey: buyer.apiKey }), 404, 'not-found');
    expectError(await client.get('/v1/offers/ofr_01JF3Q5Z8X2C7V9B4N6M1K0PQR', { apiKey: buyer.apiKey }), 404, 'not-found');
  });

  it('pages the seller’s products newest first', async () => {
    const seller = await registerUnlimited(client, 'seller');
    await loadCatalog(seller.apiKey, ['PG-1,One,1.00,USD,1,1,,,active', 'PG-2,Two,1.00,USD,1,1,,,active', 'PG-3,Three,1.00,USD,1,1,,,active']);
    const first = await client.get('/v1/seller/products?limit=2', { apiKey: seller.apiKey });
    expect(first.json.data.items).toHaveLength(2);
    const second = await client.get(`/v1/seller/products?limit=2&cursor=${first.json.data.nextCursor}`, { apiKey: seller.apiKey });
    const skus = [...first.json.data.items, ...second.json.data.items].map((product: { sku: string }) => product.sku);
    expect(skus.sort()).toEqual(['PG-1', 'PG-2', 'PG-3']);
    expect(second.json.data.nextCursor).toBeNull();
  });

  it('records feed.completed and feed.failed for the seller only, with the counts and no private prices', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const completed = await loadCatalog(seller.apiKey, ['EV-1,Event product,2.00,USD,1,1,1.00,1.50,active']);
    const failed = await waitForFeed(client, seller.apiKey, (await uploadCsv(client, seller.apiKey, `${HEADER}\n`)).json.data.feedId);
    const events = await recordedEventsOf(seller.agentId);
    const byFeed = (feedId: string) => events.find((event) => event.data.feedId === feedId);
    expect(byFeed(completed.feedId)).toMatchObject({ type: 'feed.completed', agentIds: [seller.agentId], data: { feedId: completed.feedId, sellerId: seller.agentId, status: 'completed', rowsTotal: 1, rowsSucceeded: 1, rowsFailed: 0 } });
    expect(byFeed(failed.feedId)).toMatchObject({ type: 'feed.failed', agentIds: [seller.agentId], data: { feedId: failed.feedId, status: 'failed', failureReason: expect.any(String) } });
    expect(JSON.stringify(events)).not.toContain('floorUnitPrice');
  });
});
