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
  /**
   * A map beside each bundle, for the logger to map the stacks of errors it logs (shared/logger.ts).
   * Functions do not run with --enable-source-maps, which parses the map at every cold start.
   */
  sourceMap: true,
  /** The map only needs file names and lines for stack traces, not a copy of every source. */
  sourcesContent: false,
  /**
   * The AWS SDK is bundled and tree-shaken into every function rather than left to the nodejs24.x
   * runtime's copy: measured side by side (bench/cold-start.ts), a fresh import of a bundle with the
   * SDK in it is about a quarter faster than the same bundle loading the runtime's SDK from its many
   * files, for 300–350 kB more per bundle; and the deployed SDK is the version the lockfile tested
   * (docs/performance.md, "Cold start").
   */
  bundleAwsSdk: true,
  /**
   * What NodejsFunction leaves out with bundleAwsSDK: false (and the sdkV3ExcludeSmithyPackages flag):
   * the bench builds that shape too, to keep measuring the choice.
   */
  runtimeProvidedModules: ['@aws-sdk/*', '@smithy/*'],
} as const;
