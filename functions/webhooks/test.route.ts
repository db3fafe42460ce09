// POST /v1/webhooks/{id}/test — send a webhook.test event to the subscription now (one attempt), to check the receiver and its signature code. Handler: ./test.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Delivery, WebhookIdParams } from '../../shared/schemas/webhooks.ts';
import { EXAMPLE_DELIVERY } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'testWebhook',
  method: 'POST',
  path: '/v1/webhooks/{id}/test',
  handler: 'functions/webhooks/test.ts',
  summary: 'Send a webhook.test event to the subscription now',
  description:
    'One attempt, no retries, to check the receiver and its signature code; 409 if the subscription is inactive. Answers 202; `GET …/deliveries/{deliveryId}` gives the outcome.',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'webhooks:write',
  rateLimited: true,
  request: { params: WebhookIdParams },
  response: { status: 202, description: 'The test delivery, pending its attempt' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
  sendsDeliveries: true,
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Delivery,
  examples: { response: { ...EXAMPLE_DELIVERY, deliveryId: 'dlv_01M83V2KQ0PX3S9T7W5Z1C4B8N', eventId: 'evt_01M83V2KQ0F6H8J2K4M6N8P0QR', eventType: 'webhook.test', status: 'pending', attempts: [], nextAttemptAt: '2026-11-23T09:06:00.000Z', createdAt: '2026-11-23T09:06:00.000Z', updatedAt: '2026-11-23T09:06:00.000Z' } },
});
