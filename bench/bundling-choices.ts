// What each of our bundling choices is worth at cold start (docs/decisions/bundling.md), in
// instructions (valgrind's callgrind), which load on the machine does not move: every route bundle and
// the minimal handler (bench/minimal-handler.ts), built with the deployed options (lib/bundling.ts) and
// with one choice undone at a time, each imported by a fresh node process.
//   deployed        lambdaBuildOptions as lib/api-function.ts deploys them, run with its NODE_OPTIONS
//   sdkExternal     the AWS SDK left to the nodejs24.x runtime's copy instead of bundled
//   notTreeShaken   our own modules marked as having side effects (package.json "sideEffects" ignored),
//                   so that esbuild keeps every module a handler imports, used or not
//   esmBuiltins     Node's built-in modules imported as ESM, not through lib/bundling.ts's CommonJS shims
//   noSourceMaps    the deployed bundles run without --enable-source-maps
// Each import is counted three times and the median kept: V8's background threads make a count move by
// a few percent from one run to the next. `node bench/bundling-choices.ts` prints, per variant, the
// minimal handler's count, the slowest route and the median route (M instructions), and the largest
// bundle. It needs valgrind; it takes long (`node bench/bundling-choices.ts functions/search/run.ts …`
// counts only the routes named).
import { mkdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { fallbackRoute, routeList } from '../functions/registry.ts';
import { writeBundledFiles } from '../lib/bundled-files.ts';
import { LAMBDA_BUNDLING, lambdaBuildOptions } from '../lib/bundling.ts';
import { BENCH_TMP, REPO_ROOT } from './bundle.ts';
import { callgrindAvailable, countAllInstructions, HANDLER_ENV } from './cold-import.ts';
import { median, round } from './stats.ts';

/** Every module of ours that esbuild resolves is taken to have side effects. */
const ourModulesHaveSideEffects: Plugin = {
  name: 'our-modules-have-side-effects',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const resolved = path.resolve(args.resolveDir, args.path);
      return resolved.includes(`${path.sep}node_modules${path.sep}`) ? undefined : { path: resolved, sideEffects: true };
    });
  },
};

const VARIANTS: Record<string, { options: BuildOptions; nodeOptions?: string }> = {
  deployed: { options: {} },
  sdkExternal: { options: { external: [...LAMBDA_BUNDLING.runtimeProvidedModules] } },
  notTreeShaken: { options: { plugins: [ourModulesHaveSideEffects] } },
  esmBuiltins: { options: { alias: {} } },
  noSourceMaps: { options: {}, nodeOptions: '' },
};

/** Every route handler, or those named on the command line (`functions/search/run.ts` …); and the minimal handler. */
const named = process.argv.slice(2);
const entries = [...new Set([...routeList, fallbackRoute].map((row) => row.handler).filter((handler) => named.length === 0 || named.includes(handler))), 'bench/minimal-handler.ts'];
const outName = (handler: string) => handler.replace(/\.ts$/, '').replaceAll('/', '__');

async function bundle(variant: string, options: BuildOptions): Promise<Map<string, { file: string; kb: number }>> {
  const outDir = path.join(BENCH_TMP, 'bundling-choices', variant);
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  await build({ ...lambdaBuildOptions, ...options, entryPoints: entries.map((entry) => ({ out: outName(entry), in: path.join(REPO_ROOT, entry) })), outdir: outDir, outExtension: { '.js': '.mjs' } });
  writeBundledFiles(outDir, 'live'); // the files some functions read beside their bundle (openapi.json, …)
  const files = new Map<string, { file: string; kb: number }>();
  for (const entry of entries) {
    const file = path.join(outDir, `${outName(entry)}.mjs`);
    files.set(entry, { file, kb: round((await stat(file)).size / 1024, 1) });
  }
  return files;
}

if (!callgrindAvailable()) throw new Error('bench/bundling-choices.ts counts instructions with valgrind (apt-get install valgrind)');
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const loadAtStart = round(os.loadavg()[0] ?? 0, 2);
const results: Record<string, unknown> = {};
let deployedMinimalM = NaN;
for (const [variant, { options, nodeOptions = LAMBDA_BUNDLING.nodeOptions }] of Object.entries(VARIANTS)) {
  log(`${variant}: bundling ${entries.length} entries and counting their fresh imports…`);
  const files = await bundle(variant, options);
  const runs = new Map(
    [...files].flatMap(([entry, { file }]) => [0, 1, 2].map((n) => [`${entry}#${n}`, ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(file).href)});`]] as const)),
  );
  const counted = await countAllInstructions(runs, { PATH: process.env.PATH ?? '/usr/bin:/bin', ...HANDLER_ENV, NODE_OPTIONS: nodeOptions });
  const counts = new Map(entries.map((entry) => [entry, median([0, 1, 2].map((n) => counted.get(`${entry}#${n}`) ?? NaN))]));
  const minimalM = counts.get('bench/minimal-handler.ts') ?? NaN;
  if (variant === 'deployed') deployedMinimalM = minimalM;
  const routes = entries.filter((entry) => entry !== 'bench/minimal-handler.ts').map((entry) => ({ handler: entry, m: counts.get(entry) ?? NaN, kb: files.get(entry)?.kb ?? NaN }));
  const slowest = routes.reduce((a, b) => (b.m > a.m ? b : a));
  const largest = routes.reduce((a, b) => (b.kb > a.kb ? b : a));
  results[variant] = {
    minimalM: round(minimalM, 1),
    slowestRoute: { handler: slowest.handler, m: round(slowest.m, 1), overDeployedMinimal: round(slowest.m / deployedMinimalM, 3) },
    medianRouteM: round(median(routes.map((route) => route.m)), 1),
    largestKb: { handler: largest.handler, kb: largest.kb },
    routesM: Object.fromEntries(routes.sort((a, b) => b.m - a.m).map((route) => [route.handler, round(route.m, 1)])),
  };
  console.log(`${variant}: minimal ${round(minimalM, 1)} M; slowest route ${slowest.handler} ${round(slowest.m, 1)} M (${round(slowest.m / deployedMinimalM, 3)}× the deployed minimal handler); median route ${round(median(routes.map((route) => route.m)), 1)} M; largest bundle ${largest.handler} ${largest.kb} kB`);
}
console.log(JSON.stringify({ node: process.version, loadAverage1m: { start: loadAtStart, end: round(os.loadavg()[0] ?? 0, 2) }, results }, null, 2));
await rm(path.join(BENCH_TMP, 'bundling-choices'), { recursive: true, force: true });
