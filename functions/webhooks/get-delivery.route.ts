// GET /v1/webhooks/{id}/deliveries/{deliveryId} — one delivery with its attempts and the exact payload that was sent. Handler: ./get-delivery.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { DeliveryParams, DeliveryWithPayload } from '../../shared/schemas/webhooks.ts';

export const route = defineRoute({
  operationId: 'getWebhookDelivery',
  method: 'GET',
  path: '/v1/webhooks/{id}/deliveries/{deliveryId}',
  handler: 'functions/webhooks/get-delivery.ts',
  summary: 'One delivery with its attempts and the exact payload that was sent',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { params: DeliveryParams },
  response: { status: 200, description: 'The delivery', schema: DeliveryWithPayload },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem'],
});
