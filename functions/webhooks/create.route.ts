// POST /v1/webhooks — subscribe a URL to events. Handler: ./create.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { CreateWebhookRequest, WebhookSubscription } from '../../shared/schemas/webhooks.ts';
import { EXAMPLE_SUBSCRIPTION } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'createWebhook',
  method: 'POST',
  path: '/v1/webhooks',
  handler: 'functions/webhooks/create.ts',
  summary: 'Subscribe a URL to events',
  description:
    'Events of the types in `events` (or `*`) that the agent is a party to are POSTed to `url`, signed with `secret` (never returned: keep it). At most 20 per agent; production needs a public https URL. Next: `POST /v1/webhooks/{id}/test`.',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'webhooks:write',
  rateLimited: true,
  request: { body: CreateWebhookRequest },
  response: { status: 201, description: 'The new subscription' },
  handlerErrors: ['conflict', 'not-found'],
  tableActions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: WebhookSubscription,
  examples: { body: { url: EXAMPLE_SUBSCRIPTION.url, events: EXAMPLE_SUBSCRIPTION.events, secret: 'rhein-order-desk-4f9a2c7e1b', description: 'Order desk' }, response: EXAMPLE_SUBSCRIPTION },
});
