// POST /v1/create-order — place the order of an accepted session: the order, the session → ordered, the stock taken, the audit entry and order.created, all at once. Handler: ./run.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { CreateOrderRequest, Order } from '../../shared/schemas/trade.ts';
import { EXAMPLE_IDS, EXAMPLE_ORDER } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'createOrder',
  method: 'POST',
  path: '/v1/create-order',
  handler: 'functions/create-order/run.ts',
  summary: 'Place the order of an accepted session',
  description:
    'From an `accepted` session: the order is `pending`, `totalAmount` = quantity × unitPrice; the session becomes `ordered`, the stock is taken, `order.created` is sent. 409 for a second order or when the stock no longer covers it. Next: `GET /v1/orders/{orderId}` or `order.*` webhooks.',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ['buyer'],
  scope: 'orders:write',
  rateLimited: true,
  request: { body: CreateOrderRequest },
  response: { status: 201, description: 'The new order' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Order,
  examples: { body: { sessionId: EXAMPLE_IDS.session, buyerReference: 'PO-2026-0042' }, response: EXAMPLE_ORDER },
});
