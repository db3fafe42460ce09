// What a route's cold start costs, as deployed: a fresh Node process importing the route's bundle
// (with the functions' NODE_OPTIONS, LAMBDA_BUNDLING.nodeOptions), timed from spawn to exit, for both
// ways of shipping the AWS SDK (left to the runtime's copy, or bundled and tree-shaken), against the
// same for a minimal handler that only creates the DynamoDB document client, bundled the same way
// (bench/minimal-handler.ts). `coldStartRatio` is the slowest route bundle's p50 over the minimal
// handler's p50, in the deployed shape (LAMBDA_BUNDLING.bundleAwsSdk).
//
// Every sample is one process. Each round runs every bundle of both shapes and both baselines once,
// in a shuffled order, so that load on the machine (±50 % on a shared 2-core VM) moves all of them
// alike; then the slowest few of each shape run again, paired with their baseline, alternating which
// goes first. In the deployed shape it also measures a floor: the minimal handler plus the S3 client
// (bench/floor-s3-client.ts), paired the same way, and the slowest routes that do not load it, so
// that what the S3 client costs by itself and what our own code costs are told apart. The same
// fresh import of every bundle of the deployed shape is also counted in instructions (valgrind's
// callgrind): a figure that does not move with load, which ranks the routes the same way in every run
// and picks, with the screening, which ones are timed again.
// `node bench/cold-start.ts` runs it alone and prints the figures.
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LAMBDA_BUNDLING } from '../lib/bundling.ts';
import { BENCH_TMP, bundleEntry, bundleHandlers, REPO_ROOT, type BundleInfo } from './bundle.ts';
import { callgrindAvailable, countAllInstructions, HANDLER_ENV, handlerName, timeRunIn } from './cold-import.ts';
import { median, round } from './stats.ts';

export type SdkShape = 'sdkExternal' | 'sdkBundled';

export interface ShapeColdStart {
  /** The minimal handler's bundle size and p50 fresh import (spawn to exit), ms. */
  minimal: { kb: number; p50Ms: number; samplesMs: number[] };
  /** Every route bundle's p50 over the screening rounds, ms (slowest first). */
  screenedP50Ms: Record<string, number>;
  /** The slowest few again, paired with the baseline: p50s and their ratio. */
  remeasured: PairedFigure[];
  /** The slowest route bundle (the largest re-measured ratio) and its ratio to the minimal handler. */
  slowest: PairedFigure;
}

interface PairedFigure {
  handler: string;
  kb: number;
  p50Ms: number;
  minimalP50Ms: number;
  ratio: number;
  pairs: number;
}

/**
 * The deployed shape only: what the libraries some functions cannot do without cost by themselves
 * (each floor is the minimal handler plus that library), and the slowest routes that load neither.
 */
export interface ColdStartFloors {
  /** The minimal handler plus the library, paired with the minimal handler. */
  floors: (PairedFigure & { library: string })[];
  /** The slowest few routes whose bundles hold no floor library (the S3 client), paired. */
  withoutFloorLibraries: PairedFigure[];
  /** The largest of those ratios: the figure the routes' own code decides. */
  slowestWithoutFloorLibraries: PairedFigure;
}

/** One bundle's fresh import in instructions (all threads), and that ÷ the minimal handler's. */
interface InstructionFigure {
  handler: string;
  kb: number;
  instructionsM: number;
  ratio: number;
}

/**
 * The deployed shape's fresh imports counted by callgrind: deterministic (±0.5 %) whatever else the
 * machine does, so the ranking of the routes does not change from run to run as the timed one can.
 */
export interface ColdStartInstructions {
  minimalM: number;
  floors: (InstructionFigure & { library: string })[];
  /** Every route bundle, largest ratio first. */
  routes: InstructionFigure[];
  slowest: InstructionFigure;
  slowestWithoutFloorLibraries: InstructionFigure;
}

export interface ColdStartResult {
  rounds: number;
  pairs: number;
  loadAverage1m: { start: number; end: number };
  sdkExternal: ShapeColdStart;
  sdkBundled: ShapeColdStart & ColdStartFloors;
  /** Absent when valgrind is not installed (it is a Debian package, not an npm one). */
  instructions?: ColdStartInstructions;
  /** The same slowest-route figures side by side: bundled p50 ÷ external p50 (< 1: bundling is faster). */
  bundledOverExternal: { slowestRoute: number; minimal: number };
}

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...HANDLER_ENV, NODE_OPTIONS: LAMBDA_BUNDLING.nodeOptions };
const importArgs = (file: string) => ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(file).href)});`];
const time = (file: string) => timeRunIn(importArgs(file), env, REPO_ROOT);

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/**
 * `coldStartRatio`'s target (bench/run.ts), with the product's libraries (Middy, Powertools, the S3
 * client, the MCP SDK) in the functions; the instruction rows name the routes over it. The import
 * timed here is a proxy: in AWS, what counts is each function's Init Duration (docs/performance.md,
 * "Cold start in AWS").
 */
export const COLD_START_RATIO_TARGET = 1.75;

/**
 * What is measured as a floor, alone on the minimal handler: a route holding one (its bundle has an
 * input containing `marker`) is compared with its floor.
 */
const FLOOR_LIBRARIES = [
  { library: 'the S3 client', marker: 'node_modules/@aws-sdk/client-s3/', entry: 'bench/floor-s3-client.ts' },
] as const;

const holdsFloorLibrary = (bundle: BundleInfo) => FLOOR_LIBRARIES.some(({ marker }) => bundle.inputs.some((input) => input.includes(marker)));

/** `pairs` fresh imports of a bundle and of its baseline, alternating which goes first. */
function paired(handler: string, file: string, kb: number, baselineFile: string, pairs: number): PairedFigure {
  const own: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < pairs; i++) {
    if (i % 2 === 0) {
      base.push(time(baselineFile));
      own.push(time(file));
    } else {
      own.push(time(file));
      base.push(time(baselineFile));
    }
  }
  const p50Ms = median(own);
  const minimalP50Ms = median(base);
  return { handler, kb, p50Ms: round(p50Ms), minimalP50Ms: round(minimalP50Ms), ratio: round(p50Ms / minimalP50Ms, 3), pairs };
}

/** Every file's fresh import (`time`'s) in instructions, M, by file. */
const countAll = (files: readonly string[]) => countAllInstructions(new Map(files.map((file) => [file, importArgs(file)] as const)), env);

/** Route bundles only (the fallback's included), one per distinct handler file. */
function routeBundles(bundles: readonly BundleInfo[]): BundleInfo[] {
  return [...new Map(bundles.filter((bundle) => bundle.kind === 'route').map((bundle) => [bundle.handler, bundle])).values()];
}

export async function measureColdStart(
  bundles: Record<SdkShape, readonly BundleInfo[]>,
  { rounds = 3, pairs = 9, remeasure = 3, log = (_: string) => {} } = {},
): Promise<ColdStartResult> {
  const loadAtStart = round(os.loadavg()[0] ?? 0, 2);
  const shapes: SdkShape[] = ['sdkExternal', 'sdkBundled'];
  const minimal = {
    sdkExternal: await bundleEntry('bench/minimal-handler.ts', path.join(BENCH_TMP, 'minimal-sdk-external'), { bundleAwsSdk: false }),
    sdkBundled: await bundleEntry('bench/minimal-handler.ts', path.join(BENCH_TMP, 'minimal-sdk-bundled'), { bundleAwsSdk: true }),
  };
  const routes = { sdkExternal: routeBundles(bundles.sdkExternal), sdkBundled: routeBundles(bundles.sdkBundled) };
  const samples = new Map<string, number[]>();
  const record = (key: string, ms: number) => samples.set(key, [...(samples.get(key) ?? []), ms]);
  const runs = shapes.flatMap((shape) => [
    { key: `${shape}|minimal`, file: minimal[shape].file },
    ...routes[shape].map((bundle) => ({ key: `${shape}|${bundle.handler}`, file: bundle.file })),
  ]);
  for (let round_ = 0; round_ < rounds; round_++) {
    log(`cold start: screening round ${round_ + 1} of ${rounds} (${runs.length} fresh imports)…`);
    for (const run of shuffled(runs)) record(run.key, time(run.file));
  }
  const floorBundles = [];
  for (const { library, entry } of FLOOR_LIBRARIES) floorBundles.push({ library, entry, ...(await bundleEntry(entry, path.join(BENCH_TMP, 'floors'), { bundleAwsSdk: true })) });
  let instructions: ColdStartInstructions | undefined;
  if (callgrindAvailable()) {
    log(`cold start (sdkBundled): counting the instructions of ${routes.sdkBundled.length + floorBundles.length + 1} fresh imports with callgrind…`);
    const counts = await countAll([minimal.sdkBundled.file, ...floorBundles.map((floor) => floor.file), ...routes.sdkBundled.map((bundle) => bundle.file)]);
    const minimalM = counts.get(minimal.sdkBundled.file) ?? NaN;
    const figure = (handler: string, file: string, kb: number): InstructionFigure => {
      const instructionsM = counts.get(file) ?? NaN;
      return { handler, kb, instructionsM: round(instructionsM, 1), ratio: round(instructionsM / minimalM, 3) };
    };
    const routeFigures = routes.sdkBundled.map((bundle) => ({ bundle, figure: figure(bundle.handler, bundle.file, bundle.kb) })).sort((a, b) => b.figure.ratio - a.figure.ratio);
    instructions = {
      minimalM: round(minimalM, 1),
      floors: floorBundles.map((floor) => ({ library: floor.library, ...figure(floor.entry, floor.file, floor.kb) })),
      routes: routeFigures.map(({ figure }) => figure),
      slowest: routeFigures[0]!.figure,
      slowestWithoutFloorLibraries: routeFigures.find(({ bundle }) => !holdsFloorLibrary(bundle))!.figure,
    };
  } else {
    log('cold start: valgrind is not installed, so no instruction counts (apt-get install valgrind)');
  }
  const result = {} as Record<SdkShape, ShapeColdStart>;
  for (const shape of shapes) {
    const screened = routes[shape]
      .map((bundle) => ({ bundle, p50: median(samples.get(`${shape}|${bundle.handler}`) ?? []) }))
      .sort((a, b) => b.p50 - a.p50);
    // Timed again: the slowest few of the screening, and in the deployed shape also the slowest few by
    // instructions, which a noisy screening round can rank lower than they are.
    const byInstructions = shape === 'sdkBundled' ? (instructions?.routes.slice(0, remeasure).map((figure) => figure.handler) ?? []) : [];
    const candidates = [...new Set([...screened.slice(0, remeasure).map((entry) => entry.bundle.handler), ...byInstructions])].map(
      (handler) => routes[shape].find((bundle) => bundle.handler === handler)!,
    );
    log(`cold start (${shape}): re-measuring ${candidates.map((bundle) => handlerName(bundle.handler)).join(', ')} with ${pairs} pairs…`);
    const remeasured = candidates.map((bundle) => paired(bundle.handler, bundle.file, bundle.kb, minimal[shape].file, pairs));
    // By the paired ratio: each bundle's own pairs share the machine's load with its baseline.
    const slowest = remeasured.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    const minimalSamples = samples.get(`${shape}|minimal`) ?? [];
    result[shape] = {
      minimal: { kb: minimal[shape].kb, p50Ms: round(median(minimalSamples)), samplesMs: minimalSamples.map((ms) => round(ms)) },
      screenedP50Ms: Object.fromEntries(screened.map((entry) => [entry.bundle.handler, round(entry.p50)])),
      remeasured,
      slowest,
    };
  }
  log(`cold start (sdkBundled): floors (${FLOOR_LIBRARIES.map(({ library }) => library).join(', ')}) and the slowest routes without them…`);
  const floors = floorBundles.map((floor) => ({ library: floor.library, ...paired(floor.entry, floor.file, floor.kb, minimal.sdkBundled.file, pairs) }));
  const withoutFloorLibraries = routes.sdkBundled
    .filter((bundle) => !holdsFloorLibrary(bundle))
    .map((bundle) => ({ bundle, p50: median(samples.get(`sdkBundled|${bundle.handler}`) ?? []) }))
    .sort((a, b) => b.p50 - a.p50)
    .slice(0, remeasure)
    .map(({ bundle }) => paired(bundle.handler, bundle.file, bundle.kb, minimal.sdkBundled.file, pairs));
  const bundledFloors: ColdStartFloors = {
    floors,
    withoutFloorLibraries,
    slowestWithoutFloorLibraries: withoutFloorLibraries.reduce((a, b) => (b.ratio > a.ratio ? b : a)),
  };
  return {
    rounds,
    pairs,
    loadAverage1m: { start: loadAtStart, end: round(os.loadavg()[0] ?? 0, 2) },
    sdkExternal: result.sdkExternal,
    sdkBundled: { ...result.sdkBundled, ...bundledFloors },
    ...(instructions ? { instructions } : {}),
    bundledOverExternal: {
      slowestRoute: round(result.sdkBundled.slowest.p50Ms / result.sdkExternal.slowest.p50Ms, 3),
      minimal: round(result.sdkBundled.minimal.p50Ms / result.sdkExternal.minimal.p50Ms, 3),
    },
  };
}

/** Both shapes' rows and the deployed shape's floors, for the printed table. */
export function coldStartRows(coldStart: ColdStartResult): string[][] {
  const ratio = (figure: PairedFigure) => `${figure.handler} ${figure.p50Ms} ms (${figure.kb} kB) ÷ minimal ${figure.minimalP50Ms} ms = ${figure.ratio}`;
  return [
    ...(['sdkExternal', 'sdkBundled'] as const).map((shape) => [
      `cold start, SDK ${shape === 'sdkExternal' ? 'left to the runtime' : 'bundled'}`,
      `slowest ${ratio(coldStart[shape].slowest)} (minimal ${coldStart[shape].minimal.kb} kB)`,
    ]),
    ...coldStart.sdkBundled.floors.map((floor) => [`cold start floor, minimal handler + ${floor.library}`, ratio(floor)]),
    ['cold start, slowest route without the S3 client', ratio(coldStart.sdkBundled.slowestWithoutFloorLibraries)],
    ...instructionRows(coldStart.instructions),
  ];
}

function instructionRows(instructions: ColdStartInstructions | undefined): string[][] {
  if (!instructions) return [['cold start in instructions', 'not counted: valgrind is not installed']];
  const ratio = (figure: InstructionFigure) => `${figure.handler} ${figure.instructionsM} M ÷ minimal ${instructions.minimalM} M = ${figure.ratio}`;
  return [
    ['cold start in instructions (callgrind), slowest route', ratio(instructions.slowest)],
    ...instructions.floors.map((floor) => [`cold start in instructions, minimal handler + ${floor.library}`, ratio(floor)]),
    ['cold start in instructions, slowest route without the S3 client', ratio(instructions.slowestWithoutFloorLibraries)],
    [`cold start in instructions, routes over ${COLD_START_RATIO_TARGET}`, instructions.routes.filter((figure) => figure.ratio > COLD_START_RATIO_TARGET).map((figure) => `${handlerName(figure.handler)} ${figure.ratio}`).join(', ') || 'none'],
  ];
}

if (import.meta.filename === process.argv[1]) {
  const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
  log('bundling every route (AWS SDK external, then bundled)…');
  const sdkExternal = await bundleHandlers({ bundleAwsSdk: false, outDir: path.join(BENCH_TMP, 'bundles-sdk-external') });
  const sdkBundled = await bundleHandlers({ bundleAwsSdk: true, outDir: path.join(BENCH_TMP, 'bundles-sdk-bundled') });
  const result = await measureColdStart({ sdkExternal, sdkBundled }, { log });
  console.log(JSON.stringify(result, null, 2));
  for (const [name, value] of coldStartRows(result)) console.log(`${name}: ${value}`);
  console.log(`bundled ÷ external, slowest route: ${result.bundledOverExternal.slowestRoute}; minimal: ${result.bundledOverExternal.minimal}`);
  console.log(`load average (1 min): ${result.loadAverage1m.start} → ${result.loadAverage1m.end}`);
}
