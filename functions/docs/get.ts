// GET /docs — the reference page, with a fresh style nonce in its Content-Security-Policy (shared/http/reference-page.ts).
import { readFileSync } from 'node:fs';
import { apiHandler } from '../../shared/http/handler.ts';
import type { ReferenceAssetsManifest } from '../../shared/http/reference-assets.ts';
import { newNonce, REFERENCE_PAGE_HEADERS, referencePageCsp, referencePageHtml } from '../../shared/http/reference-page.ts';
import { bundledFilePath } from '../../shared/resources.ts';
import { route } from './get.route.ts';

const manifest = JSON.parse(readFileSync(bundledFilePath('reference-assets.json', import.meta.url), 'utf8')) as ReferenceAssetsManifest;

export const handler = apiHandler(route, () => {
  const nonce = newNonce();
  return Promise.resolve({
    raw: { body: referencePageHtml(manifest, nonce), contentType: 'text/html; charset=utf-8' },
    headers: { ...REFERENCE_PAGE_HEADERS, 'Content-Security-Policy': referencePageCsp(nonce) },
  });
});
