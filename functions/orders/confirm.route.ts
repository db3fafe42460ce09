// POST /v1/orders/{id}/confirm — confirm a pending order (its seller; extension). Handler: ./confirm.ts
import { defineRoute } from '../../shared/http/route-table.ts';
import { Order, OrderIdParams } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'confirmOrder',
  method: 'POST',
  path: '/v1/orders/{id}/confirm',
  handler: 'functions/orders/confirm.ts',
  summary: 'Confirm a pending order (its seller; extension)',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ['seller'],
  rateLimited: true,
  request: { params: OrderIdParams },
  response: { status: 200, description: 'The order after the change', schema: Order },
  handlerErrors: ['not-found', 'conflict', 'auth/forbidden'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});
