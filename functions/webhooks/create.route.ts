// POST /v1/webhooks — subscribe a URL to events. Handler: ./create.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { CreateWebhookRequest, WebhookSubscription } from '../../shared/schemas/webhooks.ts';

export const route = defineRoute({
  operationId: 'createWebhook',
  method: 'POST',
  path: '/v1/webhooks',
  handler: 'functions/webhooks/create.ts',
  summary: 'Subscribe a URL to events (at most 20 subscriptions per agent)',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { body: CreateWebhookRequest },
  response: { status: 201, description: 'The new subscription (the secret is never returned)', schema: WebhookSubscription },
  handlerErrors: ['conflict', 'not-found'],
  tableActions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
});
