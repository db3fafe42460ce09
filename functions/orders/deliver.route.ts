// POST /v1/orders/{id}/deliver — mark a shipped order delivered (its seller; extension). Handler: ./deliver.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Order, OrderIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_ORDER, EXAMPLE_SHIPPING } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'deliverOrder',
  method: 'POST',
  path: '/v1/orders/{id}/deliver',
  handler: 'functions/orders/deliver.ts',
  summary: 'Mark a shipped order delivered (its seller; extension)',
  description:
    'By its seller: `shipped` → `delivered` (`order.delivered`); the buyer then completes it.',
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
  examples: { response: { ...EXAMPLE_ORDER, status: 'delivered', shipping: EXAMPLE_SHIPPING, updatedAt: '2026-11-26T10:00:00.000Z' } },
});
