// GET /v1/orders/{id} — one order of which the caller is a party. Handler: ./get.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Order, OrderIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_ORDER, EXAMPLE_SHIPPING } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'getOrder',
  method: 'GET',
  path: '/v1/orders/{id}',
  handler: 'functions/orders/get.ts',
  summary: 'One order',
  description:
    '404 unless the caller is its buyer or seller. States: `pending` → `confirmed` → `shipped` → `delivered` (the seller’s moves) → `completed` (the buyer’s); `cancelled` from `pending` or `confirmed` (either party).',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'orders:read',
  rateLimited: true,
  request: { params: OrderIdParams },
  response: { status: 200, description: 'The order' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Order,
  examples: { response: { ...EXAMPLE_ORDER, status: 'shipped', shipping: EXAMPLE_SHIPPING, updatedAt: EXAMPLE_SHIPPING.shippedAt } },
});
