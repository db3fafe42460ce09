// What the sandbox's house agents add to `npm start`'s ready time: the local runtime (what bin/local.ts
// starts) in a fresh process, from process start to serving, with every worker and without the
// houseSetup worker (which creates Sandbox Supply Co. and the house buyers and loads the 240-product
// house catalog before anything is served), side by side in each round, in alternating order. Each
// variant starts on an empty data folder (a first `npm start`: the catalog is written) and then again
// on the same folder (a restart: the catalog is there, and only its version is read).
//
// Part of `npm run bench` (bench/run.ts); `npm run bench:sandbox-start` runs it alone, prints its
// figures and merges them into bench/results.json (its own figures, checks and details only, with the
// time and load average they were measured at).
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { benchTempDir, isBenchChild, serveChild, startBenchChild } from './harness.ts';
import { median, round } from './stats.ts';

/** The worker the house agents add to the start (shared/workers.ts). */
const HOUSE_SETUP_WORKER = 'houseSetup';
/** The issue's target: at most this many seconds more than the start without the house catalog. */
export const SANDBOX_START_ADDED_TARGET_SECONDS = 5;

type Variant = 'with-house' | 'without-house';

interface StartReady {
  /** Process start → the runtime serving (its modules' import, the emulators, provisioning, the workers' start). */
  readySeconds: number;
}

export interface SandboxStartResult {
  rounds: number;
  /** Medians over the rounds, seconds. */
  firstStart: { withHouseSeconds: number; withoutHouseSeconds: number; addedSeconds: number };
  restart: { withHouseSeconds: number; withoutHouseSeconds: number; addedSeconds: number };
  /** Every start, in the order taken. */
  samples: { round: number; variant: Variant; start: 'first' | 'restart'; readySeconds: number }[];
  loadAverage1m: { atStart: number; atEnd: number };
}

/** One start of the runtime in a fresh process on `dataDir`, stopped as soon as it serves. */
async function startOnce(dataDir: string, variant: Variant): Promise<number> {
  const child = await startBenchChild<StartReady>({ module: import.meta.filename, dataDir, args: [variant] });
  const cleanup = await child.stop();
  // The next start on this folder needs it free, as a restart of npm start does.
  if (cleanup.javaLeft.length > 0) throw new Error(`DynamoDB Local outlived its runtime (pids ${cleanup.javaLeft.join(', ')})`);
  return child.ready.readySeconds;
}

export async function measureSandboxStart(options: { rounds?: number; log?: (message: string) => void } = {}): Promise<SandboxStartResult> {
  const rounds = options.rounds ?? Number(process.env.BENCH_SANDBOX_START_ROUNDS ?? 3);
  const atStart = round(os.loadavg()[0] ?? 0, 2);
  const samples: SandboxStartResult['samples'] = [];
  for (let index = 0; index < rounds; index += 1) {
    // Alternate which variant goes first: a busy moment then weighs on each alike.
    const order: Variant[] = index % 2 === 0 ? ['with-house', 'without-house'] : ['without-house', 'with-house'];
    const dirs = new Map<Variant, Awaited<ReturnType<typeof benchTempDir>>>();
    try {
      for (const variant of order) dirs.set(variant, await benchTempDir(`sandbox-start-${variant}-`));
      for (const start of ['first', 'restart'] as const) {
        for (const variant of order) {
          const readySeconds = await startOnce(dirs.get(variant)!.path, variant);
          samples.push({ round: index + 1, variant, start, readySeconds: round(readySeconds, 2) });
          options.log?.(`round ${index + 1}: ${start} start ${variant}: ready after ${round(readySeconds, 2)} s`);
        }
      }
    } finally {
      await Promise.all([...dirs.values()].map((dir) => dir.remove()));
    }
  }
  const summary = (start: 'first' | 'restart') => {
    const of = (variant: Variant) => samples.filter((sample) => sample.start === start && sample.variant === variant).map((sample) => sample.readySeconds);
    const withHouse = of('with-house');
    const withoutHouse = of('without-house');
    // The added time of each round (a pair measured back to back), then their median.
    const added = withHouse.map((seconds, index) => seconds - (withoutHouse[index] ?? seconds));
    return { withHouseSeconds: round(median(withHouse), 2), withoutHouseSeconds: round(median(withoutHouse), 2), addedSeconds: round(median(added), 2) };
  };
  return { rounds, firstStart: summary('first'), restart: summary('restart'), samples, loadAverage1m: { atStart, atEnd: round(os.loadavg()[0] ?? 0, 2) } };
}

export const SANDBOX_START_NOTE =
  'bench/sandbox-start.ts: the local runtime as npm start starts it (lib/local/runtime.ts), each start in a fresh process, process start to serving; with every worker and without houseSetup (the house agents and their 240-product catalog), in pairs per round, alternating which goes first; firstStart on an empty data folder (the catalog written), restart on the same folder again (the catalog only checked); added = median of the per-round differences';

async function standalone(): Promise<void> {
  const result = await measureSandboxStart({ log: (message) => process.stderr.write(`[bench] ${message}\n`) });
  const file = path.join(import.meta.dirname, 'results.json');
  const results = JSON.parse(await readFile(file, 'utf8')) as {
    figures: Record<string, number>;
    checks: { figure: string; value: number; target: number | null; comparator: '<=' | '>='; unit: string; pass: boolean }[];
    allTargetsMet: boolean;
    details: Record<string, unknown>;
  };
  const checks = [
    { figure: 'sandboxStartSeconds', value: result.firstStart.withHouseSeconds, target: null, comparator: '<=' as const, unit: 's' },
    { figure: 'sandboxStartAddedSeconds', value: result.firstStart.addedSeconds, target: SANDBOX_START_ADDED_TARGET_SECONDS, comparator: '<=' as const, unit: 's' },
    { figure: 'sandboxRestartAddedSeconds', value: result.restart.addedSeconds, target: SANDBOX_START_ADDED_TARGET_SECONDS, comparator: '<=' as const, unit: 's' },
  ].map((check) => ({ ...check, pass: check.target === null || check.value <= check.target }));
  for (const check of checks) {
    results.figures[check.figure] = check.value;
    results.checks = [...results.checks.filter((existing) => existing.figure !== check.figure), check];
  }
  results.allTargetsMet = results.checks.every((check) => check.pass);
  // Measured on its own: its time and load average are its own, not the full run's.
  results.details.sandboxStart = { note: SANDBOX_START_NOTE, measuredAt: new Date().toISOString(), node: process.version, ...result };
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify({ figures: Object.fromEntries(checks.map((check) => [check.figure, check.value])), ...result }, null, 2));
  for (const check of checks) console.log(`${check.figure}: ${check.value} ${check.unit}${check.target === null ? '' : ` (target ${check.comparator} ${check.target} ${check.unit}: ${check.pass ? 'pass' : 'MISS'})`}`);
}

if (isBenchChild()) {
  // The child: the runtime on the bench's folder, with or without the house agents' setup; ready once it serves.
  await serveChild<StartReady>(async ({ dataDir, args, onStop }) => {
    if (!dataDir) throw new Error('The local runtime needs a data folder');
    const { startLocalRuntime } = await import('../lib/local/runtime.ts');
    const runtime = await startLocalRuntime({ dataDir, port: 0, quiet: true, ...(args[0] === 'without-house' ? { withoutWorkers: [HOUSE_SETUP_WORKER] } : {}) });
    // performance.now() counts from this process's start, as npm start's ready time does.
    const readySeconds = performance.now() / 1000;
    onStop(() => runtime.stop());
    return { ready: { readySeconds } };
  });
} else if (import.meta.filename === process.argv[1]) {
  await standalone();
}
