// POST /v1/orders/{id}/ship — mark a confirmed order shipped, with carrier and tracking number (its seller; extension). Handler: ./ship.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Order, OrderIdParams, ShipOrderRequest } from '../../shared/schemas/trade.ts';
import { EXAMPLE_ORDER, EXAMPLE_SHIPPING } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'shipOrder',
  method: 'POST',
  path: '/v1/orders/{id}/ship',
  handler: 'functions/orders/ship.ts',
  summary: 'Ship a confirmed order (carrier, tracking)',
  description:
    'By its seller: `confirmed` → `shipped`, with `carrier`, `trackingNumber` and optional `trackingUrl`, which `order.shipped` carries.',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ['seller'],
  scope: 'orders:write',
  rateLimited: true,
  request: { params: OrderIdParams, body: ShipOrderRequest },
  response: { status: 200, description: 'The order after the change' },
  handlerErrors: ['not-found', 'conflict', 'auth/forbidden'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Order,
  examples: { body: { carrier: EXAMPLE_SHIPPING.carrier, trackingNumber: EXAMPLE_SHIPPING.trackingNumber, trackingUrl: EXAMPLE_SHIPPING.trackingUrl }, response: { ...EXAMPLE_ORDER, status: 'shipped', shipping: EXAMPLE_SHIPPING, updatedAt: EXAMPLE_SHIPPING.shippedAt } },
});
