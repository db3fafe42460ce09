// PATCH /v1/webhooks/{id} — change a subscription. Handler: ./update.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { UpdateWebhookRequest, WebhookIdParams, WebhookSubscription } from '../../shared/schemas/webhooks.ts';
import { EXAMPLE_SUBSCRIPTION } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'updateWebhook',
  method: 'PATCH',
  path: '/v1/webhooks/{id}',
  handler: 'functions/webhooks/update.ts',
  summary: 'Change a subscription',
  description:
    'Send only what changes. `description: null` clears it; `active: false` pauses it (queued deliveries then fail with `subscription-inactive`); `active: true` resumes it, also once disabled.',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'webhooks:write',
  rateLimited: true,
  request: { params: WebhookIdParams, body: UpdateWebhookRequest },
  response: { status: 200, description: 'The updated subscription' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:UpdateItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: WebhookSubscription,
  examples: { body: { events: [...EXAMPLE_SUBSCRIPTION.events, 'order.cancelled'] }, response: { ...EXAMPLE_SUBSCRIPTION, events: [...EXAMPLE_SUBSCRIPTION.events, 'order.cancelled'], updatedAt: '2026-11-23T10:00:00.000Z' } },
});
