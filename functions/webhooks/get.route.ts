// GET /v1/webhooks/{id} — one of the caller's subscriptions. Handler: ./get.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
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
  rateLimited: true,
  request: { params: WebhookIdParams },
  response: { status: 200, description: 'The subscription', schema: WebhookSubscription },
  examples: { response: EXAMPLE_SUBSCRIPTION },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem'],
});
