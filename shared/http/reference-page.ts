// GET /docs: the API reference, Redoc rendering /v1/openapi.json. The page holds no script or style of
// its own: it loads the module that starts Redoc from /docs/assets (same origin, listed in the
// manifest built at synth). Redoc's styled-components write <style> elements at run time; they carry
// this response's nonce, which Redoc reads from <meta property="csp-nonce">, so style-src needs no
// 'unsafe-inline'. Redoc's icon font is a data: URI inside its bundle, hence font-src data:.
import { randomBytes } from 'node:crypto';
import type { ReferenceAssetsManifest } from './reference-assets.ts';

/** A fresh nonce per response: 128 random bits, base64. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

export function referencePageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function referencePageHtml(manifest: ReferenceAssetsManifest, nonce: string): string {
  const preloads = manifest.modules.map((module) => `<link rel="modulepreload" href="${module}">`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="Reference of the Agent Marketplace API: every operation, its parameters, responses and errors, and the webhook events.">
<meta property="csp-nonce" nonce="${nonce}">
<title>Agent Marketplace API reference</title>
<link rel="icon" href="data:,">
${preloads}
<script type="module" src="${manifest.entry}"></script>
</head>
<body>
<div id="reference"><noscript><p>This reference needs JavaScript. The same content is in the OpenAPI document at
<a href="/v1/openapi.json">/v1/openapi.json</a>, and a summary for language models at <a href="/llms.txt">/llms.txt</a>.</p></noscript></div>
</body>
</html>
`;
}

/** Headers of the page besides its Content-Security-Policy. */
export const REFERENCE_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  // Each response has its own nonce: a cached copy would reuse it.
  'Cache-Control': 'no-store',
};
