// Requests for quotes at catalog size: from `POST /v1/rfqs` to the last matching seller's rfq.created in
// its events feed, with 1,000 sellers and 100,000 products (the generated catalog spread over 1,000
// sellers in the demo sellers' countries and currencies).
//
// Two processes (bench/harness.ts): the server (this module in its child role) starts the local runtime,
// builds the search index of the catalog as the stream worker's log would and publishes it as the index's
// snapshot (what the snapshot worker uploads), so that the rfqDispatch worker matches against all of it;
// registers a buyer; and answers commands. The bench process sends each RFQ through the API and polls
// the RFQ until its sellers are recorded (`sellerCount`: written once every seller's rfq.created is
// committed), which is when the last seller's event is in its feed; then it checks, per seller, that the
// event is there and that exactly the sellers whose products match were reached.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiCaller, isBenchChild, serveLocalRuntime, startBenchChild, type ChildCleanup } from './harness.ts';
import { percentile, round } from './stats.ts';

const SELLERS = Number(process.env.BENCH_RFQ_SELLERS ?? 1_000);
const PRODUCTS = Number(process.env.BENCH_RFQ_PRODUCTS ?? 100_000);
/** RFQs timed, one after another (after one that warms the worker and loads the index). */
const RFQS = 15;
/** How often the RFQ is read while its sellers are reached: each read is a request with its own table calls, so not so often that the reads slow the writes they wait for. */
const POLL_MS = 50;

/** What the buyers ask for: product types of the generated catalog, in the currencies its sellers price in. */
const NEEDS: readonly { title: string; currency: string; category?: string; shipsFrom?: string[] }[] = [
  { title: '2,000 nitrile gloves, size M', currency: 'EUR' },
  { title: 'Surgical masks for our clinics', currency: 'USD' },
  { title: 'Copy paper A4, 200 reams', currency: 'EUR' },
  { title: 'Corrugated boxes for shipping', currency: 'GBP' },
  { title: 'Wood screws', currency: 'USD', shipsFrom: ['US', 'CN'] },
  { title: 'Cordless drills for the workshop', currency: 'EUR', category: 'hardware' },
  { title: 'Hand sanitizer, 500 bottles', currency: 'USD' },
  { title: 'USB-C cables', currency: 'EUR' },
  { title: 'LED bulbs E27', currency: 'JPY' },
  { title: 'Coffee beans for the office', currency: 'EUR' },
  { title: 'Safety boots', currency: 'GBP' },
  { title: 'Packing tape, 1,000 rolls', currency: 'USD' },
  { title: 'Office chairs', currency: 'EUR' },
  { title: 'Ballpoint pens', currency: 'USD' },
  { title: 'Disinfectant wipes', currency: 'EUR', shipsFrom: ['DE', 'NL'] },
  { title: 'Work gloves', currency: 'USD' },
];

interface Ready {
  baseUrl: string;
  buyerKey: string;
  indexSeconds: number;
  sellerCount: number;
  productCount: number;
}

export interface RfqFanOutResult {
  sellers: number;
  products: number;
  /** Building the index of the catalog and publishing it as the snapshot (setup, not measured). */
  setupIndexSeconds: number;
  /** The first RFQ: the worker's cold start, its first load of the index. */
  warmupMs: number;
  fanOut: { rfqs: number; p50Ms: number; p95Ms: number; maxMs: number; sellersReached: { min: number; median: number; max: number } };
  /** Per RFQ: the sellers it reached, the sellers whose products match it (from the index), the feeds holding its rfq.created. */
  checks: { title: string; reached: number; expected: number; inFeeds: number }[];
  cleanup: ChildCleanup;
}

// ---------------------------------------------------------------------------------------------
// Server side
// ---------------------------------------------------------------------------------------------

async function serve(): Promise<void> {
  await serveLocalRuntime<Ready>(async (runtime) => {
    const { ulid } = await import('ulid');
    const { DEMO_SELLERS, generateCatalog } = await import('../lib/demo/catalog.ts');
    const { SearchReplica, newReplicaFile } = await import('../shared/data/search-replica/index.ts');
    const { SearchHeadEntity } = await import('../shared/data/search-log.ts');
    const { snapshotKeyFor, uploadSnapshot } = await import('../shared/data/search-snapshots.ts');
    const { listEventsOf } = await import('../shared/data/events.ts');
    const { getRfq } = await import('../shared/data/rfqs.ts');
    const { matchingTerms, rfqMatchQuery } = await import('../shared/domain/rfq-matching.ts');
    const { handlerModules } = await import('./harness.ts');
    const { setAgentPlan } = await handlerModules();

    // The catalog: 1,000 sellers in the demo sellers' countries and currencies, 100 products each.
    const started = performance.now();
    const sellers = Array.from({ length: SELLERS }, (_, i) => ({ ...(DEMO_SELLERS[i % DEMO_SELLERS.length] as (typeof DEMO_SELLERS)[number]), key: `bench-${i}` }));
    const index = new SearchReplica(newReplicaFile());
    const now = new Date().toISOString();
    let seq = 0;
    const changes: Parameters<typeof index.apply>[1][number][] = [];
    for (const rows of generateCatalog({ products: PRODUCTS, sellers, seed: 7 }).values()) {
      const sellerId = `agt_${ulid()}`;
      for (const row of rows) {
        const productId = `prd_${ulid()}`;
        const offerId = `ofr_${ulid()}`;
        changes.push({
          kind: 'product',
          item: {
            productId, sellerId, sku: row.sku, title: row.title, description: row.description, category: row.category, brand: row.brand,
            attributes: row.attributes, unit: row.unit, packSize: row.packSize ?? 1, price: row.price, availableQuantity: row.availableQuantity, minOrderQuantity: row.minOrderQuantity,
            leadTimeDays: row.leadTimeDays, shipsFrom: row.shipsFrom, imageUrls: [], status: 'active', sourceFeedId: null, createdAt: now, updatedAt: now, standingOfferId: offerId,
          },
        });
        changes.push({ kind: 'offer', item: { offerId, productId, sellerId, unitPrice: row.price, minQuantity: row.minOrderQuantity, priceTiers: [], negotiable: row.negotiable, validUntil: null, status: 'active', createdAt: now, updatedAt: now } });
        if (changes.length >= 2000) index.apply(++seq, changes.splice(0));
      }
    }
    if (changes.length > 0) index.apply(++seq, changes.splice(0));
    const productCount = index.size;
    // Published as the snapshot of the runtime's (empty) index: every search instance, the worker's included, loads it.
    const snapshotDir = mkdtempSync(path.join(tmpdir(), 'bench-rfq-index-'));
    const snapshotFile = path.join(snapshotDir, 'snapshot.sqlite');
    index.copyTo(snapshotFile);
    const snapshotKey = snapshotKeyFor(seq);
    await uploadSnapshot(snapshotKey, snapshotFile);
    rmSync(snapshotDir, { recursive: true, force: true });
    await SearchHeadEntity.put({ seq, snapshotSeq: seq, snapshotKey, snapshotAt: now, updatedAt: now }, {});
    const indexSeconds = round((performance.now() - started) / 1000, 1);

    const call = apiCaller(runtime.baseUrl);
    const registered = await call('POST', '/v1/agents/register', undefined, { name: 'Bench buyer', role: 'buyer', organization: { legalName: 'Bench GmbH', country: 'DE' }, contactEmail: 'bench@bench.example' });
    if (registered.status !== 201) throw new Error(`register: ${registered.text}`);
    await setAgentPlan(registered.data.agentId as string, 'enterprise', new Date().toISOString());

    return {
      ready: { baseUrl: runtime.baseUrl, buyerKey: registered.data.apiKey as string, indexSeconds, sellerCount: SELLERS, productCount },
      commands: {
        /** The sellers the RFQ should reach (from the built index, as the worker matches) and how many have its rfq.created in their feeds. */
        check: async ({ rfqId }: { rfqId: string }) => {
          const rfq = await getRfq(rfqId);
          if (!rfq) throw new Error(`No ${rfqId}`);
          const at = new Date();
          const expected = index.sellersMatching(rfqMatchQuery(rfq, matchingTerms(rfq, index, at), at));
          const feeds = await Promise.all(
            expected.map(async (sellerId) => {
              const page = await listEventsOf('seller', sellerId, { from: 'evt_', to: 'evt_~', ascending: false, limit: 20, types: ['rfq.created'] });
              return page.events.some((event) => event.data.rfqId === rfqId);
            }),
          );
          return { expected: expected.length, inFeeds: feeds.filter(Boolean).length };
        },
      },
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Bench side
// ---------------------------------------------------------------------------------------------

export async function measureRfqFanOut(options: { log?: (message: string) => void } = {}): Promise<RfqFanOutResult> {
  const log = options.log ?? (() => undefined);
  log(`rfqs: ${SELLERS} sellers and ${PRODUCTS} products indexed in a fresh local runtime…`);
  const child = await startBenchChild<Ready>({ module: import.meta.filename, tmpPrefix: 'bench-rfqs-', readyTimeoutMs: 15 * 60_000 });
  try {
    const { baseUrl, buyerKey } = child.ready;
    const call = apiCaller(baseUrl);
    /** One RFQ: sent, then its RFQ read until its sellers are recorded; the elapsed ms and how many it reached. */
    const fanOut = async (need: (typeof NEEDS)[number]) => {
      const started = performance.now();
      const created = await call('POST', '/v1/rfqs', buyerKey, { ...need, quantity: 100, closesAt: new Date(Date.now() + 2 * 3_600_000).toISOString() });
      if (created.status !== 201) throw new Error(`POST /v1/rfqs: ${created.text}`);
      const rfqId = created.data.rfqId as string;
      for (;;) {
        const read = await call('GET', `/v1/rfqs/${rfqId}`, buyerKey);
        if (read.data.sellerCount !== null && read.data.sellerCount !== undefined) return { rfqId, ms: performance.now() - started, reached: read.data.sellerCount as number };
        if (performance.now() - started > 120_000) throw new Error(`${rfqId} reached no sellers in 2 minutes`);
        await sleep(POLL_MS);
      }
    };
    log('rfqs: one RFQ to warm the dispatch worker (its first load of the index)…');
    const warmup = await fanOut(NEEDS[0] as (typeof NEEDS)[number]);
    const timings: number[] = [];
    const reached: number[] = [];
    const checks: RfqFanOutResult['checks'] = [];
    for (let i = 0; i < RFQS; i++) {
      const need = NEEDS[(i + 1) % NEEDS.length] as (typeof NEEDS)[number];
      const result = await fanOut(need);
      timings.push(result.ms);
      reached.push(result.reached);
      const check = await child.command<{ expected: number; inFeeds: number }>('check', { rfqId: result.rfqId }, 60_000);
      checks.push({ title: need.title, reached: result.reached, ...check });
      if (check.expected !== result.reached || check.inFeeds !== result.reached) throw new Error(`${need.title}: reached ${result.reached}, expected ${check.expected}, in feeds ${check.inFeeds}`);
    }
    const sorted = [...reached].sort((a, b) => a - b);
    return {
      sellers: child.ready.sellerCount,
      products: child.ready.productCount,
      setupIndexSeconds: child.ready.indexSeconds,
      warmupMs: round(warmup.ms, 1),
      fanOut: {
        rfqs: timings.length,
        p50Ms: round(percentile(timings, 50), 1),
        p95Ms: round(percentile(timings, 95), 1),
        maxMs: round(Math.max(...timings), 1),
        sellersReached: { min: sorted[0] ?? 0, median: sorted[Math.floor(sorted.length / 2)] ?? 0, max: sorted.at(-1) ?? 0 },
      },
      checks,
      cleanup: await child.stop(),
    };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

if (isBenchChild()) await serve();
else if (import.meta.main) console.log(JSON.stringify(await measureRfqFanOut({ log: (message) => process.stderr.write(`[bench] ${message}\n`) }), null, 2));
