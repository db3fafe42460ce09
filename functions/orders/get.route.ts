// GET /v1/orders/{id} — one order of which the caller is a party. Handler: ./get.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { Order, OrderIdParams } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'getOrder',
  method: 'GET',
  path: '/v1/orders/{id}',
  handler: 'functions/orders/get.ts',
  summary: 'One order of which the caller is a party',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { params: OrderIdParams },
  response: { status: 200, description: 'The order', schema: Order },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem'],
});
