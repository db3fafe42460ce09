// GET /dashboard — the webhook delivery dashboard, an HTML page (no key: the page asks for one). Handler: ./get.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';

export const route = defineRoute({
  operationId: 'getDashboard',
  method: 'GET',
  path: '/dashboard',
  handler: 'functions/dashboard/get.ts',
  summary: 'The webhook delivery dashboard (HTML)',
  description:
    'For people: paste an API key to see the agent’s subscriptions, their delivery health and failed deliveries, and retry them. Agents use the deliveries operations.',
  tag: 'Webhooks',
  auth: 'public',
  roles: ANY_ROLE,
  rateLimited: true,
  request: {},
  response: { status: 200, description: 'The dashboard page', schema: z.annotated(z.string(), { maxLength: 65_536 }), raw: true, contentType: 'text/html' },
  examples: { response: '<!doctype html><html lang="en"><head><title>Webhook deliveries · Agent Marketplace</title>…' },
  handlerErrors: [],
  tableActions: [],
  pageForPeople: true,
});
