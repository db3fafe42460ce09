// Feed processing through the local runtime: a generated CSV uploaded presigned, from the PUT to
// `completed`; the same products and offers written straight into DynamoDB Local with
// BatchWriteItem at the pipeline's parallelism, in the same run; and the peak RSS of the process that
// parses (the `npm start` process: gateway, handlers and workers), for two file sizes.
//
// Each size runs in a fresh `node bin/local.ts` child (its own data folder), so that its VmHWM (peak
// resident set) is that file's alone. The baseline reads back the items the pipeline wrote and writes
// copies under new keys (same sizes, same index keys), so storage sees the same work.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BatchWriteItemCommand, DynamoDBClient, ScanCommand, type AttributeValue, type WriteRequest } from '@aws-sdk/client-dynamodb';
import { listeningUrl, spawnLocalCommand } from '../lib/local/local-command.ts';
import { round } from './stats.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
/** The pipeline's own BatchWriteItem parallelism (shared/domain/feed-processing.ts). */
export const WRITE_PARALLELISM = 8;

export interface FeedRunResult {
  rows: number;
  fileMb: number;
  /** From the start of the PUT to the feed's `completedAt`. */
  seconds: number;
  rowsPerSecond: number;
  /** VmHWM of the `npm start` process after the feed completed. */
  peakRssMb: number;
  /** Its VmHWM just before the upload: what start-up alone costs. */
  rssBeforeUploadMb: number;
  runtimeStartSeconds: number;
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

/** VmHWM (peak) or VmRSS (current) of a process, in MiB. */
function procMemoryMb(pid: number, field: 'VmHWM' | 'VmRSS'): Promise<number> {
  return readFile(`/proc/${pid}/status`, 'utf8').then((status) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match) throw new Error(`No ${field} in /proc/${pid}/status`);
    return Number(match[1]) / 1024;
  });
}

interface LocalChild {
  child: ChildProcess;
  baseUrl: string;
  dataDir: string;
  startSeconds: number;
  stop(): Promise<void>;
}

async function startLocal(): Promise<LocalChild> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'agent-marketplace-bench-feeds-'));
  const started = performance.now();
  const child = spawnLocalCommand({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'SILENT' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = await listeningUrl(child);
  return {
    child,
    baseUrl,
    dataDir,
    startSeconds: (performance.now() - started) / 1000,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, sleep(20_000, undefined, { ref: false })]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    },
  };
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

async function callJson<T = Record<string, unknown>>(baseUrl: string, method: string, route: string, apiKey?: string, body?: unknown): Promise<{ status: number; data: T }> {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { data: T };
  return { status: response.status, data: json.data };
}

/** Runs one feed of `rows` rows through a fresh local runtime; hands the runtime to `after` before stopping it. */
async function runFeed(rows: number, log: (message: string) => void, after?: (local: LocalChild, sellerId: string) => Promise<void>): Promise<FeedRunResult> {
  const csv = benchCsv(rows);
  const local = await startLocal();
  try {
    const seller = await callJson<{ agentId: string; apiKey: string }>(local.baseUrl, 'POST', '/v1/agents/register', undefined, {
      name: 'Bench seller',
      role: 'seller',
      organization: { legalName: 'Bench Supplies BV', country: 'NL' },
      contactEmail: 'bench-seller@bench.example',
    });
    if (seller.status !== 201) throw new Error(`registration answered ${seller.status}`);
    const { agentId, apiKey } = seller.data;
    // The operator command, as a platform engineer would run it: polling must not hit the free plan's limits.
    const plan = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin/admin.ts'), 'set-plan', agentId, 'enterprise'], { env: { ...process.env, DATA_DIR: local.dataDir }, encoding: 'utf8' });
    if (plan.status !== 0) throw new Error(`set-plan failed: ${plan.stderr}`);

    const created = await callJson<FeedRecord>(local.baseUrl, 'POST', '/v1/seller/feeds', apiKey, { format: 'csv', upload: 'presigned' });
    if (created.status !== 202) throw new Error(`presigned feed answered ${created.status}`);
    const pid = local.child.pid!;
    const rssBeforeUploadMb = await procMemoryMb(pid, 'VmHWM');
    log(`feeds: ${rows} rows (${round(csv.length / 1024 ** 2, 1)} MiB): PUT, then processing…`);
    const putStarted = Date.now();
    const put = await fetch(created.data.uploadUrl!, { method: 'PUT', body: csv });
    if (put.status !== 200) throw new Error(`presigned PUT answered ${put.status}: ${await put.text()}`);

    let feed: FeedRecord;
    let lastLog = Date.now();
    for (;;) {
      feed = (await callJson<FeedRecord>(local.baseUrl, 'GET', `/v1/seller/feeds/${created.data.feedId}`, apiKey)).data;
      if (feed.status === 'completed' || feed.status === 'failed') break;
      if (Date.now() - lastLog > 30_000) {
        log(`feeds: ${feed.status}, ${feed.rowsSucceeded} of ${rows} rows after ${round((Date.now() - putStarted) / 1000, 0)} s`);
        lastLog = Date.now();
      }
      await sleep(500);
    }
    if (feed.status !== 'completed' || feed.rowsSucceeded !== rows) throw new Error(`feed ended ${feed.status} with ${feed.rowsSucceeded}/${rows} rows: ${JSON.stringify(feed.errors.slice(0, 3))} ${feed.failureReason ?? ''}`);
    const seconds = (Date.parse(feed.completedAt ?? '') - putStarted) / 1000;
    const peakRssMb = await procMemoryMb(pid, 'VmHWM');
    if (after) await after(local, agentId);
    return {
      rows,
      fileMb: round(csv.length / 1024 ** 2, 1),
      seconds: round(seconds, 1),
      rowsPerSecond: round(rows / seconds, 1),
      peakRssMb: round(peakRssMb, 0),
      rssBeforeUploadMb: round(rssBeforeUploadMb, 0),
      runtimeStartSeconds: round(local.startSeconds, 1),
    };
  } finally {
    await local.stop();
  }
}

/** Reads back the seller's products and offers and writes copies under new keys, timed. */
async function batchWriteBaseline(local: LocalChild, sellerId: string, rows: number, log: (message: string) => void): Promise<FeedBenchResult['batchWrite']> {
  const runtime = JSON.parse(await readFile(path.join(local.dataDir, 'runtime.json'), 'utf8')) as { endpoints: { dynamodb: string }; env: Record<string, string> };
  const dynamodb = new DynamoDBClient({
    endpoint: runtime.endpoints.dynamodb,
    region: runtime.env.AWS_REGION!,
    credentials: { accessKeyId: runtime.env.AWS_ACCESS_KEY_ID!, secretAccessKey: runtime.env.AWS_SECRET_ACCESS_KEY! },
  });
  const table = runtime.env.TABLE_NAME!;
  try {
    log('feeds: reading back what the pipeline wrote (for the BatchWriteItem baseline)…');
    const items: Record<string, AttributeValue>[] = [];
    let startKey: Record<string, AttributeValue> | undefined;
    do {
      const page = await dynamodb.send(
        new ScanCommand({
          TableName: table,
          FilterExpression: 'sellerId = :seller AND entity IN (:product, :offer)',
          ExpressionAttributeValues: { ':seller': { S: sellerId }, ':product': { S: 'product' }, ':offer': { S: 'offer' } },
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
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
    const batches: WriteRequest[][] = [];
    for (let i = 0; i < copies.length; i += 25) batches.push(copies.slice(i, i + 25));
    log(`feeds: BatchWriteItem of ${copies.length} items at parallelism ${WRITE_PARALLELISM}…`);
    const started = performance.now();
    let next = 0;
    const lane = async () => {
      for (;;) {
        const index = next++;
        const batch = batches[index];
        if (!batch) return;
        let pending: WriteRequest[] = batch;
        for (let attempt = 0; pending.length > 0; attempt++) {
          if (attempt > 0) await sleep(Math.min(1000, 25 * 2 ** attempt));
          const result = await dynamodb.send(new BatchWriteItemCommand({ RequestItems: { [table]: pending } }));
          pending = result.UnprocessedItems?.[table] ?? [];
        }
      }
    };
    await Promise.all(Array.from({ length: WRITE_PARALLELISM }, lane));
    const seconds = (performance.now() - started) / 1000;
    return { rows, items: copies.length, seconds: round(seconds, 1), rowsPerSecond: round(rows / seconds, 1), parallelism: WRITE_PARALLELISM };
  } finally {
    dynamodb.destroy();
  }
}

export async function measureFeeds(options: { rows: number; log: (message: string) => void }): Promise<FeedBenchResult> {
  const { rows, log } = options;
  const smallRows = Math.max(1_000, Math.round(rows / 10));
  const small = await runFeed(smallRows, log);
  let batchWrite: FeedBenchResult['batchWrite'] | undefined;
  const large = await runFeed(rows, log, async (local, sellerId) => {
    batchWrite = await batchWriteBaseline(local, sellerId, rows, log);
  });
  if (!batchWrite) throw new Error('no baseline');
  return {
    large,
    small,
    batchWrite,
    ratio: round(large.rowsPerSecond / batchWrite.rowsPerSecond, 3),
    smallVsLargePeakRss: round(small.peakRssMb / large.peakRssMb, 3),
  };
}

// `node bench/feeds.ts [rows]`: this part alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = Number(process.argv[2] ?? process.env.BENCH_FEED_ROWS ?? 100_000);
  const result = await measureFeeds({ rows, log: (message) => process.stderr.write(`[bench] ${message}\n`) });
  console.log(JSON.stringify(result, null, 2));
}
