// Bundles every route handler as the deployed Lambdas are bundled (lib/bundling.ts, the options
// lib/api-function.ts gives CDK's NodejsFunction), and measures the bundles. The AWS SDK is bundled
// as deployed (LAMBDA_BUNDLING.bundleAwsSdk); `bundleAwsSdk: false` builds the variant that leaves it
// to the Lambda runtime's copy, for comparison.
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { LAMBDA_BUNDLING, lambdaBuildOptions } from '../lib/bundling.ts';
import { fallbackRoute, routeList, workers } from '../functions/registry.ts';
import { writeBundledFiles } from '../lib/bundled-files.ts';
import { DEFAULT_BUNDLE_BUDGET_KB } from '../shared/http/route-table.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');
export const BENCH_TMP = path.join(REPO_ROOT, 'bench', '.tmp');
export const BUNDLE_DIR = path.join(BENCH_TMP, 'bundles');
export const SDK_EXTERNALS: string[] = [...LAMBDA_BUNDLING.runtimeProvidedModules];

export interface BundleInfo {
  /** The route's operationId, or the worker's id. */
  operationId: string;
  kind: 'route' | 'worker';
  handler: string;
  /** Absolute path of the bundled .mjs (its .map sits beside it and is not counted). */
  file: string;
  bytes: number;
  kb: number;
  /** What the bundle is made of: kB of output per npm package (or repository folder), largest first. */
  composition: Record<string, number>;
  /** Every source file in the bundle, relative to the repository (node_modules included). */
  inputs: string[];
  /** The runtime-provided modules (the AWS SDK) it imports: what its cold start loads besides itself. */
  externalImports: string[];
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** A bundle's budget in kB: its route row's, or the default every other function keeps. */
export function bundleBudgetKb(bundle: Pick<BundleInfo, 'operationId' | 'kind'>): number {
  const row = bundle.kind === 'route' ? routeList.find((route) => route.operationId === bundle.operationId) : undefined;
  return row?.bundleBudgetKb ?? DEFAULT_BUNDLE_BUDGET_KB;
}

function composition(inputs: Record<string, { bytesInOutput: number }>): Record<string, number> {
  const bytes = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
    const group = pkg ?? input.split('/').slice(0, 2).join('/');
    bytes.set(group, (bytes.get(group) ?? 0) + bytesInOutput);
  }
  return Object.fromEntries([...bytes].sort((a, b) => b[1] - a[1]).map(([group, n]) => [group, kb(n)]));
}

/**
 * One extra entry point (a baseline such as bench/minimal-handler.ts) bundled exactly as the handlers
 * are, into `outDir/<name>.mjs`; returns the bundle's path and size.
 */
export async function bundleEntry(entry: string, outDir: string, options: { bundleAwsSdk?: boolean } = {}): Promise<{ file: string; kb: number }> {
  await mkdir(outDir, { recursive: true });
  const name = path.basename(entry).replace(/\.ts$/, '');
  await build({
    ...lambdaBuildOptions,
    entryPoints: [{ out: name, in: path.resolve(REPO_ROOT, entry) }],
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    ...((options.bundleAwsSdk ?? LAMBDA_BUNDLING.bundleAwsSdk) ? {} : { external: SDK_EXTERNALS }),
  });
  const file = path.join(outDir, `${name}.mjs`);
  return { file, kb: kb((await stat(file)).size) };
}

/**
 * One bundle per distinct handler file of the route table, the fallback route and the worker table. A single esbuild
 * call with one entry point per handler and no code splitting: each output is a complete,
 * separately tree-shaken bundle, as separate builds would produce, but shared files are parsed once.
 */
export async function bundleHandlers(
  options: { bundleAwsSdk?: boolean; outDir?: string } = {},
): Promise<BundleInfo[]> {
  const outDir = options.outDir ?? BUNDLE_DIR;
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  // Every route handler, the fallback route's, and every worker's: output name → handler path.
  const entries = [
    ...[...routeList, fallbackRoute].map((row) => ({ id: row.operationId, kind: 'route' as const, handler: row.handler })),
    ...workers.map((worker) => ({ id: worker.id, kind: 'worker' as const, handler: worker.handler })),
  ];
  const outName = (handler: string) => handler.replace(/\.ts$/, '').replaceAll('/', '__');
  const { metafile } = await build({
    ...lambdaBuildOptions,
    metafile: true,
    entryPoints: [...new Set(entries.map((entry) => entry.handler))].map((handler) => ({ out: outName(handler), in: path.join(REPO_ROOT, handler) })),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    ...((options.bundleAwsSdk ?? LAMBDA_BUNDLING.bundleAwsSdk) ? {} : { external: SDK_EXTERNALS }),
  });
  // The files some routes ship beside their bundle (openapi.json), as the CDK bundling copies them.
  writeBundledFiles(outDir, 'test');
  const bundles: BundleInfo[] = [];
  for (const entry of entries) {
    const file = path.join(outDir, `${outName(entry.handler)}.mjs`);
    const { size } = await stat(file);
    const output = metafile.outputs[path.relative(process.cwd(), file)] ?? Object.entries(metafile.outputs).find(([name]) => path.resolve(name) === file)?.[1];
    if (!output) throw new Error(`esbuild's metafile has no output for ${entry.handler}`);
    bundles.push({
      operationId: entry.id,
      kind: entry.kind,
      handler: entry.handler,
      file,
      bytes: size,
      kb: kb(size),
      composition: composition(output.inputs),
      inputs: Object.keys(output.inputs).map((input) => path.relative(REPO_ROOT, path.resolve(input))),
      externalImports: [...new Set(output.imports.filter((imported) => imported.external && /^@(aws-sdk|smithy)\//.test(imported.path)).map((imported) => imported.path))].sort(),
    });
  }
  return bundles;
}
