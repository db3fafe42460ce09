// GET /v1/webhooks/{id} — one of the caller's subscriptions. Handler: ./get.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { WebhookIdParams, WebhookSubscription } from '../../shared/schemas/webhooks.ts';
import { EXAMPLE_SUBSCRIPTION } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'getWebhook',
  method: 'GET',
  path: '/v1/webhooks/{id}',
  handler: 'functions/webhooks/get.ts',
  summary: 'One of the caller’s subscriptions',
  description:
    'Its `url`, `events` and `active` state (never the secret); another agent’s id is 404.',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'webhooks:read',
  rateLimited: true,
  request: { params: WebhookIdParams },
  response: { status: 200, description: 'The subscription' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: WebhookSubscription,
  examples: { response: EXAMPLE_SUBSCRIPTION },
});
