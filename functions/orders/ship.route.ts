// POST /v1/orders/{id}/ship — mark a confirmed order shipped, with carrier and tracking number (its seller; extension). Handler: ./ship.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { orderTransitionFrom, orderTransitionRoles, orderTransitionText } from '../../shared/http/route-states.ts';
import { Order, OrderIdParams, ShipOrderRequest } from '../../shared/schemas/trade.ts';
import { EXAMPLE_ORDER, EXAMPLE_SHIPPING } from '../../shared/schemas/examples.ts';
import { change, idempotency, pathParameter, type RouteTool, type RequestBody } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'shipOrder',
  method: 'POST',
  path: '/v1/orders/{id}/ship',
  handler: 'functions/orders/ship.ts',
  summary: `Ship a ${orderTransitionFrom('ship')} order (carrier, tracking)`,
  description: `${orderTransitionText('ship')}, with \`carrier\`, \`trackingNumber\` and optional \`trackingUrl\`, which \`order.shipped\` carries.`,
  tag: 'Orders',
  auth: 'apiKey',
  roles: orderTransitionRoles('ship'),
  scope: 'orders:write',
  rateLimited: true,
  request: { params: OrderIdParams, body: ShipOrderRequest },
  response: { status: 200, description: 'The order after the change' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Order,
  examples: { body: { carrier: EXAMPLE_SHIPPING.carrier, trackingNumber: EXAMPLE_SHIPPING.trackingNumber, trackingUrl: EXAMPLE_SHIPPING.trackingUrl }, response: { ...EXAMPLE_ORDER, status: 'shipped', shipping: EXAMPLE_SHIPPING, updatedAt: EXAMPLE_SHIPPING.shippedAt } },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'ship_order',
  title: 'Ship an order',
  description: `Mark a ${orderTransitionFrom('ship')} order shipped, with carrier and trackingNumber (and optionally a trackingUrl); the buyer is told (order.shipped). Next: mark_delivered once it has arrived.`,
  annotations: change({ idempotent: true }),
  call: (mk, args) => mk.orders.ship(pathParameter(args), args.body as RequestBody<'shipOrder'>, idempotency(args)),
});
