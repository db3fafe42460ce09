// GET /v1/webhooks/{id}/deliveries/{deliveryId} — one delivery with its attempts and the exact payload that was sent. Handler: ./get-delivery.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { DeliveryParams, DeliveryWithPayload } from '../../shared/schemas/webhooks.ts';
import { EXAMPLE_DELIVERY, EXAMPLE_ORDER_CREATED_EVENT } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'getWebhookDelivery',
  method: 'GET',
  path: '/v1/webhooks/{id}/deliveries/{deliveryId}',
  handler: 'functions/webhooks/get-delivery.ts',
  summary: 'One delivery with its attempts and exact payload',
  description:
    '`payload` is the exact body that was signed and sent: recompute the signature over it to debug a receiver.',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'webhooks:read',
  rateLimited: true,
  request: { params: DeliveryParams },
  response: { status: 200, description: 'The delivery' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: DeliveryWithPayload,
  examples: { response: { ...EXAMPLE_DELIVERY, payload: JSON.stringify(EXAMPLE_ORDER_CREATED_EVENT) } },
});
