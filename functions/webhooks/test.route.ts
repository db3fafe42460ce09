// POST /v1/webhooks/{id}/test — send a webhook.test event to the subscription now (one attempt), to check the receiver and its signature code. Handler: ./test.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { Delivery, WebhookIdParams } from '../../shared/schemas/webhooks.ts';

export const route = defineRoute({
  operationId: 'testWebhook',
  method: 'POST',
  path: '/v1/webhooks/{id}/test',
  handler: 'functions/webhooks/test.ts',
  summary: 'Send a webhook.test event to the subscription now (one attempt), to check the receiver and its signature code',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { params: WebhookIdParams },
  response: { status: 202, description: 'The test delivery, pending its attempt', schema: Delivery },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
  sendsDeliveries: true,
});
