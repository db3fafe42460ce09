// POST /v1/orders/{id}/complete — complete a delivered order (its buyer; extension). Handler: ./complete.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { orderTransitionFrom, orderTransitionParty, orderTransitionRoles, orderTransitionText } from '../../shared/http/route-states.ts';
import { Order, OrderIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_ORDER, EXAMPLE_SHIPPING } from '../../shared/schemas/examples.ts';
import { change, idempotency, pathParameter, repeatable, type RouteTool } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'completeOrder',
  method: 'POST',
  path: '/v1/orders/{id}/complete',
  handler: 'functions/orders/complete.ts',
  summary: `Complete a ${orderTransitionFrom('complete')} order (${orderTransitionParty('complete')}; extension)`,
  description: `${orderTransitionText('complete')} (\`order.completed\`), which closes it.`,
  tag: 'Orders',
  auth: 'apiKey',
  roles: orderTransitionRoles('complete'),
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
  examples: { response: { ...EXAMPLE_ORDER, status: 'completed', shipping: EXAMPLE_SHIPPING, updatedAt: '2026-11-27T08:00:00.000Z' } },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'complete_order',
  title: 'Complete an order',
  description: `Confirm that a ${orderTransitionFrom('complete')} order arrived as agreed: it becomes completed, the end of its life cycle. Calling it again on a completed order answers the order.`,
  annotations: change({ idempotent: true }),
  call: (mk, args) => repeatable(() => mk.orders.complete(pathParameter(args), idempotency(args)), () => mk.orders.get(pathParameter(args)), 'completed'),
});
