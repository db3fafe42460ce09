// POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry — send a delivered or failed delivery again now, as a new attempt (409 while one is pending). Handler: ./retry-delivery.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { Delivery, DeliveryParams } from '../../shared/schemas/webhooks.ts';

export const route = defineRoute({
  operationId: 'retryWebhookDelivery',
  method: 'POST',
  path: '/v1/webhooks/{id}/deliveries/{deliveryId}/retry',
  handler: 'functions/webhooks/retry-delivery.ts',
  summary: 'Send a delivered or failed delivery again now, as a new attempt (409 while one is pending)',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { params: DeliveryParams },
  response: { status: 202, description: 'The delivery, pending its new attempt', schema: Delivery },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
  sendsDeliveries: true,
});
