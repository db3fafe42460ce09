// Every operation an agent uses is a method of the SDK (checked against the route index), each feed
// upload mode sends what the API expects, and waitUntilDone follows a feed to its end.
import { afterEach, describe, expect, it } from 'vitest';
import { routeList } from '../../../functions/registry.ts';
import { Marketplace, WaitTimeoutError } from '../src/index.ts';
import { MULTIPART_LIMIT_BYTES } from '../src/resources/feeds.ts';
import { header, ok, scriptedServer, type RecordedRequest, type ScriptedServer } from './support/scripted-server.ts';

/** The SDK covers the versioned API: every /v1 operation but the OpenAPI document it is generated from. */
const isAgentOperation = (route: { path: string; operationId: string }) => route.path.startsWith('/v1/') && route.operationId !== 'getOpenApiDocument';

const WHK = 'whk_01JF3Q5Z8X2C7V9B4N6M1K0PQR';
const DLV = 'dlv_01JF3Q5Z8X2C7V9B4N6M1K0PQR';
const FEED = 'feed_01JF3Q5Z8X2C7V9B4N6M1K0PQR';
const NEG = 'neg_01JF3Q5Z8X2C7V9B4N6M1K0PQR';
const ORD = 'ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR';
const KEY = 'key_01JF3Q5Z8X2C7V9B4N6M1K0PQR';
const RFQ = 'rfq_01JF3Q5Z8X2C7V9B4N6M1K0PQR';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server that answers anything with one record that has every field the SDK reads. */
async function universalServer(overrides: (request: RecordedRequest, index: number) => Record<string, unknown> = () => ({})) {
  server = await scriptedServer((request, index) => {
    if (request.path === '/upload') return { status: 200, text: '' };
    return ok({
      items: [],
      nextCursor: null,
      apiKey: 'mk_test_rotated',
      feedId: FEED,
      status: 'completed',
      uploadUrl: `${server!.url}/upload?X-Amz-Signature=abc`,
      uploadMethod: 'PUT',
      uploadHeaders: {},
      ...overrides(request, index),
    });
  });
  return { mk: new Marketplace({ apiKey: 'mk_test_key', baseUrl: server.url, maxRetries: 0 }), server };
}

function templateMatches(template: string, path: string): boolean {
  const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
  return pattern.test(path);
}

describe('coverage', () => {
  it('has a method for every operation an agent uses', async () => {
    const { mk, server } = await universalServer();
    const registration = { name: 'Bot', role: 'seller' as const, organization: { legalName: 'Acme', country: 'DE' }, contactEmail: 'a@b.example' };
    await mk.agents.register(registration);
    await mk.agents.me();
    await mk.agents.update({ name: 'Bot 2' });
    await mk.agents.rotateKey();
    await mk.keys.create({ name: 'Reorder bot', scopes: ['catalog:read', 'orders:write'], limits: { spendPerDay: { amount: 50000, currency: 'EUR' } } });
    await mk.keys.list();
    await mk.keys.get(KEY);
    await mk.keys.update(KEY, { limits: null });
    await mk.keys.revoke(KEY);
    await mk.webhooks.create({ url: 'https://agent.example/hooks', events: ['*'], secret: 'a-secret-of-16-or-more' });
    await mk.webhooks.list();
    await mk.webhooks.get(WHK);
    await mk.webhooks.update(WHK, { active: false });
    await mk.webhooks.delete(WHK);
    await mk.webhooks.test(WHK);
    await mk.webhooks.deliveries.list(WHK, { status: 'failed' });
    await mk.webhooks.deliveries.get(WHK, DLV);
    await mk.webhooks.deliveries.retry(WHK, DLV);
    await mk.feeds.upload({ csv: 'sku,title\n' });
    await mk.feeds.list({ status: 'failed' });
    await mk.feeds.get(FEED);
    await mk.feeds.retry(FEED);
    await mk.feeds.delete(FEED);
    await mk.templates.csv();
    await mk.templates.json();
    await mk.sellerProducts.list({ sku: 'GLV-1' });
    await mk.products.get('prd_01JF3Q5Z8X2C7V9B4N6M1K0PQR');
    await mk.offers.get('ofr_01JF3Q5Z8X2C7V9B4N6M1K0PQR');
    await mk.search.query({ query: 'gloves' });
    await mk.search.intent({ intent: '500 nitrile gloves' });
    await mk.rfqs.create({ title: 'Nitrile gloves', quantity: 50, currency: 'EUR', closesAt: '2026-12-01T12:00:00Z' });
    await mk.rfqs.list({ status: 'open' });
    await mk.rfqs.get(RFQ);
    await mk.rfqs.quote(RFQ, { unitPrice: 1150, quantity: 50, leadTimeDays: 4, validUntil: '2026-12-05T00:00:00Z' });
    await mk.rfqs.award(RFQ, { quoteId: 'qte_01JF3Q5Z8X2C7V9B4N6M1K0PQR' });
    await mk.rfqs.cancel(RFQ);
    await mk.negotiations.start({ offerId: 'ofr_01JF3Q5Z8X2C7V9B4N6M1K0PQR', quantity: 10 });
    await mk.negotiations.counter(NEG, { unitPrice: 900 });
    await mk.negotiations.accept(NEG);
    await mk.negotiations.reject(NEG, { message: 'No' });
    await mk.negotiations.list({ status: 'accepted' });
    await mk.negotiations.get(NEG);
    await mk.orders.create({ sessionId: NEG });
    await mk.orders.preview({ sessionId: NEG });
    await mk.orders.approve(ORD);
    await mk.orders.decline(ORD, { reason: 'Not this month' });
    await mk.orders.list({ role: 'seller' });
    await mk.orders.get(ORD);
    await mk.orders.audit(ORD);
    await mk.orders.cancel(ORD, { reason: 'Out of budget' });
    await mk.orders.confirm(ORD);
    await mk.orders.ship(ORD, { carrier: 'DHL', trackingNumber: '123' });
    await mk.orders.deliver(ORD);
    await mk.orders.complete(ORD);
    await mk.events.list();
    await mk.events.get('evt_01JF3Q5Z8X2C7V9B4N6M1K0PQR');
    await mk.requests.list({ status: '4xx', path: '/v1/orders' });
    await mk.requests.get('req_01JF3Q5Z8X2C7V9B4N6M1K0PQR');
    await mk.testHelpers.negotiate({ offerId: 'ofr_01JF3Q5Z8X2C7V9B4N6M1K0PQR', strategy: 'boulware' });
    await mk.testHelpers.order({ offerId: 'ofr_01JF3Q5Z8X2C7V9B4N6M1K0PQR', quantity: 10 });
    await mk.testHelpers.advanceOrder(ORD, 'delivered');
    await mk.testHelpers.expireNegotiation(NEG);
    await mk.testHelpers.expireApproval(ORD);
    await mk.testHelpers.triggerEvent('order.shipped');

    const called = server.requests.map((request) => ({ method: request.method, path: request.path }));
    const agentRoutes = routeList.filter(isAgentOperation);
    const missing = agentRoutes.filter((route) => !called.some((call) => call.method === route.method && templateMatches(route.path, call.path)));
    expect(missing.map((route) => `${route.operationId} (${route.method} ${route.path})`)).toEqual([]);
    const unknown = called.filter((call) => !agentRoutes.some((route) => route.method === call.method && templateMatches(route.path, call.path)));
    expect(unknown).toEqual([]);
  });

  it('previews an order with dryRun: true, and creates one without it', async () => {
    const { mk, server } = await universalServer();
    await mk.orders.preview({ sessionId: NEG, buyerReference: 'PO-7' });
    await mk.orders.create({ sessionId: NEG, buyerReference: 'PO-7' });
    expect(server.requests.map((request) => JSON.parse(request.body.toString()))).toEqual([
      { sessionId: NEG, buyerReference: 'PO-7', dryRun: true },
      { sessionId: NEG, buyerReference: 'PO-7' },
    ]);
  });

  it('sends no body where the operation takes none, and the body where it is optional and given', async () => {
    const { mk, server } = await universalServer();
    await mk.negotiations.accept(NEG);
    await mk.negotiations.accept(NEG, { message: 'Deal' });
    await mk.orders.cancel(ORD);
    expect(server.requests.map((request) => request.body.toString())).toEqual(['', '{"message":"Deal"}', '']);
    expect(header(server.requests[0]!, 'content-type')).toBeUndefined();
  });
});

describe('feed uploads', () => {
  it('sends inline CSV as text/csv with the filename in the query, and JSON rows as {products}', async () => {
    const { mk, server } = await universalServer();
    await mk.feeds.upload({ csv: 'sku,title,price,currency,available_quantity\nA,Gloves,1.00,EUR,5\n', filename: 'gloves.csv' });
    await mk.feeds.upload({ products: [{ sku: 'A', title: 'Gloves', price: { amount: 100, currency: 'EUR' }, availableQuantity: 5 }] });
    const [csv, json] = server.requests;
    expect(csv).toMatchObject({ method: 'POST', path: '/v1/seller/feeds' });
    expect(csv!.query.get('filename')).toBe('gloves.csv');
    expect(header(csv!, 'content-type')).toBe('text/csv');
    expect(csv!.body.toString()).toContain('A,Gloves,1.00,EUR,5');
    expect(header(json!, 'content-type')).toBe('application/json');
    expect(JSON.parse(json!.body.toString())).toEqual({ products: [{ sku: 'A', title: 'Gloves', price: { amount: 100, currency: 'EUR' }, availableQuantity: 5 }] });
  });

  it('sends a small file as multipart with its format, inferred from the filename', async () => {
    const { mk, server } = await universalServer();
    await mk.feeds.upload({ file: new TextEncoder().encode('{"products":[]}'), filename: 'catalog.json' });
    const [request] = server.requests;
    expect(header(request!, 'content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const body = request!.body.toString();
    expect(body).toContain('name="format"\r\n\r\njson');
    expect(body).toContain('name="file"; filename="catalog.json"');
    expect(body).toContain('Content-Type: application/json');
    expect(body).toContain('{"products":[]}');
    await expect(mk.feeds.upload({ file: 'sku\n' })).rejects.toThrow(/format/);
  });

  it('sends a large file presigned: creates the upload, PUTs the file without the API key, then reads the feed', async () => {
    const { mk, server } = await universalServer();
    const big = new Blob(['sku,title\n', 'x'.repeat(MULTIPART_LIMIT_BYTES)], { type: 'text/csv' });
    const feed = await mk.feeds.upload({ file: big, filename: 'big.csv' });
    expect(feed.feedId).toBe(FEED);
    const [create, put, read] = server.requests;
    expect(create).toMatchObject({ method: 'POST', path: '/v1/seller/feeds' });
    expect(JSON.parse(create!.body.toString())).toEqual({ format: 'csv', upload: 'presigned', filename: 'big.csv' });
    expect(put).toMatchObject({ method: 'PUT', path: '/upload' });
    expect(put!.query.get('X-Amz-Signature')).toBe('abc');
    expect(put!.body.byteLength).toBe(big.size);
    expect(header(put!, 'authorization')).toBeUndefined();
    expect(header(put!, 'idempotency-key')).toBeUndefined();
    expect(read).toMatchObject({ method: 'GET', path: `/v1/seller/feeds/${FEED}` });
  });

  it('retries a feed with a replacement file in the same modes', async () => {
    const { mk, server } = await universalServer();
    await mk.feeds.retry(FEED, { csv: 'sku,title\n' });
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: `/v1/seller/feeds/${FEED}/retry` });
    expect(header(server.requests[0]!, 'content-type')).toBe('text/csv');
  });

  it('waitUntilDone polls until the feed is completed or failed, and gives up after timeoutMs', async () => {
    const statuses = ['queued', 'processing', 'processing', 'failed'];
    const { mk, server } = await universalServer((_request, index) => ({ status: statuses[Math.min(index, statuses.length - 1)] }));
    const feed = await mk.feeds.waitUntilDone(FEED, { maxPollIntervalMs: 20 });
    expect(feed.status).toBe('failed');
    expect(server.requests).toHaveLength(4);

    await server.close();
    const stuck = await universalServer(() => ({ status: 'processing' }));
    await expect(stuck.mk.feeds.waitUntilDone(FEED, { timeoutMs: 200, maxPollIntervalMs: 20 })).rejects.toBeInstanceOf(WaitTimeoutError);
  });
});
