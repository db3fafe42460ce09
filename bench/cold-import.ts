// Cold-start cost of a bundle: how much longer a fresh Node process takes to import it than to do
// nothing. Each sample is one spawned process, timed from spawn to exit; bare and handler runs are
// interleaved so that drift on the machine affects both alike.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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

/**
 * What a handler's own code adds to a cold start: a fresh-process import of its bundle (as deployed,
 * the AWS SDK external) minus a fresh-process import of the same SDK modules alone. Paired runs, so
 * that load on the machine moves both halves of a pair alike.
 */
export function measureImportOverSdk(bundle: { file: string; handler: string; externalImports: readonly string[] }, { pairs = 15, warmup = 2 } = {}): ImportOverSdkTiming {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...HANDLER_ENV };
  // Bare specifiers of `-e` code resolve from the working directory: the repository's node_modules,
  // the same copies the bundle (under bench/.tmp) resolves.
  const sdkOnly = ['--input-type=module', '-e', bundle.externalImports.map((name) => `await import(${JSON.stringify(name)});`).join('') || ';'];
  const load = ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(bundle.file).href)});`];
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

export function timeRunIn(args: string[], env: NodeJS.ProcessEnv, cwd: string): number {
  const started = performance.now();
  const result = spawnSync(nodeBinary(), args, { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited with ${result.status}: ${result.stderr?.toString().slice(0, 2000)}`);
  return elapsed;
}

if (import.meta.filename === process.argv[1]) {
  // `node bench/cold-import.ts`: `importMsOverSdkP50` alone, as `npm run bench` measures it — every
  // route and worker bundle with the SDK external (the MCP function, on its own budget, apart), screened
  // with 5 pairs, the slowest three again with 21; the largest of those is the figure.
  const os = await import('node:os');
  const { BENCH_TMP, bundleBudgetKb, bundleHandlers } = await import('./bundle.ts');
  const { DEFAULT_BUNDLE_BUDGET_KB } = await import('../shared/http/route-table.ts');
  const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
  const loadAtStart = os.loadavg()[0] ?? 0;
  log('bundling every handler with the AWS SDK external…');
  const bundles = await bundleHandlers({ bundleAwsSdk: false, outDir: path.join(BENCH_TMP, 'bundles-sdk-external') });
  const distinct = [...new Map(bundles.filter((bundle) => bundleBudgetKb(bundle) === DEFAULT_BUNDLE_BUDGET_KB).map((bundle) => [bundle.handler, bundle])).values()];
  log(`screening ${distinct.length} bundles with 5 pairs…`);
  const screened = distinct.map((bundle) => measureImportOverSdk(bundle, { pairs: 5, warmup: 1 }));
  const slowest = [...screened].sort((a, b) => b.overSdkP50Ms - a.overSdkP50Ms).slice(0, 3);
  log(`re-measuring ${slowest.map((timing) => path.basename(timing.handler)).join(', ')} with 21 pairs…`);
  const remeasured = slowest.map((timing) => measureImportOverSdk(distinct.find((bundle) => bundle.handler === timing.handler)!, { pairs: 21, warmup: 2 }));
  const figure = remeasured.reduce((a, b) => (b.overSdkP50Ms > a.overSdkP50Ms ? b : a));
  console.log(JSON.stringify({ screened: Object.fromEntries(screened.map((timing) => [timing.handler, timing.overSdkP50Ms])), remeasured: remeasured.map(({ differencesMs: _, ...timing }) => timing) }, null, 2));
  console.log(`importMsOverSdkP50: ${figure.overSdkP50Ms} ms (${figure.handler}: ${figure.importP50Ms} ms vs its SDK modules alone ${figure.sdkOnlyP50Ms} ms, p50 of ${figure.pairs} pairs)`);
  console.log(`load average (1 min): ${round(loadAtStart, 2)} → ${round(os.loadavg()[0] ?? 0, 2)}`);
}
