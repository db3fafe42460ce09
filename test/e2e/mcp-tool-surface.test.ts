// The MCP tool surface as an agent meets it, with the MCP SDK's own Client against POST /mcp of the
// local runtime: what tools/list costs a role (its size, measured on the wire), arguments named as the
// API names its ids, compact search results, a repeated complete_order, and a request id in every
// error (docs/decisions/mcp-compact-tool-list.md).
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUnlimited } from '../support/catalog.ts';
import { registerAgent } from '../support/http-client.ts';
import { connectHttp, data, toolError } from '../support/mcp.ts';
import { newClient } from '../support/runtime.ts';
import { acceptedSession, listProduct, orderAction } from '../support/trade.ts';

const http = newClient();
/** The bound of issue #34: what one role's tools/list may weigh. */
const TOOLS_LIST_BOUND_BYTES = 60 * 1024;

const clients: Client[] = [];
async function track(client: Promise<Client>): Promise<Client> {
  const connected = await client;
  clients.push(connected);
  return connected;
}
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

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
    const word = `srf${randomBytes(4).toString('hex').replace(/[0-9]/g, (digit) => 'ghijklmnop'[Number(digit)] as string)}`;
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
