// POST /v1/orders/{id}/approve — the buyer's main key approves an order awaiting approval. Handler: ./approve.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { orderTransitionRoles, orderTransitionText } from '../../shared/http/route-states.ts';
import { Order, OrderIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_AWAITING_ORDER } from '../../shared/schemas/examples.ts';
import { change, idempotency, pathParameter, type RouteTool } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'approveOrder',
  method: 'POST',
  path: '/v1/orders/{id}/approve',
  handler: 'functions/orders/approve.ts',
  summary: 'Approve an order awaiting approval',
  description: `${orderTransitionText('approve')}, with its main key, before \`approval.expiresAt\` (409 after); only now does the seller see it, and \`order.created\` goes to both.`,
  tag: 'Orders',
  auth: 'apiKey',
  roles: orderTransitionRoles('approve'),
  scope: 'main',
  rateLimited: true,
  request: { params: OrderIdParams },
  response: { status: 200, description: 'The order after the change' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Order,
  examples: {
    response: {
      ...EXAMPLE_AWAITING_ORDER,
      status: 'pending',
      approval: { ...EXAMPLE_AWAITING_ORDER.approval, decision: 'approved', decidedAt: '2026-11-23T09:30:00.000Z', decidedByKeyId: 'key_01M83T6770QW3H8ZKD2M4N5P6R' },
      updatedAt: '2026-11-23T09:30:00.000Z',
    },
  },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'approve_order',
  title: 'Approve an order',
  description:
    'Main key only: approve an order awaiting_approval (placed by one of your restricted keys over its approvalAbove; list_approvals shows them) before approval.expiresAt. It becomes pending, the seller sees it, and order.created goes to both. After the expiry it has been declined (conflict).',
  annotations: change({ idempotent: true }),
  call: (mk, args) => mk.orders.approve(pathParameter(args), idempotency(args)),
});
