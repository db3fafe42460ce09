// npm run bench: measures the figures of docs/performance.md on this machine, in one run, writes
// bench/results.json and prints it with a table. Misses are marked, never fatal: the exit code is 0
// whenever every measurement ran (1 only when one could not be taken).
import { fork } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BENCH_TMP, bundleHandlers, REPO_ROOT, SDK_EXTERNALS, type BundleInfo } from './bundle.ts';
import { measureImport, nodeBinary } from './cold-import.ts';
import type { MiddlewareResult } from './middleware.ts';
import { round } from './stats.ts';
import { measureThroughput, type CpuPerRequest, type ThroughputResult } from './throughput.ts';

type Comparator = '<=' | '>=';

interface Check {
  figure: string;
  value: number;
  target: number;
  comparator: Comparator;
  unit: string;
  pass: boolean;
}

const TARGETS: Record<string, { target: number; comparator: Comparator; unit: string }> = {
  bundleKbMax: { target: 250, comparator: '<=', unit: 'kB' },
  importMsOverBareP50: { target: 40, comparator: '<=', unit: 'ms' },
  middlewareMsP50: { target: 0.5, comparator: '<=', unit: 'ms' },
  apiVsDynamoThroughputRatio: { target: 0.4, comparator: '>=', unit: '×' },
  dynamoCallsPerAuthenticatedGet: { target: 2, comparator: '<=', unit: 'calls' },
};

function check(figure: string, value: number): Check {
  const { target, comparator, unit } = TARGETS[figure] as (typeof TARGETS)[string];
  return { figure, value, target, comparator, unit, pass: comparator === '<=' ? value <= target : value >= target };
}

function top(composition: Record<string, number>, count: number): Record<string, number> {
  return Object.fromEntries(Object.entries(composition).slice(0, count));
}

function cpuRow(cpu: CpuPerRequest): string {
  return `${cpu.runtimeNode} / ${cpu.dynamoDbLocal} / ${cpu.loadGenerator}`;
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** The middleware benchmark in its own process: its environment, module state and JIT are its own. */
function runMiddleware(): Promise<MiddlewareResult> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(import.meta.dirname, 'middleware.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: MiddlewareResult | undefined;
    child.on('message', (message: MiddlewareResult) => (result = message));
    child.once('error', reject);
    child.once('exit', (code) => (result && code === 0 ? resolve(result) : reject(new Error(`bench/middleware.ts exited with ${code}`))));
  });
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(rows[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

async function main(): Promise<number> {
  const started = performance.now();
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGb: round(os.totalmem() / 1024 ** 3, 1),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    /** Other processes on the machine skew every figure: the 1-minute load average before and after. */
    loadAverage1mAtStart: round(os.loadavg()[0] ?? 0, 2),
    loadAverage1mAtEnd: 0,
  };
  if (!process.version.startsWith('v24.')) log(`warning: running on Node ${process.version}; npm run bench uses the pinned Node 24`);

  // 1. Bundles with the deployed options and the AWS SDK bundled (the target); and, for information,
  //    with the SDK left external, as lib/api-function.ts deploys today.
  await rm(BENCH_TMP, { recursive: true, force: true });
  log('bundling every handler (AWS SDK bundled, then external)…');
  const bundles = await bundleHandlers();
  const bundlesSdkBundled = await bundleHandlers({ bundleAwsSdk: true, outDir: path.join(BENCH_TMP, 'bundles-sdk-bundled') });
  const largest = bundles.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const largestSdkBundled = bundlesSdkBundled.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const bundlesSdkStubbed = await bundleHandlers({ stubAwsSdk: true, outDir: path.join(BENCH_TMP, 'bundles-sdk-stubbed') });
  const largestSdkStubbed = bundlesSdkStubbed.find((bundle) => bundle.handler === largest.handler) ?? largest;

  // 2. Cold import of the largest deployed bundle (the target; its SDK loads from node_modules as it
  //    would from the Lambda runtime's copy), and of the SDK-bundled variant (information).
  log(`timing fresh-process imports of ${path.basename(largest.file)} (as deployed, then with the SDK bundled)…`);
  const importLargest = measureImport(largest.file);
  const importLargestSdkBundled = measureImport(largestSdkBundled.file);
  const importOwnCodeOnly = measureImport(largestSdkStubbed.file);

  // 3. The middleware stack, stubbed I/O.
  log('timing the middleware stack in process (stubbed DynamoDB)…');
  const middleware = await runMiddleware();

  // 4 + 5. The local runtime: DynamoDB calls per GET, then API vs raw DynamoDB Local throughput.
  log('starting the local runtime; counting DynamoDB calls; measuring throughput…');
  const throughput: ThroughputResult = await measureThroughput();

  machine.loadAverage1mAtEnd = round(os.loadavg()[0] ?? 0, 2);
  const figures = {
    bundleKbMax: largest.kb,
    importMsOverBareP50: importLargest.overBareP50Ms,
    middlewareMsP50: middleware.stubbedClient.p50Ms,
    apiVsDynamoThroughputRatio: throughput.ratio,
    dynamoCallsPerAuthenticatedGet: throughput.calls.warmPerRequest,
  };
  const checks = Object.entries(figures).map(([figure, value]) => check(figure, value));
  const perHandlerKb = (list: BundleInfo[]) => Object.fromEntries(list.map((bundle) => [bundle.handler, bundle.kb]));

  const results = {
    measuredAt: new Date().toISOString(),
    machine,
    figures,
    checks,
    allTargetsMet: checks.every((c) => c.pass),
    details: {
      bundles: {
        note: 'esbuild with the deployed Lambda options (bench/bundle.ts); kB = 1024 bytes; .map files not counted',
        largest: { handler: largest.handler, kb: largest.kb, bytes: largest.bytes, compositionKb: top(largest.composition, 12) },
        perHandlerKb: perHandlerKb(bundles),
        sdkBundled: {
          note: `for information: ${SDK_EXTERNALS.join(' and ')} bundled too, instead of left to the Lambda runtime's copy as deployed`,
          largest: { handler: largestSdkBundled.handler, kb: largestSdkBundled.kb, bytes: largestSdkBundled.bytes, compositionKb: top(largestSdkBundled.composition, 8) },
          perHandlerKb: perHandlerKb(bundlesSdkBundled),
        },
      },
      import: {
        note: 'p50 of spawn-to-exit of `node --input-type=module -e "await import(bundle)"` minus p50 of `node -e ""`, interleaved',
        node: nodeBinary(),
        largestBundle: importLargest,
        largestBundleSdkBundled: { ...importLargestSdkBundled, note: 'the SDK bundled in, for information' },
        ownCodeOnly: { ...importOwnCodeOnly, note: 'the same handler with the AWS SDK replaced by empty classes: our code alone' },
      },
      middleware: {
        note: 'stubbedClient is the target: DynamoDB I/O stubbed with aws-sdk-client-mock; stubbedHttp keeps the SDK pipeline and stubs only HTTP',
        ...middleware,
      },
      throughput: {
        note: 'GET /v1/agents/me (enterprise agent) through the local runtime vs DocumentClient GetItem on DynamoDB Local, same concurrency and time',
        ...throughput,
      },
    },
    durationSeconds: round((performance.now() - started) / 1000, 1),
  };

  await writeFile(path.join(REPO_ROOT, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  await rm(BENCH_TMP, { recursive: true, force: true });

  const fmt = (value: number) => String(value);
  console.log(JSON.stringify(results, null, 2));
  console.log();
  console.log(
    table([
      ['figure', 'value', 'target', 'result'],
      ...checks.map((c) => [c.figure, `${fmt(c.value)} ${c.unit}`, `${c.comparator} ${fmt(c.target)} ${c.unit}`, c.pass ? 'pass' : 'MISS']),
    ]),
  );
  console.log();
  console.log(
    table([
      ['context', 'value'],
      ['largest bundle', `${largest.handler} ${largest.kb} kB (with the SDK bundled: ${largestSdkBundled.kb} kB)`],
      ['import, largest bundle', `${importLargest.importP50Ms} ms vs bare ${importLargest.bareP50Ms} ms (p50, n=${importLargest.samples})`],
      ['import over bare, SDK bundled', `${importLargestSdkBundled.overBareP50Ms} ms (${importLargestSdkBundled.importP50Ms} vs ${importLargestSdkBundled.bareP50Ms} ms)`],
      ['import over bare, our code only (SDK stubbed)', `${importOwnCodeOnly.overBareP50Ms} ms (${importOwnCodeOnly.importP50Ms} vs ${importOwnCodeOnly.bareP50Ms} ms)`],
      ['middleware p50 / p99 (stubbed client)', `${middleware.stubbedClient.p50Ms} / ${middleware.stubbedClient.p99Ms} ms`],
      ['middleware p50 with SDK pipeline (stubbed HTTP)', `${middleware.stubbedHttp.p50Ms} ms`],
      ['API GET /v1/agents/me', `${throughput.apiRequestsPerSecond} req/s (concurrency ${throughput.concurrency})`],
      ['DynamoDB Local GetItem', `${throughput.dynamoRequestsPerSecond} req/s (concurrency ${throughput.concurrency})`],
      ['CPU ms per API request: runtime / Java / client', cpuRow(throughput.cpuMsPerRequest.api)],
      ['CPU ms per GetItem: runtime (idle) / Java / client', cpuRow(throughput.cpuMsPerRequest.dynamo)],
      ['DynamoDB calls, cold first GET (free plan)', `${throughput.calls.coldFirstRequest.total} ${JSON.stringify(throughput.calls.coldFirstRequest)}`],
      ['DynamoDB calls, warm GET (free plan)', `${throughput.calls.warmPerRequest} ${JSON.stringify(throughput.calls.warmByCommand)} over ${throughput.calls.warmRequests.length}`],
      ['DynamoDB calls per GET under load (enterprise)', `${throughput.dynamoCallsPerApiRequestUnderLoad}`],
      ['machine', `${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}`],
      ['load average (1 min) at start / end', `${machine.loadAverage1mAtStart} / ${machine.loadAverage1mAtEnd}`],
      ['bench duration', `${results.durationSeconds} s`],
    ]),
  );
  const misses = checks.filter((c) => !c.pass);
  if (misses.length > 0) console.log(`\nMISSED ${misses.length} of ${checks.length} targets: ${misses.map((c) => c.figure).join(', ')} (see docs/performance.md)`);
  else console.log(`\nAll ${checks.length} targets met.`);
  return 0;
}

process.exitCode = await main().catch((error: unknown) => {
  console.error('[bench] failed:', error);
  return 1;
});
