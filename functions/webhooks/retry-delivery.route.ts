// POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry — send a delivered or failed delivery again now, as a new attempt (409 while one is pending). Handler: ./retry-delivery.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Delivery, DeliveryParams } from '../../shared/schemas/webhooks.ts';
import { EXAMPLE_DELIVERY } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'retryWebhookDelivery',
  method: 'POST',
  path: '/v1/webhooks/{id}/deliveries/{deliveryId}/retry',
  handler: 'functions/webhooks/retry-delivery.ts',
  summary: 'Send a delivered or failed delivery again now',
  description:
    'One more attempt (`manual: true`, no automatic retries after it); 409 while `pending`. Answers 202, `pending`; `GET …/deliveries/{deliveryId}` gives the outcome.',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'webhooks:write',
  rateLimited: true,
  request: { params: DeliveryParams },
  response: { status: 202, description: 'The delivery, pending its new attempt' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
  sendsDeliveries: true,
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Delivery,
  examples: { response: { ...EXAMPLE_DELIVERY, status: 'pending', nextAttemptAt: '2026-11-23T10:05:00.000Z', updatedAt: '2026-11-23T10:05:00.000Z' } },
});
