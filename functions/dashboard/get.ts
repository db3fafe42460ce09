// GET /dashboard — the page and its Content-Security-Policy (shared/http/dashboard-page.ts); its script calls the public API.
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get.route.ts';
import { DASHBOARD_CSP, DASHBOARD_HTML } from '../../shared/http/dashboard-page.ts';

export const handler = apiHandler(route, () =>
  Promise.resolve({
    raw: { body: DASHBOARD_HTML, contentType: 'text/html; charset=utf-8' },
    headers: {
      'content-security-policy': DASHBOARD_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
    },
  }),
);
