// POST /v1/create-order — place the order of an accepted session: the order, the session → ordered, the stock taken, the key's spend counted, the audit entry and order.created, all at once; or, with dryRun, the order as it would be. Handler: ./run.ts
import * as z from '../../shared/schemas/zod.ts';
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { CreateOrderRequest, Order, OrderPreview } from '../../shared/schemas/trade.ts';
import { EXAMPLE_IDS, EXAMPLE_ORDER } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'createOrder',
  method: 'POST',
  path: '/v1/create-order',
  handler: 'functions/create-order/run.ts',
  summary: 'Place the order of an accepted session',
  description:
    'From an `accepted` session: the order is `pending`, `totalAmount` = quantity × unitPrice; the session becomes `ordered`, the stock is taken, `order.created` is sent. A restricted key’s limits apply: over one, 403 `spending-limit` (`details`: the limit, what is left); over `approvalAbove`, `awaiting_approval` until the main key decides. `dryRun: true`: 200 with the order as it would be and `limits` left, nothing written. 409 for a second order or short stock.',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ['buyer'],
  scope: 'orders:write',
  rateLimited: true,
  request: { body: CreateOrderRequest },
  response: { status: 201, description: 'The new order' },
  handlerErrors: ['not-found', 'conflict', 'spending-limit'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.union([Order, OrderPreview]),
  examples: { body: { sessionId: EXAMPLE_IDS.session, buyerReference: 'PO-2026-0042' }, response: EXAMPLE_ORDER },
});
