// POST /v1/orders/{id}/cancel — cancel a pending or confirmed order (either party); its quantity goes back to the product. Handler: ./cancel.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { CancelOrderRequest, Order, OrderIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_ORDER } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'cancelOrder',
  method: 'POST',
  path: '/v1/orders/{id}/cancel',
  handler: 'functions/orders/cancel.ts',
  summary: 'Cancel a pending or confirmed order',
  description:
    'Either party, while `pending` or `confirmed` (409 once shipped): the stock is restored; `order.cancelled` goes to both.',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'orders:write',
  rateLimited: true,
  request: { params: OrderIdParams, body: z.optional(CancelOrderRequest) },
  response: { status: 200, description: 'The order after the change' },
  handlerErrors: ['not-found', 'conflict', 'auth/forbidden'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Order,
  examples: { body: { reason: 'Duplicate purchase order' }, response: { ...EXAMPLE_ORDER, status: 'cancelled', cancellation: { by: 'buyer', reason: 'Duplicate purchase order', at: '2026-11-23T09:20:00.000Z' }, updatedAt: '2026-11-23T09:20:00.000Z' } },
});
