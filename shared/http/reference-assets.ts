// The API reference's files (Redoc and the module that starts it), built at synth (lib/reference-assets.ts)
// and served by GET /docs/assets/{file}: named by a hash of their content, so cached for a year, and
// sent brotli- or gzip-compressed when the request accepts it. Lambda answers at most 6 MB and API
// Gateway passes a compressed (binary) body base64-encoded; the tests check every encoding fits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Negotiator from 'negotiator';
import type { HandlerResult } from './api-state.ts';

export const REFERENCE_ASSETS_PATH = '/docs/assets';

/** `reference-assets.json`, beside the bundles of GET /docs and GET /docs/assets/{file}. */
export interface ReferenceAssetsManifest {
  /** The module the page runs (it imports the others). */
  entry: string;
  /** Modules the page preloads, so they download alongside the entry. */
  modules: string[];
  files: Record<string, { contentType: string; bytes: Record<Encoding, number> }>;
}

export type Encoding = 'br' | 'gzip' | 'identity';

/** Best first, when the request accepts several equally. */
const ENCODINGS: readonly Encoding[] = ['br', 'gzip', 'identity'];
/** File suffix of each stored encoding in the `reference-assets` folder. */
const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz', identity: '' };

export interface StoredAsset {
  name: string;
  contentType: string;
  bodies: Record<Encoding, Buffer>;
}

/** Every file the manifest names, read from the folder into memory (a few MB: cold start reads it once). */
export function readAssets(folder: string | URL, manifest: ReferenceAssetsManifest): Map<string, StoredAsset> {
  const dir = typeof folder === 'string' ? folder : fileURLToPath(folder);
  const assets = new Map<string, StoredAsset>();
  for (const [name, { contentType }] of Object.entries(manifest.files)) {
    const read = (encoding: Encoding) => readFileSync(join(dir, storedFileName(name, encoding)));
    assets.set(name, { name, contentType, bodies: { br: read('br'), gzip: read('gzip'), identity: read('identity') } });
  }
  return assets;
}

/** The stored name of each encoding: `redoc-3.0.1.5d41402abc.js.br`. */
export function storedFileName(name: string, encoding: Encoding): string {
  return name + SUFFIX[encoding];
}

/** The part of a content-hashed name that is the hash: `redoc-3.0.1.5d41402abc.js` → `5d41402abc`. */
function contentHash(name: string): string {
  return /\.([0-9a-f]{10})\.js$/.exec(name)?.[1] ?? name;
}

/** If-None-Match holds `*` or one of the tags (weak comparison, as RFC 9110 asks for GET). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/**
 * The asset in the encoding the request prefers (brotli, then gzip, then as it is), cacheable for a
 * year; 304 when If-None-Match already names it. Text goes as text; compressed bytes go base64-encoded,
 * which API Gateway decodes.
 */
export function assetResponse(asset: StoredAsset, headers: Readonly<Record<string, string | undefined>>): HandlerResult {
  const negotiator = new Negotiator({ headers: { 'accept-encoding': headers['accept-encoding'] } });
  // negotiator 1.x breaks ties between equally accepted encodings by `preferred` (its types predate it).
  const encodings = negotiator.encodings.bind(negotiator) as (available: readonly string[], options: { preferred: readonly string[] }) => string[];
  const accepted = encodings(ENCODINGS, { preferred: ENCODINGS });
  const encoding: Encoding = (accepted[0] as Encoding | undefined) ?? 'identity';
  const etag = `"${contentHash(asset.name)}-${encoding}"`;
  const common: Record<string, string> = {
    ETag: etag,
    'Cache-Control': 'public, max-age=31536000, immutable',
    Vary: 'Accept-Encoding',
    'X-Content-Type-Options': 'nosniff',
    ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }),
  };
  if (matches(headers['if-none-match'], etag)) {
    return { status: 304, headers: common, raw: { body: '', contentType: asset.contentType } };
  }
  const body = asset.bodies[encoding];
  return { headers: common, raw: { body: encoding === 'identity' ? body.toString('utf8') : body, contentType: asset.contentType } };
}
