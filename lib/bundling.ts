// How every Lambda bundle is built, in one place: lib/api-function.ts gives these to CDK's
// NodejsFunction (which runs the local esbuild), and bench/bundle.ts and lib/bundled-files.ts (a
// bundle shipped beside a function's, such as POST /mcp's tool calls) give the same to esbuild's API.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import type { BuildOptions } from 'esbuild';

/**
 * ESM bundles have no `require`; a few CommonJS dependencies call it for Node built-ins. Taken from
 * process.getBuiltinModule rather than an `import` of node:module, for the reason given at
 * builtinModuleAliases below.
 */
export const DEFINE_REQUIRE_BANNER = "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);";

export const LAMBDA_BUNDLING = {
  target: 'node24',
  format: 'esm',
  mainFields: ['module', 'main'],
  banner: DEFINE_REQUIRE_BANNER,
  minify: true,
  /** A map beside each bundle: functions run with --enable-source-maps (nodeOptions), so logged stacks name sources. */
  sourceMap: true,
  /** The map only needs file names and lines for stack traces, not a copy of every source. */
  sourcesContent: false,
  /**
   * The AWS SDK is bundled and tree-shaken into every function rather than left to the nodejs24.x
   * runtime's copy: a fresh import of a bundle with the SDK in it does about a quarter less work than
   * the same bundle loading the runtime's SDK from its many files (bench/cold-start.ts measures both
   * shapes in every run), for 300–450 kB more per bundle; and the deployed SDK is the version the
   * lockfile tested (docs/decisions/aws-sdk-bundled.md).
   */
  bundleAwsSdk: true,
  /**
   * What NodejsFunction leaves out with bundleAwsSDK: false (and the sdkV3ExcludeSmithyPackages flag):
   * the bench builds that shape too, to keep measuring the choice.
   */
  runtimeProvidedModules: ['@aws-sdk/*', '@smithy/*'],
  /**
   * Every function's NODE_OPTIONS (lib/api-function.ts): logged error stacks name source files and lines
   * (docs/decisions/powertools-observability.md). The cold-start benches import bundles with it too.
   */
  nodeOptions: '--enable-source-maps',
} as const;

/**
 * Node's built-in modules as CommonJS shims (`module.exports = process.getBuiltinModule('node:http')`),
 * aliased for every import of them in a bundle, to `alias` in esbuild terms: a path per specifier.
 *
 * An ESM `import … from 'node:http'` makes Node build the module's ESM facade, which reads every one
 * of its exports once — and reading `http`'s loads undici (the fetch implementation), reading
 * `process`'s opens the stdio streams, and so on, none of which a function uses. Through the shim the
 * bundle reads only what it uses, when it uses it: up to a quarter of a function's import
 * (docs/decisions/bundling.md). The shims are written once into node_modules/.cache.
 */
export function builtinModuleAliases(root: string): Record<string, string> {
  const dir = path.join(root, 'node_modules', '.cache', 'builtin-module-shims');
  mkdirSync(dir, { recursive: true });
  const aliases: Record<string, string> = {};
  for (const name of builtinModules) {
    if (name.startsWith('_') || name.startsWith('node:_')) continue;
    const specifier = name.startsWith('node:') ? name : `node:${name}`;
    const file = path.join(dir, `${specifier.slice(5).replaceAll('/', '__')}.cjs`);
    writeIfChanged(file, `module.exports = process.getBuiltinModule(${JSON.stringify(specifier)});\n`);
    aliases[specifier] = file;
    if (!name.startsWith('node:')) aliases[name] = file;
  }
  return aliases;
}

/** Every alias a Lambda bundle is built with: the built-in modules' shims. */
export function bundleAliases(root: string): Record<string, string> {
  return builtinModuleAliases(root);
}

/** Writes only when the content differs, so that concurrent builds reading the file never see it half-written. */
function writeIfChanged(file: string, content: string): void {
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== content) writeFileSync(file, content);
}

const REPOSITORY_ROOT = path.resolve(import.meta.dirname, '..');

/** LAMBDA_BUNDLING as esbuild API options (with the AWS SDK bundled, as deployed). */
export const lambdaBuildOptions = {
  bundle: true,
  platform: 'node',
  target: LAMBDA_BUNDLING.target,
  format: LAMBDA_BUNDLING.format,
  minify: LAMBDA_BUNDLING.minify,
  // Linked, as CDK's `sourceMap: true` builds it: the bundle names its map.
  sourcemap: LAMBDA_BUNDLING.sourceMap ? 'linked' : false,
  sourcesContent: LAMBDA_BUNDLING.sourcesContent,
  mainFields: [...LAMBDA_BUNDLING.mainFields],
  banner: { js: LAMBDA_BUNDLING.banner },
  alias: bundleAliases(REPOSITORY_ROOT),
  logLevel: 'silent',
} satisfies BuildOptions;
