// Search over HTTP against the local runtime: every filter alone and combined, each sort, paging while
// a feed changes the catalog, the 422s, freshness after a feed completes, and intents with their
// interpretation. Each test loads its own sellers and searches within them (sellerId, a unique word
// or brand), so products of other test files never interfere.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { registerUnlimited, waitForFeed } from '../support/catalog.ts';
import { OpenApiResponseValidator } from '../support/openapi-validator.ts';
import { newClient } from '../support/runtime.ts';

const client = newClient();
const uniqueWord = () => `zq${randomBytes(5).toString('hex').replace(/[0-9]/g, (digit) => 'abcdefghij'[Number(digit)] as string)}`;

interface Row {
  sku: string;
  title: string;
  price: { amount: number; currency: string };
  availableQuantity: number;
  [field: string]: unknown;
}

async function loadFeed(apiKey: string, products: Row[]) {
  const upload = await client.send('POST', '/v1/seller/feeds', { apiKey, body: { products } });
  expect(upload.status, upload.text).toBe(202);
  const feed = await waitForFeed(client, apiKey, upload.json.data.feedId);
  expect(feed.status).toBe('completed');
  expect(feed.rowsFailed).toBe(0);
  return feed;
}

async function search(apiKey: string, body: Record<string, unknown>) {
  const response = await client.send('POST', '/v1/search', { apiKey, body });
  expect(response.status, response.text).toBe(200);
  return response.json.data as { items: any[]; nextCursor: string | null };
}

/** Polls until the search returns `count` items (the index follows the stream within seconds). */
async function searchUntil(apiKey: string, body: Record<string, unknown>, count: number, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await search(apiKey, { limit: 100, ...body });
    if (page.items.length === count) return page;
    if (Date.now() > deadline) throw new Error(`search ${JSON.stringify(body)}: ${page.items.length} items, expected ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

async function allPages(apiKey: string, body: Record<string, unknown>, between?: (page: number) => Promise<void>) {
  const items: any[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page += 1) {
    const result = await search(apiKey, { ...body, ...(cursor ? { cursor } : {}) });
    items.push(...result.items);
    if (!result.nextCursor) return items;
    cursor = result.nextCursor;
    if (between) await between(page);
  }
  throw new Error('too many pages');
}

const ids = (items: any[]) => items.map((item) => item.product.sku as string);

describe('POST /v1/search', () => {
  it('applies every filter alone and combined, and sorts', async () => {
    const word = uniqueWord();
    const seller = await registerUnlimited(client, 'seller');
    const other = await registerUnlimited(client, 'seller');
    const buyer = await registerUnlimited(client, 'buyer');
    const rows: Row[] = [
      { sku: 'F-1', title: `${word} nitrile gloves`, category: 'safety/gloves', brand: 'Medix', price: { amount: 10, currency: 'USD' }, availableQuantity: 5000, minOrderQuantity: 100, leadTimeDays: 3, shipsFrom: 'DE', attributes: { material: 'nitrile', powderFree: true, thicknessMm: 0.1 } },
      { sku: 'F-2', title: `${word} latex gloves`, category: 'safety/gloves/latex', brand: 'SafeHand', price: { amount: 25, currency: 'USD' }, availableQuantity: 100, leadTimeDays: 12, shipsFrom: 'US', attributes: { material: 'latex', powderFree: false } },
      { sku: 'F-3', title: `${word} safety goggles`, category: 'safety/eyewear', brand: 'Medix', price: { amount: 900, currency: 'EUR' }, availableQuantity: 40, leadTimeDays: 7, shipsFrom: 'DE', attributes: { lens: 'clear' } },
      { sku: 'F-4', title: `${word} copy paper`, category: 'office/paper', brand: 'PaperWorks', price: { amount: 450, currency: 'EUR' }, availableQuantity: 900, leadTimeDays: 1, shipsFrom: 'NL' },
      { sku: 'F-5', title: `${word} vinyl gloves`, category: 'safety-gear', brand: 'medix', price: { amount: 5, currency: 'USD' }, availableQuantity: 0, leadTimeDays: 30, shipsFrom: 'CN' },
    ];
    await loadFeed(seller.apiKey, rows);
    await loadFeed(other.apiKey, [{ sku: 'O-1', title: `${word} nitrile gloves from another seller`, category: 'safety/gloves', price: { amount: 11, currency: 'USD' }, availableQuantity: 10 }]);
    const mine = { sellerId: seller.agentId };
    await searchUntil(buyer.apiKey, { query: word }, 6);

    const skus = async (filters: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      ids((await search(buyer.apiKey, { filters: { ...mine, ...filters }, limit: 100, ...extra })).items).sort();
    expect(await skus({})).toEqual(['F-1', 'F-2', 'F-3', 'F-4', 'F-5']);
    expect(await skus({ sellerId: other.agentId })).toEqual(['O-1']);
    expect(await skus({ category: 'safety' })).toEqual(['F-1', 'F-2', 'F-3']); // a path prefix, not safety-gear
    expect(await skus({ category: 'safety/gloves' })).toEqual(['F-1', 'F-2']);
    expect(await skus({ brand: 'MEDIX' })).toEqual(['F-1', 'F-3', 'F-5']);
    expect(await skus({ currency: 'EUR' })).toEqual(['F-3', 'F-4']);
    expect(await skus({ currency: 'USD', minPrice: 10 })).toEqual(['F-1', 'F-2']);
    expect(await skus({ currency: 'USD', maxPrice: 10 })).toEqual(['F-1', 'F-5']);
    expect(await skus({ currency: 'USD', minPrice: 6, maxPrice: 24 })).toEqual(['F-1']);
    expect(await skus({ minAvailableQuantity: 100 })).toEqual(['F-1', 'F-2', 'F-4']);
    expect(await skus({ shipsFrom: 'DE' })).toEqual(['F-1', 'F-3']);
    expect(await skus({ maxLeadTimeDays: 7 })).toEqual(['F-1', 'F-3', 'F-4']);
    expect(await skus({ attributes: { material: 'NITRILE' } })).toEqual(['F-1']);
    expect(await skus({ attributes: { powderFree: false } })).toEqual(['F-2']);
    expect(await skus({ attributes: { thicknessMm: 0.1 } })).toEqual(['F-1']);
    expect(await skus({ category: 'safety', brand: 'Medix', shipsFrom: 'DE', maxLeadTimeDays: 5, currency: 'USD', maxPrice: 50, minAvailableQuantity: 1000 })).toEqual(['F-1']);
    expect(await skus({}, { query: 'gloves' })).toEqual(['F-1', 'F-2', 'F-5']);
    expect(await skus({}, { query: 'nitrile glvoes' })).toEqual(['F-1']); // a typo corrected
    expect(await skus({}, { query: 'glov' })).toEqual(['F-1', 'F-2', 'F-5']); // the last word as a prefix

    const order = async (sort: string, filters: Record<string, unknown> = {}, query?: string) =>
      ids((await search(buyer.apiKey, { filters: { ...mine, ...filters }, sort, limit: 100, ...(query ? { query } : {}) })).items);
    expect(await order('price_asc', { currency: 'USD' })).toEqual(['F-5', 'F-1', 'F-2']);
    expect(await order('price_desc', { currency: 'USD' })).toEqual(['F-2', 'F-1', 'F-5']);
    expect(await order('price_asc')).toEqual(['F-4', 'F-3', 'F-5', 'F-1', 'F-2']); // within each currency
    expect(await order('newest')).toEqual(['F-5', 'F-4', 'F-3', 'F-2', 'F-1']);
    expect(await order('lead_time')).toEqual(['F-4', 'F-1', 'F-3', 'F-2', 'F-5']);
    const relevance = (await search(buyer.apiKey, { query: `${word} nitrile`, filters: mine })).items;
    expect(relevance[0].product.sku).toBe('F-1');
    expect(relevance[0].score).toBeGreaterThan(0);

    // What a buyer sees: public product and offer, no private negotiation prices anywhere.
    const [item] = (await search(buyer.apiKey, { query: word, filters: { ...mine, shipsFrom: 'NL' } })).items;
    expect(item.product).toMatchObject({ sku: 'F-4', sellerId: seller.agentId, status: 'active', price: { amount: 450, currency: 'EUR' } });
    expect(item.offer).toMatchObject({ productId: item.product.productId, status: 'active', unitPrice: { amount: 450, currency: 'EUR' } });
    expect(JSON.stringify(item)).not.toMatch(/floorUnitPrice|autoAcceptUnitPrice|standingOfferId/);
  });

  it('bounds prices per unit sold, or per piece with pricePer: piece (the price ÷ packSize), and shows packSize', async () => {
    const word = uniqueWord();
    const seller = await registerUnlimited(client, 'seller');
    const buyer = await registerUnlimited(client, 'buyer');
    await loadFeed(seller.apiKey, [
      { sku: 'PK-100', title: `${word} nitrile gloves, box of 100`, unit: 'box', packSize: 100, price: { amount: 900, currency: 'EUR' }, availableQuantity: 50 },
      { sku: 'PK-50', title: `${word} nitrile gloves, box of 50`, unit: 'box', packSize: 50, price: { amount: 800, currency: 'EUR' }, availableQuantity: 50 },
      { sku: 'PK-1', title: `${word} nitrile glove`, price: { amount: 12, currency: 'EUR' }, availableQuantity: 5000 },
    ]);
    await searchUntil(buyer.apiKey, { query: word }, 3);
    const skus = async (filters: Record<string, unknown>) => ids((await search(buyer.apiKey, { query: word, filters: { currency: 'EUR', ...filters }, limit: 100 })).items).sort();
    expect(await skus({ maxPrice: 10, pricePer: 'piece' })).toEqual(['PK-100']); // 9.00 ÷ 100 = 0.09 a piece
    expect(await skus({ maxPrice: 16, pricePer: 'piece' })).toEqual(['PK-1', 'PK-100', 'PK-50']);
    expect(await skus({ minPrice: 10, pricePer: 'piece' })).toEqual(['PK-1', 'PK-50']);
    expect(await skus({ maxPrice: 800 })).toEqual(['PK-1', 'PK-50']); // per unit sold, the default
    expect(await skus({ maxPrice: 800, pricePer: 'unit' })).toEqual(['PK-1', 'PK-50']);
    const items = (await search(buyer.apiKey, { query: word, limit: 100 })).items;
    expect(Object.fromEntries(items.map((item: any) => [item.product.sku, item.product.packSize]))).toEqual({ 'PK-100': 100, 'PK-50': 50, 'PK-1': 1 });
    const [boxed] = (await search(buyer.apiKey, { query: word, filters: { currency: 'EUR', maxPrice: 10, pricePer: 'piece' } })).items;
    expect(boxed.matched.filters).toEqual(['maxPrice', 'currency']);
    for (const [filters, path] of [[{ pricePer: 'piece' }, 'filters.pricePer'], [{ currency: 'EUR', maxPrice: 10, pricePer: 'box' }, 'filters.pricePer']] as const) {
      const response = await client.send('POST', '/v1/search', { apiKey: buyer.apiKey, body: { filters } });
      expectError(response, 422, 'validation/invalid');
      expect(response.json.details.map((detail: { path: string }) => detail.path)).toContain(path);
    }
  });

  it('returns whole items by default and compact ones with fields: compact, both as the document describes them', async () => {
    const validator = await OpenApiResponseValidator.create((await client.get('/v1/openapi.json')).json);
    const word = uniqueWord();
    const seller = await registerUnlimited(client, 'seller');
    const buyer = await registerUnlimited(client, 'buyer');
    await loadFeed(seller.apiKey, [{ sku: 'C-1', title: `${word} nitrile gloves`, description: 'Powder-free', unit: 'box', packSize: 100, price: { amount: 900, currency: 'EUR' }, availableQuantity: 50, imageUrls: ['https://cdn.example.com/c1.jpg'] }]);
    await searchUntil(buyer.apiKey, { query: word }, 1);
    for (const [path, body] of [['/v1/search', { query: word }], ['/v1/search-intent', { intent: `${word} nitrile gloves under 10 EUR a box` }]] as const) {
      const full = await client.send('POST', path, { apiKey: buyer.apiKey, body });
      const compact = await client.send('POST', path, { apiKey: buyer.apiKey, body: { ...body, fields: 'compact' } });
      expect(validator.problems('POST', path, full)).toEqual([]);
      expect(validator.problems('POST', path, compact)).toEqual([]);
      const [whole] = full.json.data.items;
      const [small] = compact.json.data.items;
      expect(Object.keys(whole.product)).toEqual(expect.arrayContaining(['description', 'imageUrls', 'status', 'sourceFeedId', 'createdAt', 'updatedAt']));
      expect(Object.keys(small.product).sort()).toEqual(
        ['productId', 'sellerId', 'sku', 'title', 'category', 'brand', 'attributes', 'unit', 'packSize', 'price', 'availableQuantity', 'minOrderQuantity', 'leadTimeDays', 'shipsFrom'].sort(),
      );
      expect(Object.keys(small.offer).sort()).toEqual(['offerId', 'unitPrice', 'minQuantity', 'priceTiers', 'negotiable', 'validUntil'].sort());
      // The score alone may move between the two calls: other tests' products change the index's word weights.
      expect(small).toMatchObject({ product: { sku: 'C-1', packSize: 100, price: whole.product.price }, offer: { offerId: whole.offer.offerId, unitPrice: whole.offer.unitPrice }, matched: whole.matched, relaxed: whole.relaxed });
      expect(small.score).toBeCloseTo(whole.score, 1);
      expect(JSON.stringify(compact.json).length).toBeLessThan(JSON.stringify(full.json).length);
    }
    expectError(await client.send('POST', '/v1/search', { apiKey: buyer.apiKey, body: { fields: 'tiny' } }), 422, 'validation/invalid');
    expectError(await client.send('POST', '/v1/search-intent', { apiKey: buyer.apiKey, body: { intent: 'gloves', fields: ['product.title'] } }), 422, 'validation/invalid');
  });

  it('refuses bad filters with 422 and the field path', async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    const cases: [Record<string, unknown>, string][] = [
      [{ filters: { colour: 'red' } }, 'filters'],
      [{ filters: { currency: 'USD', maxPrice: -1 } }, 'filters.maxPrice'],
      [{ filters: { currency: 'XYZ' } }, 'filters.currency'],
      [{ filters: { shipsFrom: 'XX' } }, 'filters.shipsFrom'],
      [{ filters: { maxPrice: 100 } }, 'filters.currency'],
      [{ filters: { category: 'Safety Gloves' } }, 'filters.category'],
      [{ sort: 'cheapest' }, 'sort'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
      [{ cursor: 'not-a-cursor' }, 'cursor'],
      [{ unknown: true }, ''],
    ];
    for (const [body, path] of cases) {
      const response = await client.send('POST', '/v1/search', { apiKey: buyer.apiKey, body });
      expectError(response, 422, 'validation/invalid');
      const paths = (response.json.details ?? []).map((detail: { path: string }) => detail.path);
      expect(paths.some((found: string) => found === path || found.startsWith(path)), `${JSON.stringify(body)} → ${JSON.stringify(paths)}`).toBe(true);
    }
    const intent = await client.send('POST', '/v1/search-intent', { apiKey: buyer.apiKey, body: { intent: '' } });
    expectError(intent, 422, 'validation/invalid');
    const long = await client.send('POST', '/v1/search-intent', { apiKey: buyer.apiKey, body: { intent: 'x'.repeat(1001) } });
    expectError(long, 422, 'validation/invalid');
  });

  it('pages through one result set without repeating or skipping while a feed changes the catalog', async () => {
    const word = uniqueWord();
    const seller = await registerUnlimited(client, 'seller');
    const buyer = await registerUnlimited(client, 'buyer');
    const original = Array.from({ length: 30 }, (_, i) => ({ sku: `P-${i}`, title: `${word} carton ${i}`, price: { amount: 100 + i, currency: 'USD' }, availableQuantity: 10 }));
    await loadFeed(seller.apiKey, original);
    await searchUntil(buyer.apiKey, { query: word }, 30);
    const sorts = ['relevance', 'price_asc', 'newest'] as const;
    for (const [index, sort] of sorts.entries()) {
      let changed = false;
      const seen = await allPages(buyer.apiKey, { query: word, sort, limit: 7 }, async (page) => {
        if (page !== 1 || changed) return;
        changed = true;
        // New matching products, and price moves across the page boundary for products not yet returned.
        const additions = Array.from({ length: 8 }, (_, i) => ({ sku: `N-${sort}-${i}`, title: `${word} carton new ${i}`, price: { amount: 1 + i, currency: 'USD' }, availableQuantity: 10 }));
        const moves = original.slice(20).map((row) => ({ ...row, price: { amount: 1, currency: 'USD' } }));
        await loadFeed(seller.apiKey, [...additions, ...moves]);
        await searchUntil(buyer.apiKey, { query: word }, 30 + 8 * (index + 1));
      });
      const skus = ids(seen);
      expect(new Set(skus).size, sort).toBe(skus.length); // nothing repeated
      for (const row of original) expect(skus, `${sort}: ${row.sku}`).toContain(row.sku); // nothing skipped
      expect(skus.some((sku) => sku.startsWith(`N-${sort}`)), sort).toBe(false); // one result set: added later, not in it
    }
    // A cursor belongs to its search: another query refuses it.
    const first = await search(buyer.apiKey, { query: word, limit: 5 });
    const other = await client.send('POST', '/v1/search', { apiKey: buyer.apiKey, body: { query: `${word} x`, limit: 5, cursor: first.nextCursor } });
    expectError(other, 422, 'validation/invalid');
  });

  it('makes a completed feed searchable within seconds, and drops inactive products', async () => {
    const word = uniqueWord();
    const seller = await registerUnlimited(client, 'seller');
    const buyer = await registerUnlimited(client, 'buyer');
    await loadFeed(seller.apiKey, [{ sku: 'S-1', title: `${word} pallet`, price: { amount: 900, currency: 'EUR' }, availableQuantity: 5 }]);
    const completedAt = Date.now();
    await searchUntil(buyer.apiKey, { query: word }, 1, 5_000);
    console.log(`searchable ${Date.now() - completedAt} ms after the feed completed`);
    await loadFeed(seller.apiKey, [{ sku: 'S-1', title: `${word} pallet`, price: { amount: 900, currency: 'EUR' }, availableQuantity: 5, status: 'inactive' }]);
    await searchUntil(buyer.apiKey, { query: word }, 0, 5_000);
  });
});

describe('POST /v1/search-intent', () => {
  it('reads quantity, price, origin, lead time, brand and typos, and leaves out items that cannot serve the quantity', async () => {
    const brand = `Brand${uniqueWord()}`;
    const seller = await registerUnlimited(client, 'seller');
    const buyer = await registerUnlimited(client, 'buyer');
    const base = { category: 'safety/gloves', brand, shipsFrom: 'DE', leadTimeDays: 5, availableQuantity: 10_000, minOrderQuantity: 100 };
    await loadFeed(seller.apiKey, [
      { ...base, sku: 'I-OK', title: 'Nitrile examination gloves', price: { amount: 10, currency: 'USD' } },
      { ...base, sku: 'I-PRICEY', title: 'Nitrile gloves premium', price: { amount: 20, currency: 'USD' } },
      { ...base, sku: 'I-SLOW', title: 'Nitrile gloves slow', price: { amount: 9, currency: 'USD' }, leadTimeDays: 30 },
      { ...base, sku: 'I-FEW', title: 'Nitrile gloves few', price: { amount: 9, currency: 'USD' }, availableQuantity: 100 },
      { ...base, sku: 'I-MOQ', title: 'Nitrile gloves bulk only', price: { amount: 9, currency: 'USD' }, minOrderQuantity: 1000 },
      { ...base, sku: 'I-US', title: 'Nitrile gloves from the US', price: { amount: 9, currency: 'USD' }, shipsFrom: 'US' },
    ]);
    await searchUntil(buyer.apiKey, { filters: { brand } }, 6);
    const response = await client.send('POST', '/v1/search-intent', {
      apiKey: buyer.apiKey,
      body: { intent: `five hundred ${brand} nitril glvoes under $0.12 each shipping from Germany within 10 days` },
    });
    expect(response.status, response.text).toBe(200);
    const { items, interpretation } = response.json.data;
    expect(interpretation).toEqual({
      keywords: ['nitrile', 'gloves'],
      quantity: 500,
      filters: { maxPrice: 12, currency: 'USD', shipsFrom: 'DE', maxLeadTimeDays: 10, brand },
      sort: 'relevance',
      excluded: [],
      budget: null,
      corrections: [
        { from: 'nitril', to: 'nitrile', kind: 'spelling' },
        { from: 'glvoes', to: 'gloves', kind: 'spelling' },
      ],
      relaxed: { keywords: [], filters: {} },
      unparsed: [],
      notes: [],
    });
    expect(ids(items)).toEqual(['I-OK']);
    expect(items[0].matched).toEqual({ keywords: ['nitrile', 'gloves'], filters: ['maxPrice', 'currency', 'maxLeadTimeDays', 'shipsFrom', 'brand', 'quantity'] });
    expect(items[0].relaxed).toEqual({ keywords: [], filters: [] });
    expect(response.json.data.suggestions).toEqual([]);

    const cheapest = await client.send('POST', '/v1/search-intent', { apiKey: buyer.apiKey, body: { intent: `cheapest ${brand} gloves` } });
    expect(cheapest.json.data.interpretation.sort).toBe('price_asc');
    expect(cheapest.json.data.items.map((item: any) => item.offer.unitPrice.amount)).toEqual([9, 9, 9, 9, 10, 20]);
  });

  it('reads prices as written and compares a per-piece bound per piece for products sold in packs', async () => {
    const brand = `Brand${uniqueWord()}`;
    const seller = await registerUnlimited(client, 'seller');
    const buyer = await registerUnlimited(client, 'buyer');
    const base = { brand, category: 'office/writing', availableQuantity: 500 };
    await loadFeed(seller.apiKey, [
      { ...base, sku: 'PEN-50', title: 'Ballpoint pens, box of 50', unit: 'box', packSize: 50, price: { amount: 400, currency: 'EUR' } },
      { ...base, sku: 'PEN-10', title: 'Ballpoint pens, box of 10', unit: 'box', packSize: 10, price: { amount: 300, currency: 'EUR' } },
    ]);
    await searchUntil(buyer.apiKey, { filters: { brand } }, 2);
    const intent = async (text: string) => (await client.send('POST', '/v1/search-intent', { apiKey: buyer.apiKey, body: { intent: text } })).json.data;
    const perPen = await intent(`${brand} ballpoint pens under 0,10 € per pen`);
    expect(perPen.interpretation.filters).toEqual({ maxPrice: 10, currency: 'EUR', pricePer: 'piece', brand });
    expect(ids(perPen.items)).toEqual(['PEN-50']); // 4.00 ÷ 50 = 0.08 a pen; 3.00 ÷ 10 = 0.30
    expect(perPen.items[0].product).toMatchObject({ unit: 'box', packSize: 50 });
    expect(perPen.interpretation.notes).toEqual([{ type: 'price-per-piece', message: expect.stringContaining('packSize is at most 0.10 EUR') }]);
    const perBox = await intent(`${brand} ballpoint pens, 3,50 EUR max per box`);
    expect(perBox.interpretation.filters).toEqual({ maxPrice: 350, currency: 'EUR', brand });
    expect(ids(perBox.items)).toEqual(['PEN-10']);
    expect(perBox.interpretation.notes).toEqual([]);
  });

  it('relaxes visibly, rules out what is negated, and answers nothing with checked suggestions when no product has the main word', async () => {
    const word = uniqueWord();
    const brand = `Brand${uniqueWord()}`;
    const seller = await registerUnlimited(client, 'seller');
    const buyer = await registerUnlimited(client, 'buyer');
    const base = { category: 'safety/gloves', brand, shipsFrom: 'NL', leadTimeDays: 5, availableQuantity: 10_000 };
    await loadFeed(seller.apiKey, [
      { ...base, sku: 'H-NIT', title: `${word} Nitrile gloves`, price: { amount: 10, currency: 'EUR' } },
      { ...base, sku: 'H-LTX', title: `${word} Latex gloves`, price: { amount: 8, currency: 'EUR' } },
    ]);
    await searchUntil(buyer.apiKey, { filters: { brand } }, 2);
    const intent = async (text: string) => {
      const response = await client.send('POST', '/v1/search-intent', { apiKey: buyer.apiKey, body: { intent: text } });
      expect(response.status, response.text).toBe(200);
      return response.json.data;
    };

    // The catalog has nitrile gloves, but none from Germany: the origin is dropped, and said to be; no
    // word is dropped to keep it (never latex gloves from Germany instead).
    const german = await intent(`${brand} nitrile gloves from Germany`);
    expect(ids(german.items)).toEqual(['H-NIT']);
    expect(german.interpretation.keywords).toEqual(['nitrile', 'gloves']);
    expect(german.interpretation.relaxed).toEqual({ keywords: [], filters: { shipsFrom: 'DE' } });
    expect(german.items[0].relaxed).toEqual({ keywords: [], filters: ['shipsFrom'] });
    expect(german.items[0].matched).toEqual({ keywords: ['nitrile', 'gloves'], filters: ['brand'] });

    // The quantity is never dropped: nothing, and which filter to loosen (checked).
    const many = await intent(`50,000 ${brand} ${word} nitrile gloves`);
    expect(many.items).toEqual([]);
    expect(many.interpretation.quantity).toBe(50_000);
    expect(many.suggestions).toContainEqual(expect.objectContaining({ type: 'loosen-filter', value: 'quantity' }));

    // A describing word no product has is dropped, and every item says so.
    const blue = await intent(`blue ${brand} nitrile gloves`);
    expect(ids(blue.items)).toEqual(['H-NIT']);
    expect(blue.interpretation.relaxed.keywords).toEqual(['blue']);
    expect(blue.items[0].relaxed.keywords).toEqual(['blue']);
    expect(blue.items[0].matched.keywords).toEqual(['nitrile', 'gloves']);

    // Ruled out: never returned.
    const notLatex = await intent(`${brand} gloves, not latex`);
    expect(notLatex.interpretation.excluded).toEqual(['latex']);
    expect(ids(notLatex.items)).toEqual(['H-NIT']);

    // A price in a currency no product is priced in: the items in other currencies say so, each and in a sentence.
    const dollars = await intent(`${word} nitrile gloves under 5 cents each`);
    expect(ids(dollars.items)).toEqual(['H-NIT']);
    expect(dollars.interpretation.relaxed).toEqual({ keywords: [], filters: { maxPrice: 5, currency: 'USD' } });
    expect(dollars.items[0].relaxed.filters).toEqual(['maxPrice', 'currency']);
    expect(dollars.interpretation.notes).toEqual([{ type: 'currency-relaxed', message: expect.stringMatching(new RegExp(`No product priced in USD matches "${word} nitrile gloves"; these items are priced in EUR, and not held to at most 0\\.05 USD`)) }]);
    // Within the currency but over the bound: said too.
    const cheap = await intent(`${word} nitrile gloves under 0.05 EUR`);
    expect(ids(cheap.items)).toEqual(['H-NIT']);
    expect(cheap.interpretation.notes).toEqual([{ type: 'price-relaxed', message: expect.stringContaining('at most 0.05 EUR') }]);

    // No product has the main word: nothing, and what the catalog has instead.
    const plugs = await intent(`${brand} ear plugs`);
    expect(plugs.items).toEqual([]);
    expect(plugs.nextCursor).toBeNull();
    expect(plugs.suggestions.length).toBeGreaterThan(0);
    expect(plugs.suggestions.every((suggestion: any) => typeof suggestion.message === 'string' && suggestion.message.length > 0)).toBe(true);
  });
});
