// Bundles every route handler as the deployed Lambdas are bundled (lib/bundling.ts, the options
// lib/api-function.ts gives CDK's NodejsFunction), and measures the bundles. The AWS SDK is left to
// the Lambda runtime as deployed; `bundleAwsSdk` builds the variant that bundles it, for comparison.
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { LAMBDA_BUNDLING } from '../lib/bundling.ts';
import { fallbackRoute, routeList } from '../functions/route-index.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');
export const BENCH_TMP = path.join(REPO_ROOT, 'bench', '.tmp');
export const BUNDLE_DIR = path.join(BENCH_TMP, 'bundles');

/** LAMBDA_BUNDLING as esbuild API options. */
export const lambdaBuildOptions = {
  bundle: true,
  platform: 'node',
  target: LAMBDA_BUNDLING.target,
  format: LAMBDA_BUNDLING.format,
  minify: LAMBDA_BUNDLING.minify,
  sourcemap: 'external',
  sourcesContent: LAMBDA_BUNDLING.sourcesContent,
  mainFields: [...LAMBDA_BUNDLING.mainFields],
  banner: { js: LAMBDA_BUNDLING.banner },
  logLevel: 'silent',
} satisfies BuildOptions;

export const SDK_EXTERNALS: string[] = [...LAMBDA_BUNDLING.runtimeProvidedModules];

export interface BundleInfo {
  operationId: string;
  handler: string;
  /** Absolute path of the bundled .mjs (its .map sits beside it and is not counted). */
  file: string;
  bytes: number;
  kb: number;
  /** What the bundle is made of: kB of output per npm package (or repository folder), largest first. */
  composition: Record<string, number>;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

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
 * One bundle per distinct handler file of the route table and the fallback route. A single esbuild
 * call with one entry point per handler and no code splitting: each output is a complete,
 * separately tree-shaken bundle, as separate builds would produce, but shared files are parsed once.
 */
/**
 * Replaces the AWS SDK with empty classes, to time our own code's import alone (the bundle cannot
 * serve requests). Only what the handlers import at module load needs to exist.
 */
const STUB_SDK_SOURCE = `
export class DynamoDBClient { constructor() { this.middlewareStack = { add() {} }; } send() {} }
export class DynamoDBDocumentClient { static from() { return new DynamoDBDocumentClient(); } send() {} }
export class GetCommand {} export class PutCommand {} export class UpdateCommand {} export class DeleteCommand {}
export class QueryCommand {} export class TransactWriteCommand {}
export class ConditionalCheckFailedException extends Error {} export class TransactionCanceledException extends Error {}
export const unmarshall = (item) => item;`;

const stubAwsSdk: Plugin = {
  name: 'stub-aws-sdk',
  setup(plugins) {
    plugins.onResolve({ filter: /^@aws-sdk\// }, (args) => ({ path: args.path, namespace: 'stub-aws-sdk' }));
    plugins.onLoad({ filter: /.*/, namespace: 'stub-aws-sdk' }, () => ({ contents: STUB_SDK_SOURCE, loader: 'js' }));
  },
};

export async function bundleHandlers(
  options: { bundleAwsSdk?: boolean; stubAwsSdk?: boolean; outDir?: string } = {},
): Promise<BundleInfo[]> {
  const outDir = options.outDir ?? BUNDLE_DIR;
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const handlers = new Map<string, string>(); // output name → handler path
  for (const row of [...routeList, fallbackRoute]) {
    handlers.set(row.handler.replace(/\.ts$/, '').replaceAll('/', '__'), row.handler);
  }
  const { metafile } = await build({
    ...lambdaBuildOptions,
    metafile: true,
    entryPoints: [...handlers].map(([out, handler]) => ({ out, in: path.join(REPO_ROOT, handler) })),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    ...(options.bundleAwsSdk || options.stubAwsSdk ? {} : { external: SDK_EXTERNALS }),
    ...(options.stubAwsSdk ? { plugins: [stubAwsSdk] } : {}),
  });
  const bundles: BundleInfo[] = [];
  for (const row of [...routeList, fallbackRoute]) {
    const file = path.join(outDir, `${row.handler.replace(/\.ts$/, '').replaceAll('/', '__')}.mjs`);
    const { size } = await stat(file);
    const output = metafile.outputs[path.relative(process.cwd(), file)] ?? Object.entries(metafile.outputs).find(([name]) => path.resolve(name) === file)?.[1];
    bundles.push({ operationId: row.operationId, handler: row.handler, file, bytes: size, kb: kb(size), composition: composition(output?.inputs ?? {}) });
  }
  return bundles;
}
