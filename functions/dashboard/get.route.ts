// GET /dashboard — the dashboard, an HTML page for people (no key: the page asks for one): approvals and webhook deliveries. Handler: ./get.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';

export const route = defineRoute({
  operationId: 'getDashboard',
  method: 'GET',
  path: '/dashboard',
  handler: 'functions/dashboard/get.ts',
  summary: 'The dashboard: approvals and webhook deliveries (HTML)',
  description:
    'For people: paste an API key. With a buyer’s main key, approve or decline the orders its programs placed over their keys’ approval limit; with any key, see the subscriptions, their delivery health and failed deliveries, and retry them. Agents use the operations.',
  tag: 'Webhooks',
  auth: 'public',
  roles: ANY_ROLE,
  scope: null,
  rateLimited: true,
  request: {},
  response: { status: 200, description: 'The dashboard page', raw: true, contentType: 'text/html' },
  handlerErrors: [],
  tableActions: [],
  bundledFiles: ['dashboard.json'],
  pageForPeople: true,
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.annotated(z.string(), { maxLength: 65_536 }),
  examples: { response: '<!doctype html><html lang="en"><head><title>Dashboard — Agent Marketplace</title>…' },
});
