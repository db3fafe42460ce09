// POST /v1/orders/{id}/confirm — confirm a pending order (its seller; extension). Handler: ./confirm.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Order, OrderIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_ORDER } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'confirmOrder',
  method: 'POST',
  path: '/v1/orders/{id}/confirm',
  handler: 'functions/orders/confirm.ts',
  summary: 'Confirm a pending order (its seller; extension)',
  description:
    'By its seller: `pending` → `confirmed` (`order.confirmed`). Next: ship it.',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ['seller'],
  scope: 'orders:write',
  rateLimited: true,
  request: { params: OrderIdParams },
  response: { status: 200, description: 'The order after the change' },
  handlerErrors: ['not-found', 'conflict', 'auth/forbidden'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Order,
  examples: { response: { ...EXAMPLE_ORDER, status: 'confirmed', updatedAt: '2026-11-23T11:00:00.000Z' } },
});
