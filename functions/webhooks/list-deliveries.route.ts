// GET /v1/webhooks/{id}/deliveries — a subscription’s deliveries, newest first, each with its attempts (?status=pending|delivered|failed). Handler: ./list-deliveries.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { page } from '../../shared/schemas/common.ts';
import { Delivery, ListDeliveriesQuery, WebhookIdParams } from '../../shared/schemas/webhooks.ts';

export const route = defineRoute({
  operationId: 'listWebhookDeliveries',
  method: 'GET',
  path: '/v1/webhooks/{id}/deliveries',
  handler: 'functions/webhooks/list-deliveries.ts',
  summary: 'A subscription’s deliveries with their attempts',
  description:
    'Newest first, each `pending`, `delivered` (a 2xx) or `failed` (after the last retry); `?status=failed` lists what needs attention.',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'webhooks:read',
  rateLimited: true,
  request: { params: WebhookIdParams, query: ListDeliveriesQuery },
  response: { status: 200, description: 'A page of deliveries' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: page(Delivery),
  examples: { query: { status: 'failed', limit: '20' }, response: { items: [], nextCursor: null } },
});
