// The files behind GET /docs, built at synth and at local start (lib/bundled-files.ts): Redoc's
// standalone bundle and a small module that starts it, each named by a hash of its content (so they
// can be cached for a year) and stored as it is, brotli- and gzip-compressed. The API serves them
// itself (GET /docs/assets/{file}); no page of ours loads anything from another origin.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { REFERENCE_ASSETS_PATH, type ReferenceAssetsManifest } from '../shared/http/reference-assets.ts';

export interface BuiltAsset {
  name: string;
  contentType: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export interface BuiltReferenceAssets {
  manifest: ReferenceAssetsManifest;
  assets: BuiltAsset[];
}

const require = createRequire(import.meta.url);
const JAVASCRIPT = 'text/javascript; charset=utf-8';

/**
 * Redoc shows an "API docs by Redocly" badge whose logo it loads from cdn.redoc.ly, which the page's
 * Content-Security-Policy refuses (a console error, and a request to another origin). The badge keeps
 * its link and shows the name as an inline SVG instead. Each address must be found: a Redoc upgrade
 * that moves the logo fails the build rather than letting the request back in.
 */
const ATTRIBUTION_LOGOS = ['https://cdn.redoc.ly/redoc/logo-mini-full.svg', 'https://cdn.redoc.ly/redoc/logo-mini.svg'];
const ATTRIBUTION_WORDMARK =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='52' height='14'%3E%3Ctext x='0' y='11' font-family='system-ui,sans-serif' font-size='11' fill='%23555'%3ERedocly%3C/text%3E%3C/svg%3E";

function redocStandalone(): { version: string; source: string } {
  const { version } = require('redoc/package.json') as { version: string };
  let source = readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
  for (const logo of ATTRIBUTION_LOGOS) {
    if (!source.includes(logo)) throw new Error(`redoc ${version}: ${logo} not found in its standalone bundle; check what loads the attribution logo now`);
    source = source.replaceAll(logo, ATTRIBUTION_WORDMARK);
  }
  const foreign = /https:\/\/cdn\.redoc\.ly\/[^`'"\s]+/.exec(source);
  if (foreign) throw new Error(`redoc ${version} still refers to ${foreign[0]}`);
  return { version, source };
}

/**
 * On a phone (390 px) Redoc's 36 px title breaks inside words ("Marketp-lace") beside its Copy button,
 * and its round menu button floats over the text's right edge. A smaller title that wraps between words,
 * and the text kept clear of a smaller button at the edge. Redoc's theming is CSS variables.
 */
const PHONE_STYLE = [
  '@media (max-width: 600px) {',
  ':root { --h1-font-size: 1.75rem; --h1-line-height: 2.25rem; }',
  'h1[data-component-name="Typography/H1"] { overflow-wrap: normal; word-break: normal; hyphens: auto; }',
  '.api-content { padding-right: 20px; box-sizing: border-box; }',
  'button[data-testid="floating-button"] { box-sizing: border-box; width: 44px; height: 44px; padding: 0; right: 6px; bottom: 16px; }',
  '}',
].join(' ');

/**
 * The page's only script of its own. Redoc fetches the document itself (so it offers it for download),
 * routes by the URL's hash (a reloaded deep link is still /docs), and sends no telemetry. The phone
 * style goes in a <style> with the response's nonce, as Redoc's own styles do.
 */
function startModule(redocFile: string): string {
  return [
    `import { init } from './${redocFile}';`,
    `const style = document.createElement('style');`,
    `style.nonce = document.querySelector('meta[property="csp-nonce"]')?.nonce ?? '';`,
    `style.textContent = ${JSON.stringify(PHONE_STYLE)};`,
    `document.head.append(style);`,
    `init('/v1/openapi.json', { disableTelemetry: true, router: 'hash' }, document.getElementById('reference'));`,
    '',
  ].join('\n');
}

/**
 * Compressed files by the SHA-256 of their content. Brotli takes seconds for Redoc; every local start
 * and synth would pay it, so each result is kept here and reused while Redoc and the patch are unchanged.
 */
const COMPRESSION_CACHE = path.resolve(import.meta.dirname, '..', 'node_modules', '.cache', 'agent-marketplace', 'reference-assets');

function cached(key: string, compress: () => Buffer): Buffer {
  const file = path.join(COMPRESSION_CACHE, key);
  if (existsSync(file)) return readFileSync(file);
  const bytes = compress();
  mkdirSync(COMPRESSION_CACHE, { recursive: true });
  // Another process may be writing the same entry: each writes its own file, and the rename is atomic.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, bytes);
  renameSync(partial, file);
  return bytes;
}

function asset(base: string, content: string): BuiltAsset {
  const identity = Buffer.from(content, 'utf8');
  const sha256 = createHash('sha256').update(identity).digest('hex');
  return {
    // `redoc-3.0.1.js` → `redoc-3.0.1.5d41402abc.js`
    name: base.replace(/\.js$/, `.${sha256.slice(0, 10)}.js`),
    contentType: JAVASCRIPT,
    identity,
    // Quality 10: within 2 % of 11 (the most) in half the time (Redoc: 527 kB, 1.9 s; 519 kB, 3.6 s).
    br: cached(`${sha256}.br`, () =>
      brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 10, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    ),
    gzip: cached(`${sha256}.gz`, () => gzipSync(identity, { level: 9 })),
  };
}

let built: BuiltReferenceAssets | undefined;

/** Builds the assets once per process: synth and the tests ask for them more than once. */
export function buildReferenceAssets(): BuiltReferenceAssets {
  if (built) return built;
  const redoc = redocStandalone();
  const renderer = asset(`redoc-${redoc.version}.js`, redoc.source);
  const start = asset('reference.js', startModule(renderer.name));
  const assets = [renderer, start];
  built = {
    assets,
    manifest: {
      entry: `${REFERENCE_ASSETS_PATH}/${start.name}`,
      modules: [`${REFERENCE_ASSETS_PATH}/${renderer.name}`],
      files: Object.fromEntries(
        assets.map((item) => [
          item.name,
          { contentType: item.contentType, bytes: { identity: item.identity.length, br: item.br.length, gzip: item.gzip.length } },
        ]),
      ),
    },
  };
  return built;
}
