// The built SDK, imported by its package name, against the local runtime: a sale and a purchase end
// to end, then what the API's refusals look like through the SDK.
import { randomBytes } from 'node:crypto';
import { ConflictError, InvalidRequestError, Marketplace, NotFoundError, PermissionError, type SearchItem } from '@agent-marketplace/sdk';
import { describe, expect, inject, it } from 'vitest';

const baseUrl = inject('baseUrl');
const organization = { legalName: 'Acme GmbH', country: 'DE' };
/** A word no other test's catalog has (letters only, as search tokenizes). */
const uniqueWord = () => `sdk${randomBytes(5).toString('hex').replace(/[0-9]/g, (digit) => 'ghijklmnop'[Number(digit)] as string)}`;

describe('the SDK against the local runtime', () => {
  it('does a sale and a purchase', async () => {
    const word = uniqueWord();
    const anonymous = new Marketplace({ baseUrl });
    const sellerAgent = await anonymous.agents.register({ name: 'Seller bot', role: 'seller', organization, contactEmail: 'sales@acme.example' });
    const buyerAgent = await anonymous.agents.register({ name: 'Buyer bot', role: 'buyer', organization, contactEmail: 'buying@acme.example' });
    const seller = anonymous.withApiKey(sellerAgent.apiKey);
    const buyer = anonymous.withApiKey(buyerAgent.apiKey);
    // Both templates in the envelope (the JSON one is the raw file only when asked for alone).
    expect(await seller.templates.csv()).toMatchObject({ format: 'csv', fields: expect.any(Array) });
    expect(await seller.templates.json()).toMatchObject({ format: 'json', fields: expect.any(Array) });
    const csv = `sku,title,price,currency,available_quantity,min_order_quantity,ships_from\nSKU-${word},${word} nitrile gloves,10.00,EUR,500,10,DE\n`;
    const feed = await seller.feeds.waitUntilDone((await seller.feeds.upload({ csv, filename: 'catalog.csv' })).feedId);
    expect(feed).toMatchObject({ status: 'completed', rowsSucceeded: 1, rowsFailed: 0, filename: 'catalog.csv' });

    let hit: SearchItem | undefined;
    for (let tries = 0; !hit && tries < 60; tries += 1) {
      hit = (await buyer.search.query({ query: word })).items[0];
      if (!hit) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(hit?.product.sellerId).toBe(sellerAgent.agentId);
    const session = await buyer.negotiations.start({ offerId: hit!.offer.offerId, quantity: 100, unitPrice: 900, message: 'Volume order' });
    expect(session).toMatchObject({ status: 'open', turn: 'seller', round: 1 });
    const countered = await seller.negotiations.counter(session.sessionId, { unitPrice: 950 });
    expect(countered).toMatchObject({ turn: 'buyer', round: 2, unitPrice: 950 });
    const accepted = await buyer.negotiations.accept(session.sessionId);
    expect(accepted).toMatchObject({ status: 'accepted', unitPrice: 950, quantity: 100 });

    const order = await buyer.orders.create({ sessionId: session.sessionId, buyerReference: 'PO-1' });
    expect(order).toMatchObject({ status: 'pending', totalAmount: { amount: 95_000, currency: 'EUR' }, buyerReference: 'PO-1' });
    expect(order.lastResponse).toMatchObject({ status: 201, replayed: false, attempts: 1 });
    expect(order.lastResponse.requestId).toMatch(/^req_/);
    expect((await seller.orders.confirm(order.orderId)).status).toBe('confirmed');
    expect((await seller.orders.ship(order.orderId, { carrier: 'DHL', trackingNumber: '00340434161094042557' })).shipping).toMatchObject({ carrier: 'DHL' });
    expect((await seller.orders.deliver(order.orderId)).status).toBe('delivered');
    expect((await buyer.orders.complete(order.orderId)).status).toBe('completed');

    const trail: string[] = [];
    for await (const entry of seller.orders.audit(order.orderId, { limit: 2 })) trail.push(`${entry.fromStatus ?? '-'}→${entry.toStatus}`);
    expect(trail).toEqual(['-→pending', 'pending→confirmed', 'confirmed→shipped', 'shipped→delivered', 'delivered→completed']);
    const mine = await buyer.orders.list({ status: 'completed' }).toArray();
    expect(mine.map((listed) => listed.orderId)).toEqual([order.orderId]);
    const product = await buyer.products.get(hit!.product.productId);
    expect(product.availableQuantity).toBe(400);
  });

  it('surfaces the API’s refusals as typed errors, and replays an order placed with the same key', async () => {
    const word = uniqueWord();
    const anonymous = new Marketplace({ baseUrl });
    const seller = anonymous.withApiKey((await anonymous.agents.register({ name: 'Seller bot', role: 'seller', organization, contactEmail: 'sales@acme.example' })).apiKey);
    const buyer = anonymous.withApiKey((await anonymous.agents.register({ name: 'Buyer bot', role: 'buyer', organization, contactEmail: 'buying@acme.example' })).apiKey);
    const feed = await seller.feeds.waitUntilDone((await seller.feeds.upload({ products: [{ sku: `SKU-${word}`, title: `${word} boots`, price: { amount: 5000, currency: 'USD' }, availableQuantity: 20, negotiable: false }] })).feedId);
    expect(feed.status).toBe('completed');
    const [listed] = (await seller.sellerProducts.list({ sku: `SKU-${word}` })).items;
    const offerId = listed!.offers[0]!.offerId;

    const invalid = await buyer.negotiations.start({ offerId, quantity: 0, extra: true } as never).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid).toMatchObject({ status: 422, code: 'validation/invalid' });
    expect((invalid as InvalidRequestError).details.map((detail) => detail.path).sort()).toEqual(['extra', 'quantity']);
    expect((invalid as InvalidRequestError).requestId).toMatch(/^req_/);
    await expect(seller.negotiations.start({ offerId, quantity: 1 })).rejects.toBeInstanceOf(PermissionError);
    await expect(buyer.orders.get('ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR')).rejects.toBeInstanceOf(NotFoundError);

    // A non-negotiable offer accepts its own price at once.
    const session = await buyer.negotiations.start({ offerId, quantity: 2 });
    expect(session.status).toBe('accepted');
    const first = await buyer.orders.create({ sessionId: session.sessionId }, { idempotencyKey: `order-${word}` });
    const replay = await buyer.orders.create({ sessionId: session.sessionId }, { idempotencyKey: `order-${word}` });
    expect(replay.orderId).toBe(first.orderId);
    expect(replay.lastResponse.replayed).toBe(true);
    const second = await buyer.orders.create({ sessionId: session.sessionId }).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(ConflictError);
    await seller.orders.confirm(first.orderId);
    await seller.orders.ship(first.orderId, { carrier: 'UPS', trackingNumber: '1Z999' });
    const late = await buyer.orders.cancel(first.orderId, { reason: 'Too late' }).catch((error: unknown) => error);
    expect(late).toBeInstanceOf(ConflictError);
    expect((late as ConflictError).details[0]).toMatchObject({ path: 'status' });
  });
});
