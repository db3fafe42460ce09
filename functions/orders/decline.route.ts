// POST /v1/orders/{id}/decline — the buyer's main key declines an order awaiting approval. Handler: ./decline.ts
import * as z from '../../shared/schemas/zod.ts';
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { DeclineOrderRequest, Order, OrderIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_AWAITING_ORDER } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'declineOrder',
  method: 'POST',
  path: '/v1/orders/{id}/decline',
  handler: 'functions/orders/decline.ts',
  summary: 'Decline an order awaiting approval',
  description:
    'The main key: `awaiting_approval` → `declined`; the stock and the key’s spend are released, `order.declined` goes to the buyer (the seller never saw it).',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ['buyer'],
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
