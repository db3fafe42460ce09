// POST /v1/orders/{id}/deliver — mark a shipped order delivered (its seller; extension). Handler: ./deliver.ts
import { defineRoute } from '../../shared/http/route-table.ts';
import { Order, OrderIdParams } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'deliverOrder',
  method: 'POST',
  path: '/v1/orders/{id}/deliver',
  handler: 'functions/orders/deliver.ts',
  summary: 'Mark a shipped order delivered (its seller; extension)',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ['seller'],
  rateLimited: true,
  request: { params: OrderIdParams },
  response: { status: 200, description: 'The order after the change', schema: Order },
  handlerErrors: ['not-found', 'conflict', 'auth/forbidden'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});
