// Feed processing, two ways, for two file sizes (BENCH_FEED_ROWS and a tenth of it):
// - the pipeline through the local runtime: a generated CSV uploaded presigned, from the PUT to the
//   feed's `completed` (feedRowsPerSecond), and the same products and offers written straight into
//   DynamoDB Local with BatchWriteItem at the pipeline's parallelism, same run (feedVsBatchWriteRatio);
// - the feed worker alone (feedPeakRssMb): the deployed bundle of the S3-notification worker in a
//   process of its own (bench/feed-worker.ts), invoked as Lambda invokes it with the ObjectCreated
//   event of a file already stored in the S3 emulator, with DynamoDB Local behind it and nothing else
//   of the runtime running. Its peak resident set is what the function's memory setting must cover.
//
// Children (bench/harness.ts), each size on a fresh data folder: the local runtime (`serve <dir>
// runtime`) for the pipeline; for the worker, the runtime only to register the seller, then the store
// (`serve <dir> store`: DynamoDB Local, fauxqs and the presigned-upload proxy on the same folder, with
// no worker listening) which takes the upload, then the worker.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BatchGetItemCommand, BatchWriteItemCommand, QueryCommand, type AttributeValue, type WriteRequest } from '@aws-sdk/client-dynamodb';
import type { S3Event } from 'aws-lambda';
import { chunked, forEachConcurrently } from '../shared/concurrency.ts';
import { untilProcessed } from '../shared/data/unprocessed.ts';
import { ENV } from '../shared/resources.ts';
import { workers } from '../functions/registry.ts';
import { workerTimeoutSeconds } from '../shared/workers.ts';
import { build } from 'esbuild';
import { bundleEntry } from './bundle.ts';
import {
  apiCaller,
  benchTempDir,
  dynamoAccess,
  dynamoClientFor,
  isBenchChild,
  localRuntimeStartSeconds,
  serveChild,
  serveLocalRuntime,
  startBenchChild,
  type ChildSetup,
  type DynamoAccess,
} from './harness.ts';
import { round } from './stats.ts';

/** The pipeline's own BatchWriteItem parallelism (shared/domain/feed-processing.ts). */
export const WRITE_PARALLELISM = 8;

const FEED_WORKER = workers.find((worker) => worker.id === 'feedUploads')!;
/** A run hands over near Lambda's time limit; each continuation is a new invocation (here a fresh process). */
const MAX_INVOCATIONS = 10;

/** The feed worker alone, in its own process (bench/feed-worker.ts). */
export interface FeedWorkerRun {
  rows: number;
  /** The worker's bundle as deployed (lib/bundling.ts). */
  bundleKb: number;
  invocations: number;
  /** From the invocation to the handler's return (summed over invocations). */
  seconds: number;
  rowsPerSecond: number;
  /** The process's VmHWM before the bundle was imported (node itself and the harness). */
  rssBeforeImportMb: number;
  /** Its VmHWM once the bundle was imported (the cold start). */
  rssAfterImportMb: number;
  /** VmHWM after the invocation: the figure (the largest over invocations). */
  peakRssMb: number;
  /** Peaks of process.memoryUsage() sampled every 100 ms during the invocation. */
  heapUsedPeakMb: number;
  heapTotalPeakMb: number;
  externalPeakMb: number;
  arrayBuffersPeakMb: number;
}

/** A feed through the local runtime. */
export interface PipelineRun {
  rows: number;
  fileMb: number;
  /** From the start of the PUT to the feed's `completedAt`. */
  seconds: number;
  rowsPerSecond: number;
  runtimeStartSeconds: number;
}

export interface FeedWorkerResult {
  small: FeedWorkerRun;
  large: FeedWorkerRun;
  smallVsLargePeakRss: number;
}

export interface FeedRunResult extends PipelineRun {
  /** The feed worker alone's peak resident set on a file of the same size (worker.peakRssMb). */
  peakRssMb: number;
  worker: FeedWorkerRun;
}

export interface FeedBenchResult {
  large: FeedRunResult;
  small: FeedRunResult;
  batchWrite: { rows: number; items: number; seconds: number; rowsPerSecond: number; parallelism: number };
  ratio: number;
  smallVsLargePeakRss: number;
}

/** A realistic row: about 300 bytes, with every kind of cell the parser converts. */
export function benchCsv(rows: number): string {
  const lines = ['sku,title,description,category,brand,unit,price,currency,available_quantity,min_order_quantity,lead_time_days,ships_from,image_urls,attributes,floor_price,auto_accept_price'];
  const currencies = ['USD', 'EUR', 'JPY', 'GBP'];
  for (let i = 1; i <= rows; i++) {
    const currency = currencies[i % currencies.length] as string;
    const price = currency === 'JPY' ? `${1000 + (i % 500)}` : `${(i % 90) + 10}.${String(i % 100).padStart(2, '0')}`;
    const floor = currency === 'JPY' ? `${800 + (i % 100)}` : `${(i % 90) + 5}.00`;
    const accept = currency === 'JPY' ? `${1500 + (i % 500)}` : `${(i % 90) + 12}.00`;
    lines.push(
      [
        `BENCH-${i}`,
        `Nitrile examination gloves size ${['S', 'M', 'L', 'XL'][i % 4]} box of ${50 + (i % 4) * 50} lot ${i}`,
        `"Powder-free, textured fingertips, ${(0.08 + (i % 5) / 100).toFixed(2)} mm, latex-free"`,
        `safety/gloves/nitrile`,
        `Brand ${i % 40}`,
        'box',
        price,
        currency,
        `${(i * 7) % 100_000}`,
        `${1 + (i % 10)}`,
        `${i % 30}`,
        ['DE', 'US', 'NL', 'JP', 'GB'][i % 5],
        `https://cdn.example.com/p/${i}-1.jpg|https://cdn.example.com/p/${i}-2.jpg`,
        `material=nitrile;size=${['S', 'M', 'L', 'XL'][i % 4]};powderFree=true;thicknessMm=0.1;batch=${i}`,
        floor,
        accept,
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}


/** The fields of a feed record the bench reads. */
interface FeedRecord {
  feedId: string;
  status: string;
  rowsSucceeded: number;
  completedAt: string | null;
  failureReason: string | null;
  errors: unknown[];
  uploadUrl?: string;
}

// ---------------------------------------------------------------------------------------------
// Children
// ---------------------------------------------------------------------------------------------

interface RuntimeReady {
  baseUrl: string;
  sellerId: string;
  apiKey: string;
  /** What the handlers see: the store and the worker get the same settings. */
  env: Record<string, string>;
  dynamo: DynamoAccess;
  runtimeStartSeconds: number;
}

/** The local runtime with a seller on the enterprise plan (polling must not hit the free plan's limits). */
async function serveRuntime(): Promise<void> {
  await serveLocalRuntime<RuntimeReady>(async (runtime) => {
    const { setAgentPlan } = await import('../shared/data/agents.ts');
    const seller = await apiCaller(runtime.baseUrl)('POST', '/v1/agents/register', undefined, {
      name: 'Bench seller',
      role: 'seller',
      organization: { legalName: 'Bench Supplies BV', country: 'NL' },
      contactEmail: 'bench-seller@bench.example',
    });
    if (seller.status !== 201) throw new Error(`registration answered ${seller.status}: ${seller.text}`);
    const sellerId = seller.data.agentId as string;
    if (!(await setAgentPlan(sellerId, 'enterprise', new Date().toISOString()))) throw new Error('setAgentPlan found no seller');
    return {
      ready: { baseUrl: runtime.baseUrl, sellerId, apiKey: seller.data.apiKey as string, env: runtime.env, dynamo: dynamoAccess(runtime), runtimeStartSeconds: localRuntimeStartSeconds() },
    };
  });
}

interface PreparedFeed {
  feedId: string;
  objectKey: string;
  uploadUrl: string;
}

interface StoreReady {
  /** The handlers' settings with this store's endpoints. */
  env: Record<string, string>;
}

/**
 * DynamoDB Local, the S3 emulator and the upload proxy on the runtime's folder, without the runtime: no
 * notification runs a feed here. The search index's stream worker runs, as in a stack: a feed completes
 * only once search has its products (docs/decisions/feed-completed-when-searchable.md).
 */
async function serveStore(): Promise<void> {
  await serveChild<StoreReady>(async ({ dataDir, onStop }): Promise<ChildSetup<StoreReady>> => {
    if (!dataDir) throw new Error('The store needs the runtime\'s data folder');
    const { startDynamoDbLocal } = await import('../lib/local/dynamodb-local.ts');
    const { startLocalFauxqs } = await import('../lib/local/fauxqs.ts');
    const { provisionLocalResources } = await import('../lib/local/provision.ts');
    const { startUploadProxy } = await import('../lib/local/upload-proxy.ts');
    const dynamo = await startDynamoDbLocal({ dataDir });
    onStop(() => dynamo.stop());
    const fauxqs = await startLocalFauxqs({ dataDir });
    onStop(() => fauxqs.stop());
    const resources = await provisionLocalResources({ dynamodb: dynamo.endpoint, fauxqs: fauxqs.endpoint });
    const uploads = await startUploadProxy({ fauxqsEndpoint: fauxqs.endpoint });
    onStop(() => uploads.stop());
    const endpoints = {
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_ENDPOINT_URL_S3: fauxqs.endpoint,
      AWS_ENDPOINT_URL_SQS: fauxqs.endpoint,
      [ENV.feedsUploadEndpoint]: uploads.endpoint,
    };
    Object.assign(process.env, endpoints);
    // The modules below read the environment when first used.
    const { resetConfig } = await import('../shared/config.ts');
    resetConfig();
    const { getFeed } = await import('../shared/data/feeds.ts');
    const { uploadFeed } = await import('../shared/domain/feeds.ts');
    const { startStreamReader } = await import('../lib/local/stream-reader.ts');
    const { loadHandler } = await import('../lib/local/lambda.ts');
    const indexWorker = workers.find((worker) => worker.id === 'searchIndexChanges');
    if (indexWorker?.trigger.type !== 'stream') throw new Error('No searchIndexChanges stream worker');
    const reader = startStreamReader({
      endpoint: dynamo.endpoint,
      tableName: resources.tableName,
      dataDir,
      functionName: indexWorker.id,
      entities: indexWorker.trigger.entities,
      batchSize: indexWorker.trigger.batchSize,
      timeoutMs: workerTimeoutSeconds(indexWorker) * 1000,
      handler: await loadHandler(indexWorker.handler),
    });
    onStop(() => reader.stop());
    return {
      ready: { env: { ...(process.env as Record<string, string>), ...endpoints } },
      commands: {
        /** A new presigned feed of the seller (awaiting its upload). */
        prepare: async ({ sellerId }: { sellerId: string }): Promise<PreparedFeed> => {
          const created = await uploadFeed(sellerId, { kind: 'presigned', format: 'csv', filename: 'bench-worker.csv' }, new Date());
          const stored = await getFeed(sellerId, created.feedId, { consistent: true });
          if (!stored || !('uploadUrl' in created)) throw new Error('The presigned feed was not created');
          return { feedId: created.feedId, objectKey: stored.objectKey, uploadUrl: created.uploadUrl };
        },
        feed: async ({ sellerId, feedId }: { sellerId: string; feedId: string }) => {
          const feed = await getFeed(sellerId, feedId, { consistent: true });
          if (!feed) throw new Error(`No feed ${feedId}`);
          return { status: feed.status, rowsSucceeded: feed.rowsSucceeded, rowsFailed: feed.rowsFailed, errors: feed.errors.slice(0, 3), failureReason: feed.failureReason };
        },
      },
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Bench side
// ---------------------------------------------------------------------------------------------

/** The ObjectCreated event S3 sends for the file (the handler reads the key; the rest as AWS shapes it). */
async function objectCreated(bucket: string, objectKey: string, sizeBytes: number): Promise<S3Event> {
  const { encodeEventKey } = await import('../lib/local/s3-notifications.ts');
  return {
    Records: [
      {
        eventVersion: '2.1',
        eventSource: 'aws:s3',
        awsRegion: 'us-east-1',
        eventTime: new Date().toISOString(),
        eventName: 'ObjectCreated:CompleteMultipartUpload',
        userIdentity: { principalId: 'AWS:BENCH' },
        requestParameters: { sourceIPAddress: '127.0.0.1' },
        responseElements: { 'x-amz-request-id': 'BENCH', 'x-amz-id-2': 'BENCH' },
        s3: {
          s3SchemaVersion: '1.0',
          configurationId: 'bench',
          bucket: { name: bucket, ownerIdentity: { principalId: 'BENCH' }, arn: `arn:aws:s3:::${bucket}` },
          object: { key: encodeEventKey(objectKey), size: sizeBytes, eTag: '', sequencer: '0' },
        },
      },
    ],
  };
}

interface WorkerReady {
  rssBeforeImportMb: number;
  rssAfterImportMb: number;
}

type Invocation = Omit<FeedWorkerRun, 'rows' | 'bundleKb' | 'invocations' | 'rowsPerSecond' | 'rssBeforeImportMb' | 'rssAfterImportMb'>;

/**
 * The worker alone on a stored file of `rows` rows, on a fresh folder: the runtime registers the seller
 * and stops; the store takes the presigned upload; then fresh worker processes, one per invocation
 * (a run hands over near Lambda's time limit; the next invocation continues from its checkpoint), until
 * the feed is completed.
 */
async function runWorker(rows: number, bundle: { file: string; kb: number }, host: string, log: (message: string) => void): Promise<FeedWorkerRun> {
  const csv = benchCsv(rows);
  const dataDir = await benchTempDir('agent-marketplace-bench-feed-worker-');
  try {
    const local = await startBenchChild<RuntimeReady>({ module: import.meta.filename, dataDir: dataDir.path, args: ['runtime'] });
    await local.stop();
    const runtime = local.ready;
    const store = await startBenchChild<StoreReady>({ module: import.meta.filename, dataDir: dataDir.path, args: ['store'], env: runtime.env });
    try {
      const prepared = await store.command<PreparedFeed>('prepare', { sellerId: runtime.sellerId });
      const put = await fetch(prepared.uploadUrl, { method: 'PUT', body: csv });
      if (put.status !== 200) throw new Error(`presigned PUT answered ${put.status}: ${await put.text()}`);
      const event = await objectCreated(store.ready.env.FEEDS_BUCKET_NAME as string, prepared.objectKey, Buffer.byteLength(csv));
      const feedOf = () => store.command<{ status: string; rowsSucceeded: number; errors: unknown[]; failureReason: string | null }>('feed', { sellerId: runtime.sellerId, feedId: prepared.feedId });
      const runs: (Invocation & WorkerReady)[] = [];
      for (;;) {
        log(`feeds: the worker alone, ${rows} rows (invocation ${runs.length + 1})…`);
        const worker = await startBenchChild<WorkerReady>({
          module: host,
          args: [bundle.file, FEED_WORKER.id, String(workerTimeoutSeconds(FEED_WORKER) * 1000)],
          env: store.ready.env,
        });
        const progress = setInterval(() => {
          void Promise.all([feedOf(), worker.memory()]).then(
            ([feed, memory]) => log(`feeds: the worker alone: ${feed.status}, ${feed.rowsSucceeded} of ${rows} rows; peak RSS so far ${round(memory.peakRssMb, 0)} MiB`),
            () => undefined,
          );
        }, 60_000);
        try {
          runs.push({ ...worker.ready, ...(await worker.command<Invocation>('invoke', event, 20 * 60_000)) });
        } finally {
          clearInterval(progress);
          await worker.stop();
        }
        const feed = await feedOf();
        if (feed.status === 'completed' && feed.rowsSucceeded === rows) break;
        if (feed.status !== 'processing' || runs.length >= MAX_INVOCATIONS) {
          throw new Error(`the worker alone ended the feed ${feed.status} with ${feed.rowsSucceeded}/${rows} rows: ${JSON.stringify(feed.errors)} ${feed.failureReason ?? ''}`);
        }
      }
      const max = (pick: (run: (typeof runs)[number]) => number) => round(Math.max(...runs.map(pick)), 0);
      const seconds = runs.reduce((total, run) => total + run.seconds, 0);
      log(`feeds: the worker alone, ${rows} rows: ${round(seconds, 0)} s in ${runs.length} invocation(s), peak RSS ${max((run) => run.peakRssMb)} MiB`);
      return {
        rows,
        bundleKb: bundle.kb,
        invocations: runs.length,
        seconds: round(seconds, 1),
        rowsPerSecond: round(rows / seconds, 1),
        rssBeforeImportMb: max((run) => run.rssBeforeImportMb),
        rssAfterImportMb: max((run) => run.rssAfterImportMb),
        peakRssMb: max((run) => run.peakRssMb),
        heapUsedPeakMb: max((run) => run.heapUsedPeakMb),
        heapTotalPeakMb: max((run) => run.heapTotalPeakMb),
        externalPeakMb: max((run) => run.externalPeakMb),
        arrayBuffersPeakMb: max((run) => run.arrayBuffersPeakMb),
      };
    } finally {
      await store.stop();
    }
  } finally {
    await dataDir.remove();
  }
}

/** One feed of `rows` rows through a fresh local runtime; `during` runs before the runtime stops. */
async function runPipeline(rows: number, log: (message: string) => void, during?: (runtime: RuntimeReady) => Promise<void>): Promise<PipelineRun> {
  const csv = benchCsv(rows);
  const local = await startBenchChild<RuntimeReady>({ module: import.meta.filename, tmpPrefix: 'agent-marketplace-bench-feeds-', args: ['runtime'] });
  try {
    const runtime = local.ready;
    const call = apiCaller(runtime.baseUrl);
    const created = await call('POST', '/v1/seller/feeds', runtime.apiKey, { format: 'csv', upload: 'presigned' });
    if (created.status !== 202) throw new Error(`presigned feed answered ${created.status}: ${created.text}`);
    log(`feeds: ${rows} rows (${round(csv.length / 1024 ** 2, 1)} MiB): PUT, then processing…`);
    const putStarted = Date.now();
    const put = await fetch(created.data.uploadUrl as string, { method: 'PUT', body: csv });
    if (put.status !== 200) throw new Error(`presigned PUT answered ${put.status}: ${await put.text()}`);

    let feed: FeedRecord;
    let lastLog = Date.now();
    for (;;) {
      feed = (await call('GET', `/v1/seller/feeds/${created.data.feedId as string}`, runtime.apiKey)).data as unknown as FeedRecord;
      if (feed.status === 'completed' || feed.status === 'failed') break;
      if (Date.now() - lastLog > 30_000) {
        log(`feeds: ${feed.status}, ${feed.rowsSucceeded} of ${rows} rows after ${round((Date.now() - putStarted) / 1000, 0)} s`);
        lastLog = Date.now();
      }
      await sleep(500);
    }
    if (feed.status !== 'completed' || feed.rowsSucceeded !== rows) throw new Error(`feed ended ${feed.status} with ${feed.rowsSucceeded}/${rows} rows: ${JSON.stringify(feed.errors.slice(0, 3))} ${feed.failureReason ?? ''}`);
    const seconds = (Date.parse(feed.completedAt ?? '') - putStarted) / 1000;
    if (during) await during(runtime);
    return { rows, fileMb: round(csv.length / 1024 ** 2, 1), seconds: round(seconds, 1), rowsPerSecond: round(rows / seconds, 1), runtimeStartSeconds: round(runtime.runtimeStartSeconds, 1) };
  } finally {
    await local.stop();
  }
}

/** Reads back the seller's products and offers and writes copies under new keys, timed. */
async function batchWriteBaseline(runtime: RuntimeReady, rows: number, log: (message: string) => void): Promise<FeedBenchResult['batchWrite']> {
  const dynamodb = await dynamoClientFor(runtime.dynamo);
  const table = runtime.env.TABLE_NAME!;
  const sellerId = runtime.sellerId;
  try {
    log('feeds: reading back what the pipeline wrote (for the BatchWriteItem baseline)…');
    // The seller's products by its list index, then their standing offers by key (access pattern 20 in
    // docs/data-model.md): a filtered Scan of the whole table took about 20 minutes at 100,000 rows.
    const products: Record<string, AttributeValue>[] = [];
    let startKey: Record<string, AttributeValue> | undefined;
    do {
      const page = await dynamodb.send(
        new QueryCommand({
          TableName: table,
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :products',
          ExpressionAttributeValues: { ':products': { S: `SELLER#${sellerId}#PRODUCTS` } },
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      products.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    const offerKeys: Record<string, AttributeValue>[] = products.map((product) => ({ pk: { S: `OFFER#${product.standingOfferId?.S ?? ''}` }, sk: { S: 'OFFER' } }));
    const offers: Record<string, AttributeValue>[] = [];
    await forEachConcurrently(chunked(offerKeys, 100), WRITE_PARALLELISM, (keys) =>
      untilProcessed(keys, async (pending) => {
        const result = await dynamodb.send(new BatchGetItemCommand({ RequestItems: { [table]: { Keys: pending } } }));
        offers.push(...(result.Responses?.[table] ?? []));
        return result.UnprocessedKeys?.[table]?.Keys ?? [];
      }),
    );
    const items = [...products, ...offers];
    if (items.length !== rows * 2) throw new Error(`expected ${rows * 2} product and offer items, found ${items.length}`);
    // New keys, same shapes: every key and index key gets the same suffix, so each copy is an insert.
    const copies: WriteRequest[] = items.map((item) => {
      const copy = { ...item };
      for (const name of ['pk', 'gsi1pk', 'gsi2pk'] as const) {
        const value = copy[name]?.S;
        if (value !== undefined) copy[name] = { S: `${value}#BASELINE` };
      }
      return { PutRequest: { Item: copy } };
    });
    const batches = chunked(copies, 25);
    log(`feeds: BatchWriteItem of ${copies.length} items at parallelism ${WRITE_PARALLELISM}…`);
    const started = performance.now();
    await forEachConcurrently(batches, WRITE_PARALLELISM, (batch) =>
      untilProcessed(batch, async (pending) => {
        const result = await dynamodb.send(new BatchWriteItemCommand({ RequestItems: { [table]: pending } }));
        return result.UnprocessedItems?.[table] ?? [];
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { rows, items: copies.length, seconds: round(seconds, 1), rowsPerSecond: round(rows / seconds, 1), parallelism: WRITE_PARALLELISM };
  } finally {
    dynamodb.destroy();
  }
}

/**
 * The worker's host process (bench/feed-worker.ts) as JavaScript, in `outDir`. Node runs a TypeScript
 * file by loading its type stripper, resident memory that Lambda's node never has (18 MiB for a file of
 * one line, more with every module it strips); bundled, the host holds node's built-ins and its own few
 * kB. The harness's dynamic imports (what only the bench process runs) stay out of it.
 */
async function bundleWorkerHost(outDir: string): Promise<string> {
  const outfile = path.join(outDir, 'feed-worker-host.mjs');
  await build({
    entryPoints: [path.join(import.meta.dirname, 'feed-worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    logLevel: 'silent',
    plugins: [{ name: 'dynamic-imports-external', setup: (bundler) => bundler.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined)) }],
  });
  return outfile;
}

/** The feed worker alone on a file of `rows` rows and on one of a tenth (at least 1,000). */
export async function measureFeedWorker(options: { rows: number; log: (message: string) => void }): Promise<FeedWorkerResult> {
  const { rows, log } = options;
  const bundleDir = await benchTempDir('agent-marketplace-bench-feed-bundle-');
  try {
    const bundle = await bundleEntry(FEED_WORKER.handler, bundleDir.path);
    const host = await bundleWorkerHost(bundleDir.path);
    const small = await runWorker(smallRowsFor(rows), bundle, host, log);
    const large = await runWorker(rows, bundle, host, log);
    return { small, large, smallVsLargePeakRss: round(small.peakRssMb / large.peakRssMb, 3) };
  } finally {
    await bundleDir.remove();
  }
}

const smallRowsFor = (rows: number) => Math.max(1_000, Math.round(rows / 10));

export async function measureFeeds(options: { rows: number; log: (message: string) => void }): Promise<FeedBenchResult> {
  const { rows, log } = options;
  const smallPipeline = await runPipeline(smallRowsFor(rows), log);
  let batchWrite: FeedBenchResult['batchWrite'] | undefined;
  const largePipeline = await runPipeline(rows, log, async (runtime) => {
    batchWrite = await batchWriteBaseline(runtime, rows, log);
  });
  if (!batchWrite) throw new Error('no baseline');
  const worker = await measureFeedWorker({ rows, log });
  const large = { ...largePipeline, peakRssMb: worker.large.peakRssMb, worker: worker.large };
  return {
    large,
    small: { ...smallPipeline, peakRssMb: worker.small.peakRssMb, worker: worker.small },
    batchWrite,
    ratio: round(large.rowsPerSecond / batchWrite.rowsPerSecond, 3),
    smallVsLargePeakRss: worker.smallVsLargePeakRss,
  };
}

if (isBenchChild()) {
  if (process.argv[4] === 'store') await serveStore();
  else await serveRuntime();
} else if (import.meta.main) {
  // `node bench/feeds.ts [rows] [worker]`: this part alone, or only the worker's memory.
  const rows = Number(process.argv[2] ?? process.env.BENCH_FEED_ROWS ?? 100_000);
  const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
  const result = process.argv[3] === 'worker' ? await measureFeedWorker({ rows, log }) : await measureFeeds({ rows, log });
  console.log(JSON.stringify(result, null, 2));
}
