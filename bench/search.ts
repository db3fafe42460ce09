// Search at catalog size: the two search handlers, warm, over an index of 100,000 generated products
// loaded from a snapshot as a cold instance loads it, against the raw engine on the same queries.
//
// Two child processes (each with its own heap, so that the load's memory is the load's alone):
// - `build`: generates the catalog, applies it to a replica as the stream worker's log would, and
//   writes the snapshot file (what the snapshot worker uploads).
// - `measure`: a fresh search instance. DynamoDB and S3 are stubbed with aws-sdk-client-mock (the
//   key lookup, the rate-limit counter and the log head answer at once; the snapshot "download"
//   streams the local file), so the figures are the handler's own work: middleware, validation,
//   reading the intent, the engine, shaping the response. Then 200 structured searches and 200
//   intents, each invoked through the handler and, side by side, as the engine calls the handler made.
import { fork } from 'node:child_process';
import { createReadStream, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { BENCH_TMP } from './bundle.ts';
import { HANDLER_ENV } from './cold-import.ts';
import type { ApiFunction } from '../shared/http/handler.ts';
import { percentile, round } from './stats.ts';

export interface LatencySummary {
  requests: number;
  samples: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

export interface RouteMeasurement {
  handler: LatencySummary;
  engine: LatencySummary;
  overheadRatio: number;
  emptyResults: number;
  /** The five requests with the slowest median handler time, for reading the figures. */
  slowest: { request: unknown; handlerMedianMs: number; engineMedianMs: number }[];
}

export interface SearchMeasurement {
  products: number;
  snapshotMb: number;
  coldLoad: { loadMs: number; firstSearchMs: number; heapGrowthMb: number; rssGrowthMb: number };
  /** After every measured request: the engine's page cache and statement caches included. */
  memoryAfterQueries: { heapGrowthMb: number; rssGrowthMb: number };
  search: RouteMeasurement;
  intent: RouteMeasurement;
}

export interface SearchBenchResult extends SearchMeasurement {
  buildSeconds: number;
  intentSet: IntentSetFigures;
  /** The held-out set (test/fixtures/labelled-intents-held-out.ts), scored apart. */
  heldOutSet: IntentSetFigures;
  /** The round-4 set (test/fixtures/labelled-intents-round4.ts: money and units), scored apart. */
  round4Set: IntentSetFigures;
}

const API_KEY = `mk_test_${'S'.repeat(40)}`;
const AGENT_ID = 'agt_01JBENCHSEARCHBENCHSEARCHB';
const QUERIES = 200;
/** Each request is timed this many times (interleaved with its engine-only twin). */
const ROUNDS = 5;

const COUNTRY_WORDS: Record<string, string[]> = {
  DE: ['from Germany', 'German-made', 'shipping from DE'],
  US: ['from the USA', 'made in the USA', 'shipping from US'],
  JP: ['from Japan', 'Japanese', 'ships from JP'],
  NL: ['from the Netherlands', 'shipping from NL', 'Dutch'],
  GB: ['from the UK', 'British', 'shipping from GB'],
  CN: ['from China', 'Chinese-made', 'ships from CN'],
};
const CURRENCY_WORDS: Record<string, (major: string) => string> = {
  USD: (major) => `$${major}`,
  EUR: (major) => `${major} EUR`,
  GBP: (major) => `£${major}`,
  JPY: (major) => `${major} yen`,
};

function summary(values: readonly number[], requests: number): LatencySummary {
  return { requests, samples: values.length, p50Ms: round(percentile(values, 50), 3), p95Ms: round(percentile(values, 95), 3), p99Ms: round(percentile(values, 99), 3) };
}

const mb = (bytes: number) => round(bytes / 1024 ** 2, 1);

/** 200 structured searches and 200 intents in the shapes agents send, drawn from the generated catalog. */
async function realisticQueries(): Promise<{ searches: Record<string, unknown>[]; intents: string[] }> {
  const { generateCatalog, seededRandom } = await import('../lib/demo/catalog.ts');
  const { LABELLED_INTENTS } = await import('../test/fixtures/labelled-intents.ts');
  const random = seededRandom(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const rows = [...generateCatalog({ products: 3_000, seed: 42 }).values()].flat();
  const titleWords = (title: string) => title.toLowerCase().split(/[^a-z]+/).filter((word) => word.length >= 3);
  const phrase = (title: string) => {
    const words = titleWords(title);
    const count = Math.min(words.length, 1 + Math.floor(random() * 2));
    const start = Math.floor(random() * Math.max(1, words.length - count + 1));
    return words.slice(start, start + count).join(' ');
  };
  const sorts = ['relevance', 'relevance', 'relevance', 'relevance', 'price_asc', 'price_desc', 'newest', 'lead_time'];

  const searches: Record<string, unknown>[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const row = pick(rows);
    const words = phrase(row.title);
    const kind = i % 10;
    const body: Record<string, unknown> = { query: words, sort: pick(sorts) };
    if (kind === 1 || kind === 2) body.filters = { category: row.category.split('/')[0] };
    if (kind === 3) body.filters = { currency: row.price.currency, maxPrice: Math.round(row.price.amount * 1.5) };
    if (kind === 4) body.filters = { shipsFrom: row.shipsFrom, maxLeadTimeDays: row.leadTimeDays + 5 };
    if (kind === 5) body.filters = { brand: row.brand, minAvailableQuantity: row.minOrderQuantity };
    if (kind === 6) {
      delete body.query; // browsing a category, cheapest first
      body.filters = { category: row.category, currency: row.price.currency };
      body.sort = 'price_asc';
    }
    if (kind === 7) body.query = words.slice(0, Math.max(3, words.length - 2)); // typed as far as a prefix
    if (kind === 8) body.filters = { category: row.category, attributes: Object.fromEntries(Object.entries(row.attributes).slice(0, 1)) };
    searches.push(body);
  }

  const intents = LABELLED_INTENTS.map((label) => label.intent).slice(0, QUERIES);
  while (intents.length < QUERIES) {
    const row = pick(rows);
    const major = (Math.round(row.price.amount * 1.3) / (row.price.currency === 'JPY' ? 1 : 100)).toFixed(row.price.currency === 'JPY' ? 0 : 2);
    const quantity = row.minOrderQuantity * (1 + Math.floor(random() * 4));
    const parts = [
      pick([`${quantity}`, `need ${quantity}`, `looking for ${quantity}`]),
      phrase(row.title),
      random() < 0.6 ? `under ${CURRENCY_WORDS[row.price.currency]!(major)} ${pick(['each', 'per unit', `a ${row.unit}`])}` : '',
      random() < 0.5 ? pick(COUNTRY_WORDS[row.shipsFrom] ?? ['']) : '',
      random() < 0.5 ? pick([`within ${row.leadTimeDays + 3} days`, 'in 2 weeks', 'within a month', 'urgent: 5 days or less']) : '',
      random() < 0.15 ? pick(['cheapest', 'fastest delivery']) : '',
    ];
    intents.push(parts.filter(Boolean).join(' '));
  }
  return { searches, intents };
}

/** Child `build`: the snapshot of a replica holding `products` generated products. */
async function build(file: string, products: number): Promise<{ seq: number; seconds: number }> {
  const started = performance.now();
  const { generatedIndex } = await import('../test/support/intent-evaluation.ts');
  const { index, dispose } = generatedIndex(products);
  const seq = index.seq;
  index.copyTo(file);
  dispose();
  return { seq, seconds: round((performance.now() - started) / 1000, 1) };
}

function gcAndMemory(): NodeJS.MemoryUsage {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage();
}

/** Child `measure`: a fresh search instance over the snapshot. */
async function measure(file: string, seq: number, products: number): Promise<SearchMeasurement> {
  // The word data the search handlers read beside their bundle (search-words.json), built as synth builds it.
  const wordsDir = path.join(path.dirname(file), 'bundled-files');
  mkdirSync(wordsDir, { recursive: true });
  const { searchWordsFile } = await import('../lib/search-words.ts');
  writeFileSync(path.join(wordsDir, 'search-words.json'), searchWordsFile());
  Object.assign(process.env, HANDLER_ENV, { AWS_ACCESS_KEY_ID: 'bench', AWS_SECRET_ACCESS_KEY: 'bench', SEARCH_INDEX_REFRESH_MS: '1000', BUNDLED_FILES_DIR: wordsDir });
  const { mockClient } = await import('aws-sdk-client-mock');
  const { GetCommand, UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  const { GetObjectCommand } = await import('@aws-sdk/client-s3');
  const { documentClient } = await import('../shared/data/client.ts');
  const { feedsBucketClient } = await import('../shared/data/feeds-bucket.ts');
  const { SearchHeadEntity } = await import('../shared/data/search-log.ts');
  const { snapshotKeyFor } = await import('../shared/data/search-snapshots.ts');
  const { SearchReplica } = await import('../shared/data/search-replica/index.ts');
  const { currentSearchIndex } = await import('../shared/domain/search-index.ts');
  const { routeEvent } = await import('../lib/local/lambda-events.ts');
  const { lambdaContext } = await import('../lib/local/lambda.ts');
  const searchHandler = (await import('../functions/search/run.ts')).handler;
  const intentHandler = (await import('../functions/search-intent/run.ts')).handler;
  const { searches, intents } = await realisticQueries();

  const snapshotKey = snapshotKeyFor(seq);
  const now = new Date().toISOString();
  const head = SearchHeadEntity.toItem({ seq, snapshotSeq: seq, snapshotKey, snapshotAt: now, updatedAt: now }, {});
  const keyItem = { agentId: AGENT_ID, role: 'buyer', plan: 'enterprise', environment: 'test', createdAt: '2026-01-01T00:00:00.000Z' };
  const minute = () => Math.floor(Date.now() / 60_000);
  const dynamo = mockClient(documentClient);
  dynamo.on(GetCommand).callsFake((input: { Key: { pk: string } }) => Promise.resolve({ Item: input.Key.pk === head.pk ? head : keyItem }));
  dynamo.on(UpdateCommand).callsFake(() => Promise.resolve({ Attributes: { minute: minute(), minuteCount: 1, dayCount: 1 } }));
  const s3 = mockClient(feedsBucketClient);
  s3.on(GetObjectCommand).callsFake(() => Promise.resolve({ Body: createReadStream(file) }));

  // Cold load: what the first search of a new instance waits for (the snapshot copied to /tmp and opened).
  const before = gcAndMemory();
  let started = performance.now();
  const index = await currentSearchIndex();
  const loadMs = performance.now() - started;
  if (index.seq !== seq) throw new Error(`The loaded index is at ${index.seq}, the snapshot at ${seq}`);
  started = performance.now();
  index.search({ words: ['gloves'], filters: {}, sort: 'relevance', limit: 20, now });
  const firstSearchMs = performance.now() - started;
  const afterLoad = gcAndMemory();

  // Each request's engine calls, recorded on the warm-up pass, so the raw engine replays exactly them.
  type Query = Parameters<InstanceType<typeof SearchReplica>['search']>[0];
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with .call(replica) below
  const originalSearch = SearchReplica.prototype.search;
  let recording: Query[] | undefined;
  SearchReplica.prototype.search = function (this: InstanceType<typeof SearchReplica>, query: Query) {
    recording?.push(query);
    return originalSearch.call(this, query);
  };

  const run = async (handler: ApiFunction, bodies: readonly unknown[]) => {
    const { route } = handler;
    const routePath = route.path;
    // A fresh event and context per invocation, as Lambda gives them (the JSON body parser replaces the event's body).
    const requests = bodies.map((body) => () => [routeEvent(route, routePath, { apiKey: API_KEY, body, headers: { accept: 'application/json', host: 'api.example' } }), lambdaContext(route.operationId, 10_000)] as const);
    const engineCalls: Query[][] = [];
    let empty = 0;
    for (const request of requests) {
      recording = [];
      const response = await handler(...request());
      if (response.statusCode !== 200) throw new Error(`${routePath} answered ${response.statusCode}: ${String(response.body)}`);
      if ((JSON.parse(response.body as string) as { data: { items: unknown[] } }).data.items.length === 0) empty += 1;
      engineCalls.push(recording);
    }
    recording = undefined;
    const handlerMs = requests.map((): number[] => []);
    const engineMs = requests.map((): number[] => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, request] of requests.entries()) {
        const [event, context] = request();
        let t = performance.now();
        const response = await handler(event, context);
        handlerMs[i]!.push(performance.now() - t);
        if (response.statusCode !== 200) throw new Error(`${routePath} answered ${response.statusCode}`);
        t = performance.now();
        for (const query of engineCalls[i]!) originalSearch.call(index, query);
        engineMs[i]!.push(performance.now() - t);
      }
    }
    const handlerSummary = summary(handlerMs.flat(), requests.length);
    const engineSummary = summary(engineMs.flat(), requests.length);
    const slowest = bodies
      .map((request, i) => ({ request, handlerMedianMs: round(percentile(handlerMs[i]!, 50), 2), engineMedianMs: round(percentile(engineMs[i]!, 50), 2) }))
      .sort((a, b) => b.handlerMedianMs - a.handlerMedianMs)
      .slice(0, 5);
    return { handler: handlerSummary, engine: engineSummary, overheadRatio: round(handlerSummary.p95Ms / engineSummary.p95Ms, 3), emptyResults: empty, slowest };
  };

  const search = await run(searchHandler, searches);
  const intent = await run(intentHandler, intents.map((text) => ({ intent: text })));
  const afterQueries = gcAndMemory();
  dynamo.restore();
  s3.restore();

  return {
    products,
    snapshotMb: mb(statSync(file).size),
    coldLoad: {
      loadMs: round(loadMs, 1),
      firstSearchMs: round(firstSearchMs, 2),
      heapGrowthMb: mb(afterLoad.heapUsed - before.heapUsed),
      rssGrowthMb: mb(afterLoad.rss - before.rss),
    },
    memoryAfterQueries: { heapGrowthMb: mb(afterQueries.heapUsed - before.heapUsed), rssGrowthMb: mb(afterQueries.rss - before.rss) },
    search,
    intent,
  };
}

/** Runs this file as a child with `args`; resolves with the value the child sends back. */
function child<T>(args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const process_ = fork(import.meta.filename, args, { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: T | undefined;
    process_.on('message', (message: T) => (result = message));
    process_.once('error', reject);
    process_.once('exit', (code) => (result !== undefined && code === 0 ? resolve(result) : reject(new Error(`bench/search.ts ${args[0]} exited with ${code}`))));
  });
}

interface IntentSetFigures {
  intents: number;
  products: number;
  intentFieldAccuracy: number;
  intentTop3: number;
  emptyWhenExpected: number;
  relaxationReported: number;
  excludedReturned: number;
  nothingFitsHonest: number;
  silentCurrencyCrossing: number;
  capBroken: number;
}

export async function measureSearch({ products = 100_000, log = (_message: string): void => undefined }: { products?: number; log?: (message: string) => void } = {}): Promise<SearchBenchResult> {
  const directory = path.join(BENCH_TMP, 'search');
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, 'snapshot.sqlite');
  try {
    log(`search: generating ${products} products into an index and its snapshot…`);
    const built = await child<{ seq: number; seconds: number }>(['build', file, String(products)]);
    log('search: a fresh instance loads the snapshot; 200 searches and 200 intents, handler and engine side by side…');
    const measured = await child<SearchMeasurement>(['measure', file, String(built.seq), String(products)]);
    const { evaluateIntentSet, generatedIndex } = await import('../test/support/intent-evaluation.ts');
    const { HELD_OUT_INTENTS } = await import('../test/fixtures/labelled-intents-held-out.ts');
    const { ROUND4_INTENTS } = await import('../test/fixtures/labelled-intents-round4.ts');
    const labelled = generatedIndex(3_000);
    try {
      const figures = (scored: ReturnType<typeof evaluateIntentSet>): IntentSetFigures => ({
        intents: scored.intents,
        products: 3_000,
        intentFieldAccuracy: round(scored.intentFieldAccuracy, 3),
        intentTop3: round(scored.intentTop3, 3),
        emptyWhenExpected: round(scored.emptyWhenExpected, 3),
        relaxationReported: round(scored.relaxationReported, 3),
        excludedReturned: scored.excludedReturned,
        nothingFitsHonest: round(scored.nothingFitsHonest, 3),
        silentCurrencyCrossing: scored.silentCurrencyCrossing,
        capBroken: scored.capBroken,
      });
      return {
        ...measured,
        buildSeconds: built.seconds,
        intentSet: figures(evaluateIntentSet(labelled.index)),
        heldOutSet: figures(evaluateIntentSet(labelled.index, HELD_OUT_INTENTS)),
        round4Set: figures(evaluateIntentSet(labelled.index, ROUND4_INTENTS)),
      };
    } finally {
      labelled.dispose();
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const [mode, file, a, b] = process.argv.slice(2);
  if (mode === 'build') process.send?.(await build(file!, Number(a)));
  else if (mode === 'measure') process.send?.(await measure(file!, Number(a), Number(b)));
  else {
    const products = Number(process.env.BENCH_SEARCH_PRODUCTS ?? 100_000);
    // Other processes skew every figure: the 1-minute load average before and after, printed with them.
    const loadAtStart = Math.round((os.loadavg()[0] ?? 0) * 100) / 100;
    const result = await measureSearch({ products, log: (message) => void process.stderr.write(`[bench] ${message}\n`) });
    const loadAtEnd = Math.round((os.loadavg()[0] ?? 0) * 100) / 100;
    console.log(JSON.stringify({ loadAverage1m: { atStart: loadAtStart, atEnd: loadAtEnd }, ...result }, null, 2));
  }
}
