// GET /v1/webhooks — the caller's subscriptions. Handler: ./list.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { page } from '../../shared/schemas/common.ts';
import { ListWebhooksQuery, WebhookSubscription } from '../../shared/schemas/webhooks.ts';

export const route = defineRoute({
  operationId: 'listWebhooks',
  method: 'GET',
  path: '/v1/webhooks',
  handler: 'functions/webhooks/list.ts',
  summary: "The caller's subscriptions, newest first",
  description:
    'Newest first, a page at a time (`limit`, `cursor`).',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'webhooks:read',
  rateLimited: true,
  request: { query: ListWebhooksQuery },
  response: { status: 200, description: 'A page of subscriptions' },
  handlerErrors: [],
  tableActions: ['dynamodb:Query'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: page(WebhookSubscription),
  examples: { query: { limit: '10' }, response: { items: [], nextCursor: null } },
});
