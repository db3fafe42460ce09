// Lists against a local server that pages like the API: the first page by await, every item by
// for await (cursor by cursor, lazily), explicit cursors, toArray, and POST-paged search.
import { afterEach, describe, expect, it } from 'vitest';
import { Marketplace } from '../src/index.ts';
import { header, ok, scriptedServer, type ScriptedServer } from './support/scripted-server.ts';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server listing `total` orders `limit` at a time; the cursor is the next index (opaque to the client). */
async function pagedOrders(total: number) {
  const orders = Array.from({ length: total }, (_, index) => ({ orderId: `ord_${index + 1}` }));
  server = await scriptedServer((request) => {
    if (request.method === 'POST') {
      const body = JSON.parse(request.body.toString()) as { cursor?: string; limit?: number };
      const start = body.cursor === undefined ? 0 : Number(body.cursor.slice(1));
      const limit = body.limit ?? 2;
      const items = orders.slice(start, start + limit).map((order) => ({ product: order, offer: {}, score: 1 }));
      return ok({ items, nextCursor: start + limit < total ? `c${start + limit}` : null, interpretation: { keywords: ['gloves'] } });
    }
    const start = Number(request.query.get('cursor')?.slice(1) ?? 0);
    const limit = Number(request.query.get('limit') ?? 2);
    return ok({ items: orders.slice(start, start + limit), nextCursor: start + limit < total ? `c${start + limit}` : null });
  });
  return { mk: new Marketplace({ apiKey: 'mk_test_key', baseUrl: server.url }), server };
}

describe('lists', () => {
  it('await gives the first page, with hasMore and nextPage(), and lastResponse', async () => {
    const { mk, server } = await pagedOrders(5);
    const page = await mk.orders.list({ status: 'pending' });
    expect(page.items.map((order) => order.orderId)).toEqual(['ord_1', 'ord_2']);
    expect(page.nextCursor).toBe('c2');
    expect(page.hasMore).toBe(true);
    expect(page.lastResponse.requestId).toMatch(/^req_/);
    expect(Object.keys(page).sort()).toEqual(['items', 'nextCursor']);
    const second = await page.nextPage();
    const third = await second!.nextPage();
    expect(third!.items.map((order) => order.orderId)).toEqual(['ord_5']);
    expect(third!.hasMore).toBe(false);
    expect(await third!.nextPage()).toBeNull();
    expect(server.requests.map((request) => request.url)).toEqual(['/v1/orders?status=pending', '/v1/orders?status=pending&cursor=c2', '/v1/orders?status=pending&cursor=c4']);
  });

  it('for await yields every item across pages, fetching each page once, only as needed', async () => {
    const { mk, server } = await pagedOrders(5);
    const list = mk.orders.list();
    expect(server.requests).toHaveLength(0);
    const ids: string[] = [];
    for await (const order of list) ids.push(order.orderId);
    expect(ids).toEqual(['ord_1', 'ord_2', 'ord_3', 'ord_4', 'ord_5']);
    expect(server.requests).toHaveLength(3);

    const early: string[] = [];
    for await (const order of mk.orders.list()) {
      early.push(order.orderId);
      if (early.length === 3) break;
    }
    expect(early).toEqual(['ord_1', 'ord_2', 'ord_3']);
    expect(server.requests).toHaveLength(5);
  });

  it('reuses the first page when a list is awaited and then iterated', async () => {
    const { mk, server } = await pagedOrders(3);
    const list = mk.orders.list();
    expect((await list).items).toHaveLength(2);
    expect(await list.toArray()).toHaveLength(3);
    expect(server.requests).toHaveLength(2);
  });

  it('starts from an explicit cursor, honours limit, and toArray stops at its limit', async () => {
    const { mk, server } = await pagedOrders(10);
    const page = await mk.orders.list({ cursor: 'c6', limit: 3 });
    expect(page.items.map((order) => order.orderId)).toEqual(['ord_7', 'ord_8', 'ord_9']);
    expect((await mk.orders.list({ limit: 4 }).toArray({ limit: 6 })).map((order) => order.orderId)).toEqual(['ord_1', 'ord_2', 'ord_3', 'ord_4', 'ord_5', 'ord_6']);
    expect(server.requests.map((request) => request.url)).toEqual(['/v1/orders?cursor=c6&limit=3', '/v1/orders?limit=4', '/v1/orders?limit=4&cursor=c4']);
    let pages = 0;
    for await (const listed of mk.orders.list({ limit: 4 }).pages()) pages += listed.items.length > 0 ? 1 : 0;
    expect(pages).toBe(3);
  });

  it('pages a search by POSTing the same body with the cursor, each page with its own Idempotency-Key', async () => {
    const { mk, server } = await pagedOrders(5);
    const search = mk.search.intent({ intent: 'nitrile gloves', limit: 2 }, { idempotencyKey: 'first-page' });
    expect((await search).interpretation.keywords).toEqual(['gloves']);
    expect(await search.toArray()).toHaveLength(5);
    const bodies = server.requests.map((request) => JSON.parse(request.body.toString()));
    expect(bodies).toEqual([
      { intent: 'nitrile gloves', limit: 2 },
      { intent: 'nitrile gloves', limit: 2, cursor: 'c2' },
      { intent: 'nitrile gloves', limit: 2, cursor: 'c4' },
    ]);
    const keys = server.requests.map((request) => header(request, 'idempotency-key'));
    expect(keys[0]).toBe('first-page');
    expect(new Set(keys).size).toBe(3);
  });

  it('sends no Idempotency-Key on any page of a search when the caller says null', async () => {
    const { mk, server } = await pagedOrders(5);
    expect(await mk.search.intent({ intent: 'nitrile gloves', limit: 2 }, { idempotencyKey: null }).toArray()).toHaveLength(5);
    expect(server.requests.map((request) => header(request, 'idempotency-key'))).toEqual([undefined, undefined, undefined]);
  });
});
