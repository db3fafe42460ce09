// POST /v1/orders/{id}/cancel — cancel a pending or confirmed order (either party); its quantity goes back to the product. Handler: ./cancel.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { CancelOrderRequest, Order, OrderIdParams } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'cancelOrder',
  method: 'POST',
  path: '/v1/orders/{id}/cancel',
  handler: 'functions/orders/cancel.ts',
  summary: 'Cancel a pending or confirmed order (either party); its quantity goes back to the product',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { params: OrderIdParams, body: CancelOrderRequest.optional() },
  response: { status: 200, description: 'The order after the change', schema: Order },
  handlerErrors: ['not-found', 'conflict', 'auth/forbidden'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
});
