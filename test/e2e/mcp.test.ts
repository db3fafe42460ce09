// The MCP server with the MCP SDK's own Client, over both transports, against the local runtime:
// the tools of each role, their schemas, a sale and a purchase with nothing but the tools, and the
// API's refusals as tool errors.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { registerUnlimited } from '../support/catalog.ts';
import { awaitFreshMinute, registerAgent } from '../support/http-client.ts';
import { BUYER_TOOLS, REPOSITORY_ROOT, SELLER_TOOLS, closedAfterAll, connectHttp, connectStdio, data, toolError } from '../support/mcp.ts';
import { newClient } from '../support/runtime.ts';
import { uniqueWord } from '../support/trade.ts';

const baseUrl = inject('baseUrl');
const http = newClient();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const track = closedAfterAll();

describe('MCP: the tools of each role', () => {
  let buyer: { agentId: string; apiKey: string };
  let seller: { agentId: string; apiKey: string };
  beforeAll(async () => {
    buyer = await registerAgent(http, { role: 'buyer' });
    seller = await registerAgent(http, { role: 'seller' });
  });

  it('lists exactly the tools of the key’s role, over Streamable HTTP and over stdio', async () => {
    const names = async (client: Promise<Client>) => (await (await track(client)).listTools()).tools.map((tool) => tool.name);
    const [buyerHttp, sellerHttp, buyerStdio, sellerStdio] = await Promise.all([names(connectHttp(buyer.apiKey)), names(connectHttp(seller.apiKey)), names(connectStdio(buyer.apiKey)), names(connectStdio(seller.apiKey))]);
    expect(buyerHttp.sort()).toEqual([...BUYER_TOOLS].sort());
    expect(sellerHttp.sort()).toEqual([...SELLER_TOOLS].sort());
    expect(buyerStdio.sort()).toEqual([...BUYER_TOOLS].sort());
    expect(sellerStdio.sort()).toEqual([...SELLER_TOOLS].sort());
  });

  it('describes every tool with a JSON Schema of the right types, an object output schema and annotations', async () => {
    const client = await track(connectHttp(seller.apiKey));
    const buyerClient = await track(connectHttp(buyer.apiKey));
    const tools = [...(await client.listTools()).tools, ...(await buyerClient.listTools()).tools.filter((tool) => !SELLER_TOOLS.includes(tool.name))];
    expect(tools.map((tool) => tool.name).sort()).toEqual([...new Set([...BUYER_TOOLS, ...SELLER_TOOLS])].sort());
    const ajv = new Ajv({ strict: true, strictTypes: false, allErrors: true });
    (addFormats as unknown as (ajv: Ajv) => void)(ajv);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(60);
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      // A valid draft-07 schema that compiles in strict mode (no unknown keywords such as `example`).
      expect(ajv.validateSchema(tool.inputSchema), `${tool.name}: ${ajv.errorsText()}`).toBe(true);
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toContain('$ref');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(tool.name.startsWith('get_') || tool.name.startsWith('list_') || tool.name === 'search_products' || tool.name === 'preview_order');
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    const properties = (name: string) => byName[name]!.inputSchema.properties as Record<string, any>;
    // Query integers are integers to a model, without the digits pattern of their text form.
    expect(properties('list_orders').limit).toMatchObject({ type: 'integer' });
    expect(properties('list_orders').limit.pattern).toBeUndefined();
    expect(properties('list_events').waitSeconds).toMatchObject({ type: 'integer' });
    expect(properties('list_events').type).toMatchObject({ type: 'array', items: { type: 'string', enum: expect.arrayContaining(['order.shipped']) } });
    expect(properties('get_order').orderId).toMatchObject({ type: 'string', pattern: expect.stringContaining('ord_') });
    expect(byName.get_order!.inputSchema.required).toEqual(['orderId']);
    expect(properties('start_negotiation')).toMatchObject({ offerId: { type: 'string' }, quantity: { type: 'integer', minimum: 1 }, unitPrice: { type: 'integer' }, idempotencyKey: { type: 'string' } });
    expect(byName.start_negotiation!.inputSchema.required?.sort()).toEqual(['offerId', 'quantity']);
    expect(properties('place_order').shippingAddress).toMatchObject({ type: 'object', properties: { country: { type: 'string' } } });
    expect(Object.keys(properties('search_products'))).toEqual(expect.arrayContaining(['intent', 'query', 'filters', 'sort', 'limit', 'cursor']));
    expect(properties('search_products').filters).toMatchObject({ type: 'object', properties: { maxPrice: { type: 'integer' } } });
    expect(properties('upload_feed')).toMatchObject({ csv: { type: 'string' }, products: { type: 'array', items: { type: 'object', required: expect.arrayContaining(['sku', 'price']) } } });
    expect(properties('get_feed_template').format).toMatchObject({ enum: ['csv', 'json'] });
    expect(properties('get_order').idempotencyKey).toBeUndefined();
    // Annotations: reads are read-only; cancel, reject and delete destroy; state moves are idempotent.
    for (const name of ['cancel_order', 'reject_negotiation', 'delete_webhook']) expect(byName[name]!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    for (const name of ['place_order', 'accept_terms', 'confirm_order', 'ship_order', 'mark_delivered', 'complete_order']) expect(byName[name]!.annotations).toMatchObject({ destructiveHint: false, idempotentHint: true });
    for (const name of ['start_negotiation', 'counter_offer', 'create_webhook', 'upload_feed', 'retry_feed']) expect(byName[name]!.annotations).toMatchObject({ destructiveHint: false, idempotentHint: false });
  });

  it('tells the model how to use the tools, and names itself', async () => {
    const client = await track(connectHttp(buyer.apiKey));
    expect(client.getServerVersion()).toMatchObject({ name: 'agent-marketplace' });
    expect(client.getInstructions()).toContain('minor unit');
    expect(client.getInstructions()).toContain('isError');
  });
});

describe('MCP over Streamable HTTP: the key', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const post = (authorization?: string) =>
    http.send('POST', '/mcp', { body: initialize, headers: { accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) } });

  it('answers 401 in the API’s error shape for no key, a bad key and the other environment’s key, before any MCP message is read', async () => {
    const missing = await post();
    expect(missing.status).toBe(401);
    expect(missing.json).toMatchObject({ code: 'auth/invalid-key', error: 'Missing API Key', status: 401 });
    const bad = await post('Bearer mk_test_notakey');
    expect(bad.status).toBe(401);
    expect(bad.json).toMatchObject({ code: 'auth/invalid-key', error: 'Invalid API Key' });
    const live = await post(`Bearer mk_live_${'A'.repeat(40)}`);
    expect(live.status).toBe(401);
    expect(live.json).toMatchObject({ code: 'auth/invalid-key', error: 'Invalid API Key' });
    expect(live.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('makes the MCP Client’s connect fail with the 401', async () => {
    const refused = await connectHttp('mk_test_notakey').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(401);
  });

  it('answers JSON for an initialize with a key, and 405 with Allow: POST to GET /mcp (no server-sent stream)', async () => {
    const { apiKey } = await registerAgent(http, { role: 'buyer' });
    const response = await post(`Bearer ${apiKey}`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'agent-marketplace' }, capabilities: { tools: {} } } });
    expect(response.headers['mcp-session-id']).toBeUndefined();
    const stream = await http.send('GET', '/mcp', { apiKey, headers: { accept: 'text/event-stream' } });
    expect(stream.status).toBe(405);
    expect(stream.headers.allow).toBe('POST');
    expect(stream.json).toMatchObject({ code: 'method-not-allowed', status: 405 });
  });

  it('counts a tool call once against the plan: the /mcp request that carries it, not its API call again', async () => {
    const { apiKey } = await registerAgent(http, { role: 'buyer' });
    await awaitFreshMinute(); // the three requests in one minute window
    const headers = { accept: 'application/json, text/event-stream', authorization: `Bearer ${apiKey}` };
    const call = (id: number) => http.send('POST', '/mcp', { body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_profile', arguments: {} } }, headers });
    const first = await call(1);
    const second = await call(2);
    expect(first.json.result.structuredContent).toMatchObject({ role: 'buyer', plan: 'free' });
    const remaining = (response: { headers: Record<string, string> }) => Number(response.headers['x-ratelimit-remaining']);
    expect(remaining(first) - remaining(second)).toBe(1);
    // A proof a client makes up is no proof: that request is counted.
    const direct = await http.get('/v1/agents/me', { apiKey, headers: { 'marketplace-counted-call': 'req_01JF3Q5Z8X2C7V9B4N6M1K0PQR.9999999999.AAAA' } });
    expect(remaining(second) - remaining(direct)).toBe(1);
  });

  it('never runs an MCP request twice under one Idempotency-Key: a JSON-RPC answer is not stored, so a repeat is 409', async () => {
    const { apiKey } = await registerAgent(http, { role: 'buyer' });
    const headers = { accept: 'application/json, text/event-stream', 'idempotency-key': 'the-same-key', authorization: `Bearer ${apiKey}` };
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const first = await http.send('POST', '/mcp', { body: message, headers });
    const again = await http.send('POST', '/mcp', { body: message, headers });
    const other = await http.send('POST', '/mcp', { body: { ...message, id: 2 }, headers });
    expect([first.status, again.status, other.status]).toEqual([200, 409, 409]);
    expect(first.json).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
    expect(again.json).toMatchObject({ code: 'idempotency/conflict', error: expect.stringContaining('already ran') });
    expect(other.json).toMatchObject({ code: 'idempotency/conflict', error: expect.stringContaining('different request') });
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('MCP over Streamable HTTP: web pages (DNS-rebinding protection)', () => {
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
  const post = (apiKey: string, headers: Record<string, string>) =>
    http.send('POST', '/mcp', { body: ping, apiKey, headers: { accept: 'application/json, text/event-stream', ...headers } });

  it('refuses a page of another site with 403 and a JSON-RPC error, before any message is read', async () => {
    const { apiKey } = await registerAgent(http, { role: 'buyer' });
    const foreign = await post(apiKey, { origin: 'https://evil.example.com' });
    expect(foreign.status).toBe(403);
    expect(foreign.json).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining('Invalid Origin header: https://evil.example.com') }, id: null });
    // A name of the attacker's that points at this machine: its Host is not a loopback name.
    const rebound = await post(apiKey, { host: `evil.example.com:${new URL(baseUrl).port}`, origin: `http://evil.example.com:${new URL(baseUrl).port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.json.error.message).toContain('Invalid Host header');
  });

  it('refuses a page of another site with 403 before its key is looked up: no key, a bad key, another environment’s key', async () => {
    const foreignPage = { accept: 'application/json, text/event-stream', origin: 'https://evil.example.com' };
    for (const authorization of [undefined, 'Bearer mk_test_notakey', `Bearer mk_live_${'A'.repeat(40)}`]) {
      const answer = await http.send('POST', '/mcp', { body: ping, headers: { ...foreignPage, ...(authorization ? { authorization } : {}) } });
      expect(answer.status, authorization).toBe(403);
      expect(answer.json, authorization).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining('Invalid Origin header: https://evil.example.com') }, id: null });
      expect(answer.headers['x-request-id'], authorization).toMatch(/^req_/);
      // Refused before the rate limiter too: nothing was counted, so no window is reported.
      expect(answer.headers['x-ratelimit-limit'], authorization).toBeUndefined();
    }
  });

  it('serves the API’s own origin and pages served from loopback names (a local MCP inspector)', async () => {
    const { apiKey } = await registerAgent(http, { role: 'buyer' });
    for (const origin of [new URL(baseUrl).origin, 'http://localhost:6274', 'http://127.0.0.1:5173']) {
      const answer = await post(apiKey, { origin });
      expect(answer.status, origin).toBe(200);
      expect(answer.json, origin).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    }
    expect((await post(apiKey, { host: `localhost:${new URL(baseUrl).port}` })).status).toBe(200);
  });
});

describe('MCP: a sale and a purchase with nothing but the tools', () => {
  it('a seller over stdio lists a product; a buyer over HTTP searches, negotiates over several rounds, orders and follows the order until it is shipped', async () => {
    const word = uniqueWord('mcp', 5);
    const sellerAgent = await registerUnlimited(http, 'seller');
    const buyerAgent = await registerUnlimited(http, 'buyer');
    const seller = await track(connectStdio(sellerAgent.apiKey));
    const buyer = await track(connectHttp(buyerAgent.apiKey));

    // The seller: the template, a feed of one product with a negotiation policy, processed.
    const template = await data(seller, 'get_feed_template', { format: 'json' });
    expect(template).toMatchObject({ format: 'json', fields: expect.any(Array) });
    const row = { sku: `MCP-${word}`, title: `${word} nitrile gloves, box of 100`, price: { amount: 1000, currency: 'EUR' }, availableQuantity: 500, minOrderQuantity: 10, shipsFrom: 'DE', floorUnitPrice: { amount: 900, currency: 'EUR' }, autoAcceptUnitPrice: { amount: 980, currency: 'EUR' } };
    const queued = await data(seller, 'upload_feed', { products: [row], filename: `${word}.json` });
    expect(queued).toMatchObject({ status: 'queued', format: 'json', filename: `${word}.json` });
    let feed = queued;
    for (let tries = 0; !['completed', 'failed'].includes(feed.status) && tries < 100; tries += 1) {
      await sleep(200);
      feed = await data(seller, 'get_feed', { feedId: queued.feedId });
    }
    expect(feed).toMatchObject({ status: 'completed', rowsSucceeded: 1, rowsFailed: 0 });
    const mine = await data(seller, 'list_my_products', { sku: row.sku });
    expect(mine.items[0].offers[0]).toMatchObject({ floorUnitPrice: { amount: 900 } });

    // The buyer: a plain-language search (the index follows the catalog within moments).
    let found: any;
    for (let tries = 0; !found && tries < 80; tries += 1) {
      const page = await data(buyer, 'search_products', { intent: `100 ${word} gloves from Germany` });
      expect(page.interpretation).toMatchObject({ quantity: 100 });
      found = page.items.find((item: any) => item.product.sellerId === sellerAgent.agentId);
      if (!found) await sleep(250);
    }
    expect(found.offer).toMatchObject({ unitPrice: { amount: 1000, currency: 'EUR' } });
    expect(found.offer.floorUnitPrice).toBeUndefined();
    const offer = await data(buyer, 'get_offer', { offerId: found.offer.offerId });
    expect(offer).toMatchObject({ offerId: found.offer.offerId, negotiable: true });
    const structured = await data(buyer, 'search_products', { query: word, filters: { currency: 'EUR', maxPrice: 1000 }, limit: 5 });
    expect(structured.items.map((item: any) => item.offer.offerId)).toContain(found.offer.offerId);
    expect(structured.interpretation).toBeUndefined();

    // The seller's policy answers at once: the list price first, then asks that come down toward a
    // private target above the floor (docs/decisions/private-concession-target.md), whatever the buyer proposed.
    const opened = await data(buyer, 'start_negotiation', { offerId: offer.offerId, quantity: 100, unitPrice: 800, message: 'Volume order' });
    expect(opened).toMatchObject({ status: 'open', turn: 'buyer', round: 2, unitPrice: 1000 });
    const countered = await data(buyer, 'counter_offer', { sessionId: opened.sessionId, unitPrice: 850 });
    expect(countered).toMatchObject({ status: 'open', turn: 'buyer', round: 4 });
    expect(countered.unitPrice).toBeGreaterThan(900);
    expect(countered.unitPrice).toBeLessThan(1000);
    expect(countered.history.map((move: any) => `${move.by}:${move.unitPrice}`)).toEqual(['buyer:800', 'seller:1000', 'buyer:850', `seller:${countered.unitPrice}`]);
    const accepted = await data(buyer, 'accept_terms', { sessionId: opened.sessionId });
    expect(accepted).toMatchObject({ status: 'accepted', unitPrice: countered.unitPrice, quantity: 100 });
    expect((await data(buyer, 'list_negotiations', { status: 'accepted' })).items.map((session: any) => session.sessionId)).toContain(opened.sessionId);

    // The order, idempotent under the caller's key: the same key answers the same order.
    const order = await data(buyer, 'place_order', { sessionId: opened.sessionId, buyerReference: 'PO-MCP-1', idempotencyKey: `order-${word}` });
    expect(order).toMatchObject({ status: 'pending', totalAmount: { amount: 100 * countered.unitPrice, currency: 'EUR' }, buyerReference: 'PO-MCP-1' });
    expect(await data(buyer, 'place_order', { sessionId: opened.sessionId, buyerReference: 'PO-MCP-1', idempotencyKey: `order-${word}` })).toEqual(order);
    const again = await toolError(buyer, 'place_order', { sessionId: opened.sessionId });
    expect(again).toMatchObject({ code: 'conflict', status: 409 });

    // The buyer follows its events from here while the seller confirms and ships.
    const newest = await data(buyer, 'list_events', { limit: 1 });
    expect(newest.items[0]).toMatchObject({ type: 'order.created', data: { orderId: order.orderId } });
    const follow = (async () => {
      const seen: string[] = [];
      let after = newest.items[0].id as string;
      for (let polls = 0; !seen.includes('order.shipped') && polls < 20; polls += 1) {
        const page = await data(buyer, 'list_events', { after, waitSeconds: 5, type: ['order.confirmed', 'order.shipped'] });
        for (const event of page.items) {
          expect(event.data.orderId).toBe(order.orderId);
          seen.push(event.type);
          after = event.id;
        }
      }
      return seen;
    })();
    const pending = await data(seller, 'list_orders', { status: 'pending' });
    expect(pending.items.map((item: any) => item.orderId)).toEqual([order.orderId]);
    expect(await data(seller, 'confirm_order', { orderId: order.orderId })).toMatchObject({ status: 'confirmed' });
    const shipped = await data(seller, 'ship_order', { orderId: order.orderId, carrier: 'DHL', trackingNumber: '00340434161094042557' });
    expect(shipped).toMatchObject({ status: 'shipped', shipping: { carrier: 'DHL', trackingNumber: '00340434161094042557' } });
    expect(await follow).toEqual(['order.confirmed', 'order.shipped']);

    // A shipped order can no longer be cancelled: the API's conflict, with the state in details.
    const late = await toolError(buyer, 'cancel_order', { orderId: order.orderId, reason: 'Too late' });
    expect(late).toMatchObject({ code: 'conflict', status: 409, requestId: expect.stringMatching(/^req_/) });
    expect(late.details[0]).toMatchObject({ path: 'status' });

    expect(await data(seller, 'mark_delivered', { orderId: order.orderId })).toMatchObject({ status: 'delivered' });
    expect(await data(buyer, 'complete_order', { orderId: order.orderId })).toMatchObject({ status: 'completed' });
    const audit = await data(buyer, 'get_order_audit', { orderId: order.orderId });
    expect(audit.items.map((entry: any) => entry.toStatus)).toEqual(['pending', 'confirmed', 'shipped', 'delivered', 'completed']);
    expect((await data(buyer, 'get_order', { orderId: order.orderId })).status).toBe('completed');
    expect((await data(buyer, 'get_product', { productId: found.product.productId })).availableQuantity).toBe(400);
    // A feed, the search index catching up and two held event reads: a bound for a loaded machine, not a target.
  }, 90_000);

  it('manages webhooks and feeds through the tools', async () => {
    const sellerAgent = await registerUnlimited(http, 'seller');
    const seller = await track(connectHttp(sellerAgent.apiKey));
    const created = await data(seller, 'create_webhook', { url: 'http://127.0.0.1:9/hooks', events: ['order.created'], secret: 'a-secret-of-16-or-more', description: 'MCP' });
    expect(created).toMatchObject({ url: 'http://127.0.0.1:9/hooks', events: ['order.created'], active: true });
    expect((await data(seller, 'list_webhooks')).items.map((item: any) => item.id)).toEqual([created.id]);
    expect(await data(seller, 'list_webhook_deliveries', { webhookId: created.id })).toEqual({ items: [], nextCursor: null });
    expect(await data(seller, 'delete_webhook', { webhookId: created.id })).toEqual({ id: created.id, deleted: true });
    expect(await toolError(seller, 'delete_webhook', { webhookId: created.id })).toMatchObject({ code: 'not-found', status: 404 });

    // A file with no valid row fails; a retry with a corrected file completes.
    const failed = await data(seller, 'upload_feed', { csv: 'sku,title,price,currency,available_quantity\nBAD-1,Broken,abc,EUR,1\n' });
    let feed = failed;
    for (let tries = 0; feed.status !== 'failed' && tries < 100; tries += 1) {
      await sleep(200);
      feed = await data(seller, 'get_feed', { feedId: failed.feedId });
    }
    expect(feed).toMatchObject({ status: 'failed', failureReason: expect.any(String) });
    const retried = await data(seller, 'retry_feed', { feedId: failed.feedId, csv: 'sku,title,price,currency,available_quantity\nGOOD-1,Fixed,1.00,EUR,1\n' });
    expect(retried).toMatchObject({ feedId: failed.feedId, status: 'queued' });
    for (let tries = 0; feed.status !== 'completed' && tries < 100; tries += 1) {
      await sleep(200);
      feed = await data(seller, 'get_feed', { feedId: failed.feedId });
    }
    expect(feed).toMatchObject({ status: 'completed', rowsSucceeded: 1, attempts: 2 });
    expect((await data(seller, 'list_feeds')).items.map((item: any) => item.feedId)).toContain(failed.feedId);
  });
});

describe('MCP: every tool’s result matches its output schema (the Client checks each one)', () => {
  it('answers the seller’s and the buyer’s views, sessions that end, cancelled orders and delivery logs', async () => {
    const word = uniqueWord('mcp', 5);
    const sellerAgent = await registerUnlimited(http, 'seller');
    const buyerAgent = await registerUnlimited(http, 'buyer');
    const seller = await track(connectHttp(sellerAgent.apiKey));
    const buyer = await track(connectHttp(buyerAgent.apiKey));
    expect(await data(seller, 'get_feed_template')).toMatchObject({ format: 'csv', content: expect.stringContaining('sku,') });
    const csv = `sku,title,price,currency,available_quantity,floor_price,auto_accept_price\nMCP-${word},${word} boots,50.00,USD,20,45.00,49.00\n`;
    const queued = await data(seller, 'upload_feed', { csv, filename: `${word}.csv` });
    let feed = queued;
    for (let tries = 0; feed.status !== 'completed' && tries < 100; tries += 1) {
      await sleep(200);
      feed = await data(seller, 'get_feed', { feedId: queued.feedId });
    }
    const [product] = (await data(seller, 'list_my_products', { sku: `MCP-${word}` })).items;
    // The seller sees its private prices; a buyer does not.
    expect((await data(seller, 'get_product', { productId: product.productId })).offers[0]).toMatchObject({ floorUnitPrice: { amount: 4500 } });
    expect(await data(seller, 'get_offer', { offerId: product.offers[0].offerId })).toMatchObject({ autoAcceptUnitPrice: { amount: 4900 } });
    expect((await data(buyer, 'get_product', { productId: product.productId })).offers[0].floorUnitPrice).toBeUndefined();

    // A session the buyer ends, another it orders and cancels.
    const first = await data(buyer, 'start_negotiation', { offerId: product.offers[0].offerId, quantity: 2, unitPrice: 4600 });
    expect(await data(seller, 'get_negotiation', { sessionId: first.sessionId })).toMatchObject({ status: 'open', turn: 'buyer', round: 2, unitPrice: 5000 });
    expect(await data(buyer, 'reject_negotiation', { sessionId: first.sessionId, message: 'Found another supplier' })).toMatchObject({ status: 'rejected', turn: null });
    const second = await data(buyer, 'start_negotiation', { offerId: product.offers[0].offerId, quantity: 2, unitPrice: 4950 });
    expect(second.status).toBe('accepted');
    const webhook = await data(buyer, 'create_webhook', { url: 'http://127.0.0.1:9/never', events: ['order.created', 'order.cancelled'], secret: 'a-secret-of-16-or-more' });
    const order = await data(buyer, 'place_order', { sessionId: second.sessionId });
    expect(await data(buyer, 'cancel_order', { orderId: order.orderId, reason: 'Budget cut' })).toMatchObject({ status: 'cancelled', cancellation: { reason: 'Budget cut' } });
    expect((await data(seller, 'list_orders', { status: 'cancelled' })).items.map((item: any) => item.orderId)).toEqual([order.orderId]);
    let deliveries: any = { items: [] };
    for (let tries = 0; deliveries.items.length < 2 && tries < 100; tries += 1) {
      await sleep(200);
      deliveries = await data(buyer, 'list_webhook_deliveries', { webhookId: webhook.id });
    }
    expect(deliveries.items.map((delivery: any) => delivery.eventType).sort()).toEqual(['order.cancelled', 'order.created']);
  });
});

describe('MCP: the API’s refusals as tool errors', () => {
  let buyer: Client;
  beforeAll(async () => {
    const agent = await registerAgent(http, { role: 'buyer' });
    buyer = await track(connectHttp(agent.apiKey));
  });

  it('checks arguments with the route’s schemas and answers validation/invalid with every problem by argument name', async () => {
    const error = await toolError(buyer, 'start_negotiation', { offerId: 'ofr_nope', quantity: 0, extra: true });
    expect(error).toMatchObject({ code: 'validation/invalid', status: 422, message: expect.stringContaining('Request validation failed') });
    expect(error.details.map((detail: any) => detail.path).sort()).toEqual(['extra', 'offerId', 'quantity']);
    const limit = await toolError(buyer, 'list_orders', { limit: 1.5 });
    expect(limit.details).toEqual([{ path: 'limit', message: expect.stringContaining('integer from 1 to 100') }]);
    const missing = await toolError(buyer, 'get_order', {});
    expect(missing.details).toEqual([{ path: 'orderId', message: 'Required (string)' }]);
    const both = await toolError(buyer, 'search_products', { intent: 'gloves', query: 'gloves' });
    expect(both).toMatchObject({ code: 'validation/invalid', details: [{ path: 'query' }] });
    const key = await toolError(buyer, 'place_order', { sessionId: 'neg_01JF3Q5Z8X2C7V9B4N6M1K0PQR', idempotencyKey: '' });
    expect(key.details).toEqual([{ path: 'idempotencyKey', message: expect.any(String) }]);
  });

  it('answers a tool of the other role with auth/forbidden, an unknown tool with not-found, an unknown record with the API’s 404', async () => {
    expect(await toolError(buyer, 'confirm_order', { orderId: 'ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR' })).toMatchObject({ code: 'auth/forbidden', status: 403, message: expect.stringContaining('seller') });
    expect(await toolError(buyer, 'upload_feed', { csv: 'sku\n' })).toMatchObject({ code: 'auth/forbidden' });
    expect(await toolError(buyer, 'drop_tables')).toMatchObject({ code: 'not-found', status: 404 });
    const unknown = await toolError(buyer, 'get_order', { orderId: 'ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR' });
    expect(unknown).toMatchObject({ code: 'not-found', status: 404, details: [], requestId: expect.stringMatching(/^req_/) });
  });
});

describe('npm run mcp (stdio)', () => {
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, [path.join(REPOSITORY_ROOT, 'bin', 'mcp.ts')], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', timeout: 30_000, input: '' });

  it('exits with a message, not a stack trace, without a key, with a refused key, or without an API', () => {
    const noKey = start({});
    expect(noKey.status).toBe(2);
    expect(noKey.stderr).toContain('MARKETPLACE_API_KEY is not set');
    const refused = start({ MARKETPLACE_API_KEY: 'mk_test_notakey', MARKETPLACE_BASE_URL: baseUrl });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('refused MARKETPLACE_API_KEY');
    const nowhere = start({ MARKETPLACE_API_KEY: 'mk_test_notakey', MARKETPLACE_BASE_URL: 'http://127.0.0.1:9' });
    expect(nowhere.status).toBe(1);
    expect(nowhere.stderr).toContain('no marketplace answered at http://127.0.0.1:9');
    const badUrl = start({ MARKETPLACE_API_KEY: 'mk_test_notakey', MARKETPLACE_BASE_URL: 'ftp://example.com' });
    expect(badUrl.status).toBe(2);
    for (const run of [noKey, refused, nowhere, badUrl]) {
      expect(run.stdout).toBe('');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('reads one JSON-RPC message a line (split across writes, CRLF too), answers requests only, ignores batches and lines that are no message, and ends with its input', async () => {
    const { apiKey } = await registerAgent(http, { role: 'buyer' });
    const child = spawn(process.execPath, [path.join(REPOSITORY_ROOT, 'bin', 'mcp.ts')], { env: { PATH: process.env.PATH ?? '', MARKETPLACE_API_KEY: apiKey, MARKETPLACE_BASE_URL: baseUrl } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdin.write('not json\n{"jsonrpc":"2.0","method":"notifications/initialized"}\r\n{"jsonrpc":"2.0","id":1,"me');
    child.stdin.write('thod":"ping"}\n[{"jsonrpc":"2.0","id":2,"method":"ping"}]\n{"jsonrpc":"2.0","id":"three","method":"resources/list"}\r\n');
    for (let tries = 0; stdout.split('\n').length < 3 && tries < 100; tries += 1) await sleep(100);
    child.stdin.end();
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    const answers = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { id: unknown });
    expect(answers.sort((a, b) => String(a.id).localeCompare(String(b.id)))).toEqual([
      { result: {}, jsonrpc: '2.0', id: 1 },
      { jsonrpc: '2.0', id: 'three', error: { code: -32601, message: 'Method not found' } },
    ]);
    expect(stderr).toContain('ignored a line of standard input that is not a JSON-RPC message');
  });

  it('starts as `npm run mcp`, with nothing but the protocol on standard output', async () => {
    const { apiKey } = await registerAgent(http, { role: 'seller' });
    const client = await track(connectStdio(apiKey, { command: 'npm', args: ['--silent', 'run', 'mcp'] }));
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...SELLER_TOOLS].sort());
    expect(await data(client, 'get_profile')).toMatchObject({ role: 'seller' });
  });
});
