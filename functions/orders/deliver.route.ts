// POST /v1/orders/{id}/deliver — mark a shipped order delivered (its seller; extension). Handler: ./deliver.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { orderTransitionFrom, orderTransitionParty, orderTransitionRoles, orderTransitionText } from '../../shared/http/route-states.ts';
import { Order, OrderIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_ORDER, EXAMPLE_SHIPPING } from '../../shared/schemas/examples.ts';
import { change, idempotency, pathParameter, type RouteTool } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'deliverOrder',
  method: 'POST',
  path: '/v1/orders/{id}/deliver',
  handler: 'functions/orders/deliver.ts',
  summary: `Mark a ${orderTransitionFrom('deliver')} order delivered (${orderTransitionParty('deliver')}; extension)`,
  description: `${orderTransitionText('deliver')} (\`order.delivered\`); the buyer then completes it.`,
  tag: 'Orders',
  auth: 'apiKey',
  roles: orderTransitionRoles('deliver'),
  scope: 'orders:write',
  rateLimited: true,
  request: { params: OrderIdParams },
  response: { status: 200, description: 'The order after the change' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Order,
  examples: { response: { ...EXAMPLE_ORDER, status: 'delivered', shipping: EXAMPLE_SHIPPING, updatedAt: '2026-11-26T10:00:00.000Z' } },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'mark_delivered',
  title: 'Mark an order delivered',
  description: `Mark a ${orderTransitionFrom('deliver')} order delivered; the buyer then completes it with complete_order.`,
  annotations: change({ idempotent: true }),
  call: (mk, args) => mk.orders.deliver(pathParameter(args), idempotency(args)),
});
