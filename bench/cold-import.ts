// Cold-start cost of a bundle: how much longer a fresh Node process takes to import it than to do
// nothing. Each sample is one spawned process, timed from spawn to exit; bare and handler runs are
// interleaved so that drift on the machine affects both alike.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { forEachConcurrently } from '../shared/concurrency.ts';
import { REPO_ROOT } from './bundle.ts';
import { median, round } from './stats.ts';

/** The pinned Node 24 binary (the devDependency), never the system node. */
export function nodeBinary(): string {
  const pinned = path.join(REPO_ROOT, 'node_modules', 'node', 'bin', 'node');
  return existsSync(pinned) ? pinned : process.execPath;
}

/** What a handler needs at import: its configuration is validated at module initialisation. */
export const HANDLER_ENV: Record<string, string> = {
  STAGE: 'test',
  TABLE_NAME: 'bench-table',
  FEEDS_BUCKET_NAME: 'bench-feeds',
  CURSOR_SIGNING_KEY: 'bench-cursor-signing-key-0123456789abcdef',
  LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
  POWERTOOLS_TRACE_ENABLED: 'false',
  AWS_REGION: 'us-east-1',
};

export interface ImportTiming {
  file: string;
  samples: number;
  bareP50Ms: number;
  importP50Ms: number;
  overBareP50Ms: number;
  /** min(handler) − min(bare): less sensitive to other load on the machine; for information. */
  overBareMinMs: number;
  bareMs: number[];
  importMs: number[];
}

function timeRun(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const result = spawnSync(nodeBinary(), args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(`${args.join(' ')} exited with ${result.status}: ${result.stderr?.toString().slice(0, 2000)}`);
  }
  return elapsed;
}

export function measureImport(bundleFile: string, { samples = 15, warmup = 3 } = {}): ImportTiming {
  // A minimal, identical environment for both kinds of run (no NODE_OPTIONS, no compile cache).
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...HANDLER_ENV };
  const bare = ['-e', ''];
  const load = ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(bundleFile).href)});`];
  for (let i = 0; i < warmup; i++) {
    timeRun(bare, env);
    timeRun(load, env);
  }
  const bareMs: number[] = [];
  const importMs: number[] = [];
  for (let i = 0; i < samples; i++) {
    // Alternate which goes first so neither always follows the other.
    if (i % 2 === 0) {
      bareMs.push(timeRun(bare, env));
      importMs.push(timeRun(load, env));
    } else {
      importMs.push(timeRun(load, env));
      bareMs.push(timeRun(bare, env));
    }
  }
  const bareP50Ms = median(bareMs);
  const importP50Ms = median(importMs);
  return {
    file: path.relative(REPO_ROOT, bundleFile),
    samples,
    bareP50Ms: round(bareP50Ms),
    importP50Ms: round(importP50Ms),
    overBareP50Ms: round(importP50Ms - bareP50Ms),
    overBareMinMs: round(Math.min(...importMs) - Math.min(...bareMs)),
    bareMs: bareMs.map((ms) => round(ms)),
    importMs: importMs.map((ms) => round(ms)),
  };
}

export interface ImportOverSdkTiming {
  handler: string;
  /** The runtime-provided modules the bundle imports, which the baseline imports alone. */
  sdkModules: string[];
  pairs: number;
  /** p50 of (handler import − SDK-only import), each pair run back to back in alternating order. */
  overSdkP50Ms: number;
  sdkOnlyP50Ms: number;
  importP50Ms: number;
  differencesMs: number[];
}

/** A handler as the bench's logs and rows name it: its path under functions/ ("search/run.ts"). */
export const handlerName = (handler: string) => handler.replace(/^functions\//, '');

/** The two runs a pair compares: the bundle's import, and the same SDK modules imported alone. */
function importOverSdkArgs(bundle: { file: string; externalImports: readonly string[] }): { sdkOnly: string[]; load: string[] } {
  // Bare specifiers of `-e` code resolve from the working directory: the repository's node_modules,
  // the same copies the bundle (under bench/.tmp) resolves.
  return {
    sdkOnly: ['--input-type=module', '-e', bundle.externalImports.map((name) => `await import(${JSON.stringify(name)});`).join('') || ';'],
    load: ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(bundle.file).href)});`],
  };
}

/**
 * What a handler's own code adds to a cold start: a fresh-process import of its bundle (as deployed,
 * the AWS SDK external) minus a fresh-process import of the same SDK modules alone. Paired runs, so
 * that load on the machine moves both halves of a pair alike.
 */
export function measureImportOverSdk(bundle: { file: string; handler: string; externalImports: readonly string[] }, { pairs = 15, warmup = 2 } = {}): ImportOverSdkTiming {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...HANDLER_ENV };
  const { sdkOnly, load } = importOverSdkArgs(bundle);
  const run = (args: string[]) => timeRunIn(args, env, REPO_ROOT);
  for (let i = 0; i < warmup; i++) {
    run(sdkOnly);
    run(load);
  }
  const sdkMs: number[] = [];
  const importMs: number[] = [];
  const differences: number[] = [];
  for (let i = 0; i < pairs; i++) {
    let sdk: number;
    let handler: number;
    if (i % 2 === 0) {
      sdk = run(sdkOnly);
      handler = run(load);
    } else {
      handler = run(load);
      sdk = run(sdkOnly);
    }
    sdkMs.push(sdk);
    importMs.push(handler);
    differences.push(handler - sdk);
  }
  return {
    handler: bundle.handler,
    sdkModules: [...bundle.externalImports],
    pairs,
    overSdkP50Ms: round(median(differences)),
    sdkOnlyP50Ms: round(median(sdkMs)),
    importP50Ms: round(median(importMs)),
    differencesMs: differences.map((ms) => round(ms)),
  };
}

export const callgrindAvailable = () => spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * Instructions (M) one fresh `node <args>` process executes, all threads, counted by valgrind's
 * callgrind: whatever else the machine is doing, within about 1 % for a bundle (2 % for an import of
 * the SDK's hundreds of files from node_modules).
 */
export async function countInstructions(nodeArgs: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const args = ['--tool=callgrind', '--callgrind-out-file=/dev/null', nodeBinary(), ...nodeArgs];
  const { stderr } = await promisify(execFile)('valgrind', args, { env, cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
  const collected = /Collected : (\d+)/.exec(stderr)?.[1];
  if (!collected) throw new Error(`callgrind printed no instruction count for node ${nodeArgs.join(' ')}: ${stderr.slice(-2000)}`);
  return Number(collected) / 1e6;
}

/** Each run's instruction count (M) by its key, two at a time (counts do not depend on what else runs). */
export async function countAllInstructions(runs: ReadonlyMap<string, readonly string[]>, env: NodeJS.ProcessEnv): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  await forEachConcurrently([...runs], 2, async ([key, nodeArgs]) => {
    counts.set(key, await countInstructions(nodeArgs, env));
  });
  return counts;
}

/** A bundle's import over its SDK modules alone, in instructions. */
export interface ImportOverSdkInstructions {
  handler: string;
  importM: number;
  sdkOnlyM: number;
  overSdkM: number;
}

export interface SlowestImportOverSdk {
  /** The largest paired p50 of those re-measured: `importMsOverSdkP50`. */
  figure: ImportOverSdkTiming;
  remeasured: ImportOverSdkTiming[];
  /** Every bundle's p50 over 5 pairs, ms. */
  screenedMs: Record<string, number>;
  /** Every bundle in instructions, largest first; absent when valgrind is not installed. */
  instructions?: ImportOverSdkInstructions[];
}

/**
 * `importMsOverSdkP50`: every bundle (SDK external) screened with 5 timed pairs and, where valgrind is
 * installed, counted in instructions (which a busy machine does not move); the slowest 3 of each
 * ranking timed again with 21 pairs, and the largest of those is the figure. The instruction ranking
 * keeps a noisy screening from picking the bundles it times again by chance.
 */
export async function measureSlowestImportOverSdk(
  bundles: readonly { file: string; handler: string; externalImports: readonly string[] }[],
  { remeasure = 3, log = (_: string) => {} } = {},
): Promise<SlowestImportOverSdk> {
  log(`import over the SDK: screening ${bundles.length} bundles with 5 pairs…`);
  const screened = bundles.map((bundle) => measureImportOverSdk(bundle, { pairs: 5, warmup: 1 }));
  let instructions: ImportOverSdkInstructions[] | undefined;
  if (callgrindAvailable()) {
    // Bundles importing the same SDK modules share one count of those modules alone.
    const imports = bundles.map((bundle) => ({ handler: bundle.handler, ...importOverSdkArgs(bundle) }));
    const runs = new Map<string, readonly string[]>();
    for (const { handler, sdkOnly, load } of imports) {
      runs.set(sdkOnly.join(' '), sdkOnly);
      runs.set(handler, load);
    }
    log(`import over the SDK: counting the instructions of ${runs.size} fresh imports with callgrind…`);
    const counts = await countAllInstructions(runs, { PATH: process.env.PATH ?? '/usr/bin:/bin', ...HANDLER_ENV });
    instructions = imports
      .map(({ handler, sdkOnly }) => {
        const importM = counts.get(handler) ?? NaN;
        const sdkOnlyM = counts.get(sdkOnly.join(' ')) ?? NaN;
        return { handler, importM: round(importM, 1), sdkOnlyM: round(sdkOnlyM, 1), overSdkM: round(importM - sdkOnlyM, 1) };
      })
      .sort((a, b) => b.overSdkM - a.overSdkM);
  } else {
    log('import over the SDK: valgrind is not installed, so no instruction counts (apt-get install valgrind)');
  }
  const candidates = [
    ...new Set([
      ...[...screened].sort((a, b) => b.overSdkP50Ms - a.overSdkP50Ms).slice(0, remeasure).map((timing) => timing.handler),
      ...(instructions ?? []).slice(0, remeasure).map((figure) => figure.handler),
    ]),
  ];
  log(`import over the SDK: re-measuring ${candidates.map(handlerName).join(', ')} with 21 pairs…`);
  const remeasured = candidates.map((handler) => measureImportOverSdk(bundles.find((bundle) => bundle.handler === handler)!, { pairs: 21, warmup: 2 }));
  return {
    figure: remeasured.reduce((a, b) => (b.overSdkP50Ms > a.overSdkP50Ms ? b : a)),
    remeasured,
    screenedMs: Object.fromEntries(screened.map((timing) => [timing.handler, timing.overSdkP50Ms])),
    ...(instructions ? { instructions } : {}),
  };
}

export function timeRunIn(args: string[], env: NodeJS.ProcessEnv, cwd: string): number {
  const started = performance.now();
  const result = spawnSync(nodeBinary(), args, { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited with ${result.status}: ${result.stderr?.toString().slice(0, 2000)}`);
  return elapsed;
}

if (import.meta.filename === process.argv[1]) {
  // `node bench/cold-import.ts`: `importMsOverSdkP50` alone, as `npm run bench` measures it — every
  // route and worker bundle with the SDK external (the MCP function, on its own budget, apart).
  const os = await import('node:os');
  const { BENCH_TMP, bundleBudgetKb, bundleHandlers } = await import('./bundle.ts');
  const { DEFAULT_BUNDLE_BUDGET_KB } = await import('../shared/http/route-table.ts');
  const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
  const loadAtStart = os.loadavg()[0] ?? 0;
  log('bundling every handler with the AWS SDK external…');
  const bundles = await bundleHandlers({ bundleAwsSdk: false, outDir: path.join(BENCH_TMP, 'bundles-sdk-external') });
  const distinct = [...new Map(bundles.filter((bundle) => bundleBudgetKb(bundle) === DEFAULT_BUNDLE_BUDGET_KB).map((bundle) => [bundle.handler, bundle])).values()];
  const { figure, remeasured, screenedMs, instructions } = await measureSlowestImportOverSdk(distinct, { log });
  console.log(JSON.stringify({ screenedMs, instructions: instructions?.slice(0, 10), remeasured: remeasured.map(({ differencesMs: _, ...timing }) => timing) }, null, 2));
  console.log(`importMsOverSdkP50: ${figure.overSdkP50Ms} ms (${figure.handler}: ${figure.importP50Ms} ms vs its SDK modules alone ${figure.sdkOnlyP50Ms} ms, p50 of ${figure.pairs} pairs)`);
  if (instructions) console.log(`slowest in instructions: ${instructions[0]!.handler} ${instructions[0]!.overSdkM} M over its SDK modules alone (${instructions[0]!.importM} vs ${instructions[0]!.sdkOnlyM} M)`);
  console.log(`load average (1 min): ${round(loadAtStart, 2)} → ${round(os.loadavg()[0] ?? 0, 2)}`);
}
