// POST /v1/orders/{id}/ship — mark a confirmed order shipped, with carrier and tracking number (its seller; extension). Handler: ./ship.ts
import { defineRoute } from '../../shared/http/route-table.ts';
import { Order, OrderIdParams, ShipOrderRequest } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'shipOrder',
  method: 'POST',
  path: '/v1/orders/{id}/ship',
  handler: 'functions/orders/ship.ts',
  summary: 'Mark a confirmed order shipped, with carrier and tracking number (its seller; extension)',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ['seller'],
  rateLimited: true,
  request: { params: OrderIdParams, body: ShipOrderRequest },
  response: { status: 200, description: 'The order after the change', schema: Order },
  handlerErrors: ['not-found', 'conflict', 'auth/forbidden'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});
