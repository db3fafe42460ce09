// The table docs/performance.md leads with, generated from bench/results.json: every figure of the last
// `npm run bench`, what it measures, its target, whether the run met it, and the bench script that
// measures it alone; above it the run's date, machine and load average. `npm run docs` rewrites the
// part between the markers; test/unit/endpoints-doc.test.ts fails when it is out of date.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const BENCH_TABLE_BEGIN = '<!-- bench-results: generated from bench/results.json by `npm run docs`; do not edit by hand -->';
export const BENCH_TABLE_END = '<!-- /bench-results -->';

/** One target check of a run, as bench/run.ts writes it. */
export interface BenchCheck {
  figure: string;
  value: number;
  /** null: the figure is reported for information. */
  target: number | null;
  comparator: '<=' | '>=';
  unit: string;
  pass: boolean;
}

/** The part of bench/results.json the table reads. */
export interface BenchResults {
  measuredAt: string;
  machine: { cpus: number; cpuModel: string; node: string; loadAverage1mAtStart: number; loadAverage1mAtEnd: number };
  checks: BenchCheck[];
  durationSeconds: number;
}

const RUN = '`npm run bench`';
const COLD_START = '`node bench/cold-start.ts`';
const COLD_IMPORT = '`node bench/cold-import.ts`';
const FEEDS = '`node bench/feeds.ts 100000`';
const FEED_WORKER = '`node bench/feeds.ts 100000 worker`';
const SEARCH = '`node bench/search.ts`';
const TRADE = '`node bench/trade.ts`';
const WEBHOOKS = '`node bench/webhooks.ts`';
const MCP = '`node bench/mcp.ts`';
const SANDBOX_START = '`npm run bench:sandbox-start`';
const RFQS = '`node bench/rfqs.ts`';

/** What each figure measures, and what measures it alone (`npm run bench` when nothing smaller does). */
const FIGURES: Record<string, { measures: string; alone: string }> = {
  bundleKbMax: { measures: 'largest bundle, as deployed (functions with a budget of their own apart)', alone: RUN },
  bundleKbMin: { measures: 'smallest bundle, as deployed', alone: RUN },
  coldStartRatio: { measures: "slowest route bundle's fresh import ÷ a minimal handler's, timed", alone: COLD_START },
  coldStartInstructionsRatio: { measures: 'the same in instructions (callgrind), the slowest route by them', alone: COLD_START },
  importMsOverSdkP50: { measures: "slowest bundle's fresh import over its AWS SDK modules' alone, p50 of pairs", alone: COLD_IMPORT },
  importInstructionsOverSdkM: { measures: 'the same in instructions (callgrind), the slowest bundle by them', alone: COLD_IMPORT },
  mcpBundleKb: { measures: "`POST /mcp`'s bundle, as deployed", alone: RUN },
  mcpImportMsOverSdkP50: { measures: "`POST /mcp`'s fresh import over its AWS SDK modules' alone", alone: RUN },
  mcpOverheadRatio: { measures: 'p95 of `search_products` over MCP ÷ p95 of `POST /v1/search-intent`, same intents', alone: MCP },
  eventsFollowP95Ms: { measures: 'an order change sent → an agent following `GET /v1/events` has it, p95', alone: MCP },
  middlewareMsP50: { measures: 'the request pipeline per request, warm, DynamoDB stubbed, p50', alone: '`node bench/middleware.ts`' },
  apiVsDynamoThroughputRatio: { measures: '`GET /v1/agents/me` req/s ÷ DynamoDB Local GetItem req/s, same concurrency', alone: RUN },
  dynamoCallsPerAuthenticatedGet: { measures: 'DynamoDB calls of a warm authenticated GET (free plan)', alone: RUN },
  restrictedKeyAuthOverheadRatio: { measures: 'time per `GET /v1/agents/me` with a restricted key ÷ with the main key, interleaved windows', alone: RUN },
  feedRowsPerSecond: { measures: 'presigned CSV feed through the local runtime, PUT → `completed`', alone: FEEDS },
  feedVsBatchWriteRatio: { measures: 'the same ÷ raw BatchWriteItem of the same items, same parallelism', alone: FEEDS },
  feedPeakRssMb: { measures: "the feed worker's peak RSS alone, as deployed, on the larger file", alone: FEED_WORKER },
  feedPeakRssSmallOverLarge: { measures: 'its peak on a tenth of the rows ÷ on all of them', alone: FEED_WORKER },
  searchP95Ms: { measures: '`POST /v1/search` handler, warm, 100,000 products, p95', alone: SEARCH },
  searchIntentP95Ms: { measures: '`POST /v1/search-intent` handler, same index, p95', alone: SEARCH },
  searchOverheadRatio: { measures: "search handler p95 ÷ the engine's own p95 on the same calls", alone: SEARCH },
  searchIntentOverheadRatio: { measures: "intent handler p95 ÷ the engine's own p95 (reading and relaxing count as overhead)", alone: SEARCH },
  searchIndexColdLoadMs: { measures: 'a fresh instance loading the 100,000-product snapshot', alone: SEARCH },
  searchIndexMb: { measures: "RSS growth after the index's load and every query", alone: SEARCH },
  intentFieldAccuracy: { measures: 'labelled intents: fields read right', alone: SEARCH },
  intentTop3: { measures: 'labelled intents: the expected item in the top 3', alone: SEARCH },
  intentEmptyWhenExpected: { measures: 'labelled intents: nothing answered when nothing fits', alone: SEARCH },
  intentExcludedReturned: { measures: 'labelled intents returning an item the intent ruled out', alone: SEARCH },
  createOrderP95Ms: { measures: '`POST /v1/create-order` at 16 concurrent buyers, p95', alone: TRADE },
  orderVsTransactRatio: { measures: 'create-order/s through a key with spending limits ÷ raw TransactWriteItems/s of the same seven items', alone: TRADE },
  negotiationMoveP95Ms: { measures: 'counters on 16 sessions at once, p95', alone: TRADE },
  dynamoCallsPerCreateOrder: { measures: 'DynamoDB calls of a warm create-order (pro plan, rate limit counted)', alone: TRADE },
  deliveriesPerSecond: { measures: '5,000 webhook deliveries, outbox → queue → signed POST at a local sink', alone: WEBHOOKS },
  deliveryVsRawPostRatio: { measures: 'the same ÷ signed POSTs/s from a plain loop at the same concurrency', alone: WEBHOOKS },
  deliveryVsWritesOnlyRatio: { measures: "the same ÷ the same deliveries' table writes alone", alone: WEBHOOKS },
  writesOnlyVsRawPostRatio: { measures: 'the best `deliveryVsRawPostRatio` DynamoDB Local allows here', alone: WEBHOOKS },
  eventToDeliveryP95Ms: { measures: "an event's commit → its receipt, 40 events 200 ms apart, p95", alone: WEBHOOKS },
  sandboxStartSeconds: { measures: "`npm start`'s ready time on an empty data folder, the house catalog included (process start → serving), median", alone: SANDBOX_START },
  sandboxStartAddedSeconds: { measures: 'what the house agents and their 240-product catalog add to it: with − without, paired per round, median', alone: SANDBOX_START },
  sandboxRestartAddedSeconds: { measures: 'the same on a restart (the catalog already loaded: only its version read)', alone: SANDBOX_START },
  rfqFanOutP95Ms: { measures: "`POST /v1/rfqs` → the last matching seller's `rfq.created` in its events feed, 1,000 sellers and 100,000 products (about 200 sellers reached), p95 of 15", alone: RFQS },
};

export function readBenchResults(root: string): BenchResults {
  return JSON.parse(readFileSync(path.join(root, 'bench', 'results.json'), 'utf8')) as BenchResults;
}

const number = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 4 });

function quantity(value: number, unit: string): string {
  if (unit === '') return number(value);
  return unit === '×' || unit.startsWith('/') ? `${number(value)}${unit}` : `${number(value)} ${unit}`;
}

function row(check: BenchCheck): string {
  const figure = FIGURES[check.figure];
  if (!figure) throw new Error(`bench/results.json has ${check.figure}, which lib/performance-doc.ts does not describe: add it to FIGURES`);
  const target = check.target === null ? 'for information' : `${check.comparator === '<=' ? '≤' : '≥'} ${quantity(check.target, check.unit)}`;
  const met = check.target === null ? '–' : check.pass ? 'yes' : '**no**';
  return `| \`${check.figure}\` | ${figure.measures} | ${quantity(check.value, check.unit)} | ${target} | ${met} | ${figure.alone} |`;
}

/** The generated part: the run, then one row per figure in the order bench/run.ts checks them. */
export function benchTable(results: BenchResults): string {
  const targets = results.checks.filter((check) => check.target !== null);
  const met = targets.filter((check) => check.pass).length;
  const finished = `${results.measuredAt.slice(0, 10)} ${results.measuredAt.slice(11, 16)} UTC`;
  const { machine } = results;
  return [
    BENCH_TABLE_BEGIN,
    '',
    `**Last run**: ${RUN}, finished ${finished} after ${number(Math.round(results.durationSeconds))} s, on ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}; ` +
      `load average (1 min) ${machine.loadAverage1mAtStart} at the start, ${machine.loadAverage1mAtEnd} at the end. ` +
      `**${met} of ${targets.length} targets met.** Targets are those the run checked (\`bench/run.ts\`).`,
    '',
    '| figure | what it measures | value | target | met | measured alone by |',
    '|---|---|---|---|---|---|',
    ...results.checks.map(row),
    '',
    BENCH_TABLE_END,
  ].join('\n');
}

/** docs/performance.md with the part between the markers replaced by the table of `results`. */
export function performanceMarkdown(current: string, results: BenchResults): string {
  const begin = current.indexOf(BENCH_TABLE_BEGIN);
  const end = current.indexOf(BENCH_TABLE_END);
  if (begin === -1 || end < begin) throw new Error(`docs/performance.md needs the markers ${BENCH_TABLE_BEGIN} and ${BENCH_TABLE_END}, in that order`);
  return current.slice(0, begin) + benchTable(results) + current.slice(end + BENCH_TABLE_END.length);
}
