// POST /v1/test-helpers/orders/{id}/expire-approval — an order awaiting approval is declined now, as its window closing would (sandbox only). Handler: ./expire-approval.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { EXAMPLE_AWAITING_ORDER } from '../../shared/schemas/examples.ts';
import { Order, OrderIdParams } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'expireTestApproval',
  method: 'POST',
  path: '/v1/test-helpers/orders/{id}/expire-approval',
  handler: 'functions/test-helpers/expire-approval.ts',
  summary: 'Close an order’s approval window now (sandbox)',
  description:
    'Your order `awaiting_approval` is declined now (`approval_expired`), as when its window closes: stock and spend released, `order.declined`. Other statuses: 409.',
  tag: 'Test helpers',
  auth: 'apiKey',
  roles: ['buyer'],
  scope: 'main',
  stages: ['test'],
  rateLimited: true,
  request: { params: OrderIdParams },
  response: { status: 200, description: 'The declined order' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Order,
  examples: {
    response: {
      ...EXAMPLE_AWAITING_ORDER,
      status: 'declined',
      approval: { ...EXAMPLE_AWAITING_ORDER.approval, expiresAt: '2026-11-23T09:30:00.000Z', decision: 'declined', decidedAt: '2026-11-23T09:30:00.000Z', decidedByKeyId: null, reason: 'approval_expired' },
      updatedAt: '2026-11-23T09:30:00.000Z',
    },
  },
});
