// POST /v1/create-order — place the order of an accepted session: the order, the session → ordered, the stock taken, the audit entry and order.created, all at once. Handler: ./run.ts
import { defineRoute } from '../../shared/http/route-table.ts';
import { CreateOrderRequest, Order } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'createOrder',
  method: 'POST',
  path: '/v1/create-order',
  handler: 'functions/create-order/run.ts',
  summary: 'Place the order of an accepted session: the order, the session → ordered, the stock taken, the audit entry and order.created, all at once',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ['buyer'],
  rateLimited: true,
  request: { body: CreateOrderRequest },
  response: { status: 201, description: 'The new order', schema: Order },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
});
