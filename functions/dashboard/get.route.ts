// GET /dashboard — the webhook delivery dashboard, an HTML page (no key: the page asks for one). Handler: ./get.ts
import * as z from 'zod';
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';

export const route = defineRoute({
  operationId: 'getDashboard',
  method: 'GET',
  path: '/dashboard',
  handler: 'functions/dashboard/get.ts',
  summary: 'The webhook delivery dashboard: sign in with an API key, see subscriptions and their deliveries, retry failed ones (HTML)',
  tag: 'Webhooks',
  auth: 'public',
  roles: ANY_ROLE,
  rateLimited: true,
  request: {},
  response: { status: 200, description: 'The dashboard page (text/html)', schema: z.string(), raw: true },
  handlerErrors: [],
  tableActions: [],
});
