// POST /mcp's cold start against the minimal handler, side by side, as bench/cold-start.ts measures
// every route (a fresh Node process importing the bundle as deployed, spawn to exit, with the
// functions' NODE_OPTIONS), for one function and for bundles kept from before a change:
//
//   node bench/mcp-cold-start.ts [pairs] [extra.mjs …]
//
// bundles functions/mcp/post.ts and bench/minimal-handler.ts in the deployed shape, then times each
// bundle (this one, and any extra bundle named, e.g. one saved before a change) paired with the minimal
// handler, alternating which goes first, and counts the fresh import of each in instructions
// (callgrind, which load does not move) when valgrind is installed. Prints the p50s, their ratios
// (the `coldStartRatio` of this function) and the load average at start and end.
import { copyFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LAMBDA_BUNDLING } from '../lib/bundling.ts';
import { BENCH_TMP, bundleEntry, REPO_ROOT } from './bundle.ts';
import { callgrindAvailable, countAllInstructions, HANDLER_ENV, timeRunIn } from './cold-import.ts';
import { median, round } from './stats.ts';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...HANDLER_ENV, NODE_OPTIONS: LAMBDA_BUNDLING.nodeOptions };
const importArgs = (file: string) => ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(file).href)});`];
const time = (file: string) => timeRunIn(importArgs(file), env, REPO_ROOT);

const pairs = Number(process.argv[2] ?? 21);
const extras = process.argv.slice(3).map((file) => path.resolve(file));
const outDir = path.join(BENCH_TMP, 'mcp-cold-start');
const minimal = await bundleEntry('bench/minimal-handler.ts', outDir, { bundleAwsSdk: LAMBDA_BUNDLING.bundleAwsSdk });
const mcp = await bundleEntry('functions/mcp/post.ts', outDir, { bundleAwsSdk: LAMBDA_BUNDLING.bundleAwsSdk });
// A copy under its own name, so that a later run can time this one beside the next.
const kept = path.join(outDir, `post-${Date.now()}.mjs`);
await copyFile(mcp.file, kept);

const loadAtStart = os.loadavg()[0] ?? 0;
const bundles = [mcp.file, ...extras];
const samples = new Map<string, number[]>([[minimal.file, []], ...bundles.map((file) => [file, []] as [string, number[]])]);
for (const file of [minimal.file, ...bundles]) time(file); // warm the file cache
for (let i = 0; i < pairs; i++) {
  const order = i % 2 === 0 ? [minimal.file, ...bundles] : [...bundles].reverse().concat(minimal.file);
  for (const file of order) samples.get(file)!.push(time(file));
}
const loadAtEnd = os.loadavg()[0] ?? 0;
const minimalP50 = median(samples.get(minimal.file)!);
const figures: Record<string, unknown> = {};
const instructions = callgrindAvailable() ? await countAllInstructions(new Map([minimal.file, ...bundles].map((file) => [file, importArgs(file)] as const)), env) : undefined;
for (const file of bundles) {
  const p50 = median(samples.get(file)!);
  figures[path.relative(REPO_ROOT, file)] = {
    p50Ms: round(p50),
    coldStartRatio: round(p50 / minimalP50, 3),
    ...(instructions ? { instructionsM: round(instructions.get(file)!), instructionsRatio: round(instructions.get(file)! / instructions.get(minimal.file)!, 3) } : {}),
  };
}
console.log(
  JSON.stringify(
    {
      pairs,
      loadAverage1m: { start: round(loadAtStart, 2), end: round(loadAtEnd, 2) },
      minimal: { p50Ms: round(minimalP50), kb: minimal.kb, ...(instructions ? { instructionsM: round(instructions.get(minimal.file)!) } : {}) },
      bundles: figures,
      keptAs: path.relative(REPO_ROOT, kept),
    },
    null,
    2,
  ),
);
