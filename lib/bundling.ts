// How every Lambda bundle is built, in one place: lib/api-function.ts gives these to CDK's
// NodejsFunction (which runs the local esbuild), and bench/bundle.ts gives the same to esbuild's API
// to measure what we deploy.

/** ESM bundles have no `require`; a few CommonJS dependencies call it for Node built-ins. */
export const DEFINE_REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

export const LAMBDA_BUNDLING = {
  target: 'node24',
  format: 'esm',
  mainFields: ['module', 'main'],
  banner: DEFINE_REQUIRE_BANNER,
  minify: true,
  sourceMap: true,
  /** The map only needs file names and lines for stack traces, not a copy of every source. */
  sourcesContent: false,
  /**
   * Left to the nodejs24.x runtime, which ships AWS SDK v3 (kept patched by AWS): bundling it would
   * add ~340 kB to every function. NodejsFunction leaves exactly these out with bundleAwsSDK: false
   * and the sdkV3ExcludeSmithyPackages feature flag.
   */
  runtimeProvidedModules: ['@aws-sdk/*', '@smithy/*'],
} as const;
