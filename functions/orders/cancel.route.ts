// POST /v1/orders/{id}/cancel — cancel a pending or confirmed order (either party); its quantity goes back to the product. Handler: ./cancel.ts
import * as z from '../../shared/schemas/zod.ts';
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { orderTransitionFrom, orderTransitionParty, orderTransitionRoles, orderTransitionText } from '../../shared/http/route-states.ts';
import { CancelOrderRequest, Order, OrderIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_ORDER } from '../../shared/schemas/examples.ts';
import { change, idempotency, pathParameter, type RouteTool } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'cancelOrder',
  method: 'POST',
  path: '/v1/orders/{id}/cancel',
  handler: 'functions/orders/cancel.ts',
  summary: `Cancel a ${orderTransitionFrom('cancel')} order`,
  description: `${orderTransitionText('cancel')}: the stock is restored; \`order.cancelled\` goes to both.`,
  tag: 'Orders',
  auth: 'apiKey',
  roles: orderTransitionRoles('cancel'),
  scope: 'orders:write',
  rateLimited: true,
  request: { params: OrderIdParams, body: z.optional(CancelOrderRequest) },
  response: { status: 200, description: 'The order after the change' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Order,
  examples: { body: { reason: 'Duplicate purchase order' }, response: { ...EXAMPLE_ORDER, status: 'cancelled', cancellation: { by: 'buyer', reason: 'Duplicate purchase order', at: '2026-11-23T09:20:00.000Z' }, updatedAt: '2026-11-23T09:20:00.000Z' } },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'cancel_order',
  title: 'Cancel an order',
  description: `Cancel an order that is ${orderTransitionFrom('cancel')} (${orderTransitionParty('cancel')}; give a reason). Its quantity goes back to the seller’s stock. Once it has moved on, it can no longer be cancelled.`,
  annotations: change({ destructive: true, idempotent: true }),
  call: (mk, args) => mk.orders.cancel(pathParameter(args), args.body, idempotency(args)),
});
