// POST /v1/orders/{id}/complete — complete a delivered order (its buyer; extension). Handler: ./complete.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Order, OrderIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_ORDER, EXAMPLE_SHIPPING } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'completeOrder',
  method: 'POST',
  path: '/v1/orders/{id}/complete',
  handler: 'functions/orders/complete.ts',
  summary: 'Complete a delivered order (its buyer; extension)',
  description:
    'By its buyer: `delivered` → `completed` (`order.completed`), which closes it.',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ['buyer'],
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
  examples: { response: { ...EXAMPLE_ORDER, status: 'completed', shipping: EXAMPLE_SHIPPING, updatedAt: '2026-11-27T08:00:00.000Z' } },
});
