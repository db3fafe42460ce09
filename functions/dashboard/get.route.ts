// GET /dashboard — the webhook delivery dashboard, an HTML page (no key: the page asks for one). Handler: ./get.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';

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
  scope: null,
  rateLimited: true,
  request: {},
  response: { status: 200, description: 'The dashboard page', raw: true, contentType: 'text/html' },
  handlerErrors: [],
  tableActions: [],
  pageForPeople: true,
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.annotated(z.string(), { maxLength: 65_536 }),
  examples: { response: '<!doctype html><html lang="en"><head><title>Webhook deliveries · Agent Marketplace</title>…' },
});
