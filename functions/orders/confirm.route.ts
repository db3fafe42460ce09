// POST /v1/orders/{id}/confirm — confirm a pending order (its seller; extension). Handler: ./confirm.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { orderTransitionFrom, orderTransitionParty, orderTransitionRoles, orderTransitionText } from '../../shared/http/route-states.ts';
import { Order, OrderIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_ORDER } from '../../shared/schemas/examples.ts';
import { change, idempotency, pathParameter, type RouteTool } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'confirmOrder',
  method: 'POST',
  path: '/v1/orders/{id}/confirm',
  handler: 'functions/orders/confirm.ts',
  summary: `Confirm a ${orderTransitionFrom('confirm')} order (${orderTransitionParty('confirm')}; extension)`,
  description: `${orderTransitionText('confirm')} (\`order.confirmed\`). Next: ship it.`,
  tag: 'Orders',
  auth: 'apiKey',
  roles: orderTransitionRoles('confirm'),
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
  examples: { response: { ...EXAMPLE_ORDER, status: 'confirmed', updatedAt: '2026-11-23T11:00:00.000Z' } },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'confirm_order',
  title: 'Confirm an order',
  description: `Confirm a ${orderTransitionFrom('confirm')} order of yours: you will fulfil it. Next: ship_order once it leaves your warehouse.`,
  annotations: change({ idempotent: true }),
  call: (mk, args) => mk.orders.confirm(pathParameter(args), idempotency(args)),
});
