// The MCP tool surface as an agent meets it, with the MCP SDK's own Client against POST /mcp of the
// local runtime: what tools/list costs a role (its size, measured on the wire), arguments named as the
// API names its ids, compact search results, a repeated complete_order, a request id in every error
// (docs/decisions/mcp-compact-tool-list.md), and the tools of a restricted key, the same over stdio.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUnlimited } from '../support/catalog.ts';
import { registerAgent } from '../support/http-client.ts';
import { BUYER_TOOLS, SELLER_TOOLS, closedAfterAll, connectHttp, connectStdio, data, toolError } from '../support/mcp.ts';
import { newClient } from '../support/runtime.ts';
import { acceptedSession, listProduct, orderAction, uniqueWord } from '../support/trade.ts';

const http = newClient();
/** The bound of issue #34: what one role's tools/list may weigh (60 KB, read as 60,000 bytes: the stricter reading). */
const TOOLS_LIST_BOUND_BYTES = 60_000;

const track = closedAfterAll();

/** The tools/list answer of POST /mcp as it crosses the wire: its body's bytes and its tools. */
async function toolsList(apiKey: string): Promise<{ bytes: number; tools: any[] }> {
  const response = await http.send('POST', '/mcp', {
    apiKey,
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    headers: { accept: 'application/json, text/event-stream', 'accept-encoding': 'identity' },
  });
  expect(response.status, response.text).toBe(200);
  return { bytes: Buffer.byteLength(response.text, 'utf8'), tools: response.json.result.tools };
}

describe('MCP: a tool list an agent can afford', () => {
  let buyer: { agentId: string; apiKey: string };
  let seller: { agentId: string; apiKey: string };
  beforeAll(async () => {
    buyer = await registerAgent(http, { role: 'buyer' });
    seller = await registerAgent(http, { role: 'seller' });
  });

  it('lists each role’s tools in at most 60 KB', async () => {
    for (const key of [buyer.apiKey, seller.apiKey]) {
      const { bytes, tools } = await toolsList(key);
      expect(tools.length).toBeGreaterThan(15);
      expect(bytes).toBeLessThanOrEqual(TOOLS_LIST_BOUND_BYTES);
    }
  });

  it('names id arguments as the API names the ids, and tools rather than REST paths', async () => {
    const { tools } = await toolsList(seller.apiKey);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    for (const tool of tools) {
      expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).not.toContain('id');
      expect(JSON.stringify([tool.description, tool.inputSchema]), tool.name).not.toMatch(/\/v1\/|\b(GET|POST|PATCH|DELETE) \//);
    }
    expect(byName.get_order.inputSchema.required).toEqual(['orderId']);
    expect(byName.get_offer.inputSchema.required).toEqual(['offerId']);
    expect(byName.get_product.inputSchema.required).toEqual(['productId']);
    expect(byName.get_feed.inputSchema.required).toEqual(['feedId']);
    expect(byName.retry_feed.inputSchema.required).toEqual(['feedId']);
    expect(byName.get_negotiation.inputSchema.required).toEqual(['sessionId']);
    expect(byName.delete_webhook.inputSchema.required).toEqual(['webhookId']);
    expect(byName.submit_quote.inputSchema.required).toEqual(expect.arrayContaining(['rfqId', 'unitPrice']));
    expect(byName.list_rfqs.inputSchema.properties.rfqId).toMatchObject({ type: 'string', pattern: expect.stringContaining('rfq_') });
    // Result schemas are compact: shapes, no descriptions or patterns, and still objects at the root.
    for (const tool of tools) {
      expect(tool.outputSchema.type, tool.name).toBe('object');
      expect(JSON.stringify(tool.outputSchema), tool.name).not.toMatch(/"(description|pattern|examples?)":"|"maxLength":/);
    }
    expect(byName.get_order.outputSchema.properties.status.enum).toContain('completed');
  });

  it('answers a wrong id argument by its name', async () => {
    const client = await track(connectHttp(buyer.apiKey));
    const error = await toolError(client, 'get_offer', { offerId: 'ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR' });
    expect(error).toMatchObject({ code: 'validation/invalid', details: [{ path: 'offerId' }] });
    expect(await toolError(client, 'get_order', { id: 'ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR' })).toMatchObject({ code: 'validation/invalid' });
  });
});

describe('MCP: search results are compact unless asked', () => {
  it('leaves descriptions, image URLs and timestamps out by default, and gives every field with fields: full', async () => {
    const word = uniqueWord('srf');
    const listing = await listProduct(http, { title: `${word} safety goggles`, description: 'Anti-fog, EN 166', imageUrls: ['https://img.example.com/g.png'] });
    const buyer = await registerUnlimited(http, 'buyer');
    const client = await track(connectHttp(buyer.apiKey));
    let compact: any;
    for (let tries = 0; !compact?.items.length && tries < 80; tries += 1) {
      compact = await data(client, 'search_products', { query: word });
      if (!compact.items.length) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const [item] = compact.items;
    expect(item.product).toMatchObject({ productId: listing.productId, sku: listing.sku, title: `${word} safety goggles` });
    expect(item.offer).toMatchObject({ offerId: listing.offerId });
    for (const field of ['description', 'imageUrls', 'createdAt', 'updatedAt']) expect(item.product[field], field).toBeUndefined();
    expect(item.offer.createdAt).toBeUndefined();
    const full = await data(client, 'search_products', { query: word, fields: 'full' });
    expect(full.items[0].product).toMatchObject({ description: 'Anti-fog, EN 166', imageUrls: ['https://img.example.com/g.png'], createdAt: expect.any(String) });
    const intent = await data(client, 'search_products', { intent: `${word} goggles` });
    expect(intent.items[0]?.product.description).toBeUndefined();
  });
});

describe('MCP: repeats and errors an agent can act on', () => {
  it('answers a repeated complete_order with the completed order', async () => {
    const listing = await listProduct(http);
    const buyer = await registerUnlimited(http, 'buyer');
    const sessionId = await acceptedSession(http, listing, buyer);
    const placed = await http.send('POST', '/v1/create-order', { apiKey: buyer.apiKey, body: { sessionId } });
    expect(placed.status, placed.text).toBe(201);
    const orderId = placed.json.data.orderId as string;
    for (const action of ['confirm', 'ship', 'deliver']) {
      const moved = await orderAction(http, listing.seller.apiKey, orderId, action, action === 'ship' ? { carrier: 'DHL', trackingNumber: '123' } : undefined);
      expect(moved.status, moved.text).toBe(200);
    }
    const client = await track(connectHttp(buyer.apiKey));
    const completed = await data(client, 'complete_order', { orderId });
    expect(completed).toMatchObject({ orderId, status: 'completed', items: [{ productId: listing.productId, sku: listing.sku, title: 'Nitrile gloves, box of 100' }] });
    expect(await data(client, 'complete_order', { orderId })).toEqual(completed);
    // Any other conflict stays one: a cancel of the completed order.
    expect(await toolError(client, 'cancel_order', { orderId })).toMatchObject({ code: 'conflict', requestId: expect.stringMatching(/^req_/) });
  });

  it('names a request id in every error: arguments refused, a tool of another role, no such tool, the API’s refusal', async () => {
    const buyer = await registerAgent(http, { role: 'buyer' });
    const client = await track(connectHttp(buyer.apiKey));
    const errors = [
      await toolError(client, 'start_negotiation', { offerId: 'nope', quantity: 0 }),
      await toolError(client, 'confirm_order', { orderId: 'ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR' }),
      await toolError(client, 'drop_tables'),
      await toolError(client, 'get_order', { orderId: 'ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR' }),
    ];
    expect(errors.map((error) => error.code)).toEqual(['validation/invalid', 'auth/forbidden', 'not-found', 'not-found']);
    for (const error of errors) expect(error.requestId).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});

/** A restricted key of the agent, made with its main key. */
async function restrictedKey(mainKey: string, scopes: string[], limits?: Record<string, unknown>): Promise<string> {
  const created = await http.post('/v1/agents/me/keys', { name: `MCP program ${randomBytes(2).toString('hex')}`, scopes, ...(limits ? { limits } : {}) }, { apiKey: mainKey });
  expect(created.status, created.text).toBe(201);
  return created.json.data.apiKey as string;
}

const namesOf = async (apiKey: string) => (await toolsList(apiKey)).tools.map((tool: { name: string }) => tool.name);

describe('MCP: the tools a key may call', () => {
  const APPROVAL_TOOLS = ['list_approvals', 'approve_order', 'decline_order'];

  it('lists a restricted key only the tools its scopes allow, and refuses the others with auth/insufficient-scope', async () => {
    const buyer = await registerAgent(http, { role: 'buyer' });
    const negotiator = await restrictedKey(buyer.apiKey, ['catalog:read', 'negotiations:write']);
    const names = await namesOf(negotiator);
    expect(names).toEqual(expect.arrayContaining(['get_profile', 'search_products', 'get_offer', 'get_product', 'start_negotiation', 'counter_offer', 'accept_terms', 'list_negotiations', 'get_negotiation']));
    for (const name of ['place_order', 'preview_order', 'list_orders', 'get_order', 'complete_order', 'list_events', 'create_webhook', ...APPROVAL_TOOLS]) expect(names, name).not.toContain(name);

    const client = await track(connectHttp(negotiator));
    const refused = await toolError(client, 'place_order', { sessionId: 'neg_01JF3Q5Z8X2C7V9B4N6M1K0PQR' });
    expect(refused).toMatchObject({ code: 'auth/insufficient-scope', status: 403, details: [{ path: 'scope', message: 'needs orders:write' }], requestId: expect.stringMatching(/^req_/) });
    expect(refused.message).toContain('owner');
    // A read scope is implied by its write scope: the negotiator reads its negotiations.
    expect(await data(client, 'list_negotiations')).toEqual({ items: [], nextCursor: null });
  });

  it('lists and refuses over stdio exactly what POST /mcp does for the same restricted key: the server reads the key’s scopes from GET /v1/agents/me', async () => {
    const buyer = await registerAgent(http, { role: 'buyer' });
    const seller = await registerAgent(http, { role: 'seller' });
    const negotiator = await restrictedKey(buyer.apiKey, ['catalog:read', 'negotiations:write']);
    const feedReader = await restrictedKey(seller.apiKey, ['feeds:read', 'orders:read']);
    for (const [apiKey, roleTools] of [[negotiator, BUYER_TOOLS], [feedReader, SELLER_TOOLS]] as const) {
      const overHttp = await namesOf(apiKey);
      const stdio = await track(connectStdio(apiKey));
      const overStdio = (await stdio.listTools()).tools.map((tool) => tool.name);
      expect(overStdio).toEqual(overHttp);
      expect(overStdio.length).toBeLessThan(roleTools.length);
      expect(overStdio).toContain('get_profile');
      const profile = await data(stdio, 'get_profile');
      expect(profile.key).toMatchObject({ kind: 'restricted', scopes: apiKey === negotiator ? ['catalog:read', 'negotiations:write'] : ['feeds:read', 'orders:read'] });
    }
    const stdio = await track(connectStdio(negotiator));
    const names = (await stdio.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['search_products', 'start_negotiation', 'counter_offer', 'list_negotiations']));
    for (const name of ['place_order', 'list_orders', 'list_events', 'create_webhook', 'list_approvals']) expect(names, name).not.toContain(name);
    // A tool outside the key's scopes is refused over stdio in the API's words, before any request.
    expect(await toolError(stdio, 'place_order', { sessionId: 'neg_01JF3Q5Z8X2C7V9B4N6M1K0PQR' })).toMatchObject({
      code: 'auth/insufficient-scope',
      status: 403,
      details: [{ path: 'scope', message: 'needs orders:write' }],
      requestId: expect.stringMatching(/^req_/),
    });
    expect(await data(stdio, 'list_negotiations')).toEqual({ items: [], nextCursor: null });
    const feeds = await track(connectStdio(feedReader));
    const sellerNames = (await feeds.listTools()).tools.map((tool) => tool.name);
    expect(sellerNames).toEqual(expect.arrayContaining(['get_feed', 'list_feeds', 'list_orders', 'get_order']));
    for (const name of ['upload_feed', 'retry_feed', 'confirm_order', 'ship_order', 'search_products', 'submit_quote']) expect(sellerNames, name).not.toContain(name);
  });

  it('gives the approval tools to a buyer’s main key only, and preview_order to buyers with orders:write', async () => {
    const buyer = await registerAgent(http, { role: 'buyer' });
    const seller = await registerAgent(http, { role: 'seller' });
    const main = await namesOf(buyer.apiKey);
    expect(main).toEqual(expect.arrayContaining([...APPROVAL_TOOLS, 'preview_order', 'place_order']));
    const program = await namesOf(await restrictedKey(buyer.apiKey, ['catalog:read', 'negotiations:write', 'orders:write']));
    expect(program).toEqual(expect.arrayContaining(['preview_order', 'place_order', 'list_orders']));
    for (const name of APPROVAL_TOOLS) expect(program, name).not.toContain(name);
    const sellerTools = await namesOf(seller.apiKey);
    for (const name of [...APPROVAL_TOOLS, 'preview_order']) expect(sellerTools, name).not.toContain(name);
    // Every tool a restricted key can be refused says what the refusal means and what to do.
    const { tools } = await toolsList(buyer.apiKey);
    for (const tool of tools.filter((candidate: { name: string }) => candidate.name !== 'get_profile')) expect(tool.description, tool.name).toContain('auth/insufficient-scope');
    const byName = Object.fromEntries(tools.map((tool: any) => [tool.name as string, tool]));
    for (const name of ['place_order', 'preview_order']) expect(byName[name].description, name).toMatch(/spending-limit[\s\S]*awaiting_approval|awaiting_approval[\s\S]*spending-limit/);
  });

  it('previews, places and approves an order over a key’s approvalAbove; a restricted key may not approve it', async () => {
    const EUR = (amount: number) => ({ amount, currency: 'EUR' });
    const listing = await listProduct(http, { price: EUR(1000), availableQuantity: 1000, minOrderQuantity: 1 });
    const buyer = await registerUnlimited(http, 'buyer');
    const programKey = await restrictedKey(buyer.apiKey, ['catalog:read', 'negotiations:write', 'orders:write'], { approvalAbove: EUR(5000), maxOrderAmount: EUR(100_000) });
    const program = await track(connectHttp(programKey));
    const owner = await track(connectHttp(buyer.apiKey));
    const session = async (quantity: number) => {
      const started = await data(program, 'start_negotiation', { offerId: listing.offerId, quantity });
      if (started.status !== 'accepted') expect((await http.send('POST', `/v1/negotiate/${started.sessionId}/accept`, { apiKey: listing.seller.apiKey })).status).toBe(200);
      return started.sessionId as string;
    };

    const over = await session(200);
    expect(await toolError(program, 'preview_order', { sessionId: over })).toMatchObject({ code: 'spending-limit', details: [{ path: 'limits.maxOrderAmount' }], requestId: expect.stringMatching(/^req_/) });
    const sessionId = await session(10);
    const preview = await data(program, 'preview_order', { sessionId, buyerReference: 'PO-7' });
    expect(preview).toMatchObject({ dryRun: true, status: 'awaiting_approval', totalAmount: EUR(10_000), items: [{ sku: listing.sku, quantity: 10 }], limits: { approvalAbove: { required: true } } });
    expect((await data(owner, 'list_orders')).items).toEqual([]);

    const placed = await data(program, 'place_order', { sessionId, buyerReference: 'PO-7' });
    expect(placed).toMatchObject({ status: 'awaiting_approval', orderId: expect.stringMatching(/^ord_/) });
    expect(await toolError(program, 'approve_order', { orderId: placed.orderId })).toMatchObject({ code: 'auth/insufficient-scope', details: [{ path: 'scope', message: 'needs main' }] });
    const queue = await data(owner, 'list_approvals');
    expect(queue.items.map((order: { orderId: string }) => order.orderId)).toEqual([placed.orderId]);
    expect(queue.items[0].approval).toMatchObject({ keyName: expect.stringContaining('MCP program') });
    expect(await data(owner, 'approve_order', { orderId: placed.orderId })).toMatchObject({ orderId: placed.orderId, status: 'pending' });
    expect((await data(owner, 'list_approvals')).items).toEqual([]);
  });
});

describe('MCP: the sandbox’s tools on a test key', () => {
  it('lists trigger_event to both roles and advance_order to buyers, and runs them through the test helpers', async () => {
    const buyer = await registerUnlimited(http, 'buyer');
    const seller = await registerAgent(http, { role: 'seller' });
    expect(buyer.apiKey.startsWith('mk_test_')).toBe(true);
    expect(await namesOf(buyer.apiKey)).toEqual(expect.arrayContaining(['trigger_event', 'advance_order']));
    const sellerTools = await namesOf(seller.apiKey);
    expect(sellerTools).toContain('trigger_event');
    expect(sellerTools).not.toContain('advance_order');

    const client = await track(connectHttp(buyer.apiKey));
    const sample = await data(client, 'trigger_event', { type: 'order.shipped' });
    expect(sample).toMatchObject({ id: expect.stringMatching(/^evt_/), type: 'order.shipped', data: { sample: true } });
    const newest = await data(client, 'list_events', { limit: 1, type: ['order.shipped'] });
    expect(newest.items[0]).toMatchObject({ id: sample.id, data: { sample: true } });

    // advance_order reaches its route: an order of another seller than the house seller is refused there.
    const listing = await listProduct(http);
    const sessionId = await acceptedSession(http, listing, buyer);
    const placed = await data(client, 'place_order', { sessionId });
    const refused = await toolError(client, 'advance_order', { orderId: placed.orderId, to: 'shipped' });
    expect(refused).toMatchObject({ status: 422, requestId: expect.stringMatching(/^req_/) });
    expect(await toolError(client, 'advance_order', { orderId: placed.orderId, to: 'lost' })).toMatchObject({ code: 'validation/invalid', details: [{ path: 'to' }] });
  });
});
