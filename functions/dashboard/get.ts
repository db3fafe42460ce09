// GET /dashboard — the page and its Content-Security-Policy, built at synth (lib/dashboard-page.ts: the
// browser code in ./page bundled by esbuild) and shipped beside the bundle; its script calls the public API.
import { apiHandler } from '../../shared/http/handler.ts';
import { readBundledFile } from '../../shared/resources.ts';
import { route } from './get.route.ts';

const page = JSON.parse(readBundledFile('dashboard.json', import.meta.url)) as { html: string; contentSecurityPolicy: string };

export const handler = apiHandler(route, () =>
  Promise.resolve({
    raw: { body: page.html, contentType: 'text/html; charset=utf-8' },
    headers: {
      'content-security-policy': page.contentSecurityPolicy,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
    },
  }),
);
