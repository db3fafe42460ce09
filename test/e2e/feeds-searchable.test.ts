// A feed reads `completed` only once search has its products (contract §5.6): over HTTP against the
// local runtime, sellers upload in parallel, each polls its feed to `completed`, and a search made the
// moment it reads so finds every product of the feed, as the feed wrote it (new products and changed
// prices alike), upload after upload.
import { describe, expect, it } from 'vitest';
import { registerUnlimited, uploadCsv, waitForFeedProgress } from '../support/catalog.ts';
import type { TestResponse } from '../support/http-client.ts';
import { newClient } from '../support/runtime.ts';

const client = newClient();
const ROWS = 30;
const SELLERS = 4;
const ROUNDS = 3;

/** Polls the feed as fast as an impatient agent would, until it has completed or failed. */
function whenDone(apiKey: string, feedId: string) {
  return waitForFeedProgress(
    async () => {
      const response = await client.get(`/v1/seller/feeds/${feedId}`, { apiKey });
      if (response.status !== 200) throw new Error(`GET feed: ${response.status} ${response.text}`);
      return response.json.data;
    },
    (feed) => feed.status === 'completed' || feed.status === 'failed',
    { intervalMs: 20 },
  );
}

/** Every active product of a seller that search finds now, by sku, with its offer's unit price. */
async function searchable(apiKey: string, sellerId: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  let cursor: string | null = null;
  do {
    const response: TestResponse = await client.post('/v1/search', { filters: { sellerId }, sort: 'newest', limit: 100, ...(cursor ? { cursor } : {}) }, { apiKey });
    expect(response.status, response.text).toBe(200);
    for (const item of response.json.data.items) found.set(item.product.sku, item.offer.unitPrice.amount);
    cursor = response.json.data.nextCursor;
  } while (cursor);
  return found;
}

describe('a completed feed is searchable', () => {
  it('finds every product of a feed the moment it reads completed, round after round, with parallel uploads', { timeout: 180_000 }, async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    const sellers = await Promise.all(Array.from({ length: SELLERS }, () => registerUnlimited(client, 'seller')));
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all(
        sellers.map(async (seller, index) => {
          // New skus each round, and every earlier sku again at a new price: both must be found as written.
          const rows = Array.from({ length: (round + 1) * ROWS }, (_, n) => ({ sku: `SRCH-${n}`, price: 100 * (round + 1) + n }));
          const csv = ['sku,title,price,currency,available_quantity,category', ...rows.map((row) => `${row.sku},Searchable widget ${row.sku},${(row.price / 100).toFixed(2)},EUR,50,tools/widgets`)].join('\n');
          // Half the sellers upload CSV, half JSON.
          const upload =
            index % 2 === 0
              ? await uploadCsv(client, seller.apiKey, `${csv}\n`)
              : await client.post('/v1/seller/feeds', { products: rows.map((row) => ({ sku: row.sku, title: `Searchable widget ${row.sku}`, price: { amount: row.price, currency: 'EUR' }, availableQuantity: 50, category: 'tools/widgets' })) }, { apiKey: seller.apiKey });
          expect(upload.status, upload.text).toBe(202);
          const feed = await whenDone(seller.apiKey, upload.json.data.feedId);
          expect(feed).toMatchObject({ status: 'completed', rowsSucceeded: rows.length, rowsFailed: 0 });
          const found = await searchable(buyer.apiKey, seller.agentId);
          expect(Object.fromEntries(found)).toEqual(Object.fromEntries(rows.map((row) => [row.sku, row.price])));
        }),
      );
    }
  });
});
