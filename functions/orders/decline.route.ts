// POST /v1/orders/{id}/decline — the buyer's main key declines an order awaiting approval. Handler: ./decline.ts
import * as z from '../../shared/schemas/zod.ts';
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { orderTransitionRoles, orderTransitionText } from '../../shared/http/route-states.ts';
import { DeclineOrderRequest, Order, OrderIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_AWAITING_ORDER } from '../../shared/schemas/examples.ts';
import { change, idempotency, pathParameter, type RouteTool } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'declineOrder',
  method: 'POST',
  path: '/v1/orders/{id}/decline',
  handler: 'functions/orders/decline.ts',
  summary: 'Decline an order awaiting approval',
  description: `${orderTransitionText('decline')}, with its main key; the stock and the key’s spend are released, \`order.declined\` goes to the buyer (the seller never saw it).`,
  tag: 'Orders',
  auth: 'apiKey',
  roles: orderTransitionRoles('decline'),
  scope: 'main',
  rateLimited: true,
  request: { params: OrderIdParams, body: z.optional(DeclineOrderRequest) },
  response: { status: 200, description: 'The order after the change' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Order,
  examples: {
    body: { reason: 'Over this month’s plan' },
    response: {
      ...EXAMPLE_AWAITING_ORDER,
      status: 'declined',
      approval: { ...EXAMPLE_AWAITING_ORDER.approval, decision: 'declined', decidedAt: '2026-11-23T09:30:00.000Z', decidedByKeyId: 'key_01M83T6770QW3H8ZKD2M4N5P6R', reason: 'Over this month’s plan' },
      updatedAt: '2026-11-23T09:30:00.000Z',
    },
  },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'decline_order',
  title: 'Decline an order',
  description: 'Main key only: decline an order awaiting_approval (list_approvals shows them), with an optional reason: it becomes declined, its stock and the key’s spend are released, and order.declined goes to you. The seller never sees it.',
  annotations: change({ destructive: true, idempotent: true }),
  call: (mk, args) => mk.orders.decline(pathParameter(args), args.body, idempotency(args)),
});
