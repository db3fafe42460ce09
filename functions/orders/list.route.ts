// GET /v1/orders — the caller’s orders, newest first (?status=, ?role=). Handler: ./list.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { page } from '../../shared/schemas/common.ts';
import { ListOrdersQuery, Order } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'listOrders',
  method: 'GET',
  path: '/v1/orders',
  handler: 'functions/orders/list.ts',
  summary: 'The caller’s orders',
  description:
    'As buyer or seller, newest first; `?status=` and `?role=` filter.',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'orders:read',
  rateLimited: true,
  request: { query: ListOrdersQuery },
  response: { status: 200, description: 'A page of orders' },
  handlerErrors: [],
  tableActions: ['dynamodb:Query'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: page(Order),
  examples: { query: { status: 'pending', role: 'buyer' }, response: { items: [], nextCursor: null } },
});
