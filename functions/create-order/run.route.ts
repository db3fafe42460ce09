// POST /v1/create-order — place the order of an accepted session: the order, the session → ordered, the stock taken, the key's spend counted, the audit entry and order.created, all at once; or, with dryRun, the order as it would be. Handler: ./run.ts
import * as z from '../../shared/schemas/zod.ts';
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { negotiationMoveFrom, negotiationMoveRoles, negotiationMoveTo } from '../../shared/http/route-states.ts';
import { CreateOrderRequest, Order, OrderPreview } from '../../shared/schemas/trade.ts';
import { EXAMPLE_IDS, EXAMPLE_ORDER } from '../../shared/schemas/examples.ts';
import { change, idempotency, MONEY, type RouteTool, type RequestBody } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'createOrder',
  method: 'POST',
  path: '/v1/create-order',
  handler: 'functions/create-order/run.ts',
  summary: 'Place the order of an accepted session',
  description:
    'From ' +
    negotiationMoveFrom('order') +
    ': the order is `pending`, `totalAmount` = quantity × unitPrice; the session becomes ' +
    negotiationMoveTo('order') +
    ', the stock is taken, `order.created` is sent. A restricted key’s limits apply: over one, 403 `spending-limit` (`details`: the limit, what is left); over `approvalAbove`, `awaiting_approval` until the main key decides. `dryRun: true`: 200 with the order as it would be and `limits` left, nothing written. 409 for a second order or short stock.',
  tag: 'Orders',
  auth: 'apiKey',
  roles: negotiationMoveRoles('order'),
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

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'place_order',
  title: 'Place an order',
  description: `Order the accepted terms of a negotiation (sessionId of an accepted session), optionally with your buyerReference (e.g. a purchase order number) and a shippingAddress. The stock is reserved at once; the order starts pending with totalAmount = quantity × unitPrice. One order per session. preview_order answers what this would do without doing it. With a restricted key: over one of its limits, spending-limit (details name the limit and what is left: order less, or ask the key's owner); over its approvalAbove, the order is created awaiting_approval and waits for the owner's main key (follow it with get_order or list_events). ${MONEY} Next: follow it with list_events (order.confirmed, order.shipped, order.delivered), then complete_order once delivered.`,
  annotations: change({ idempotent: true }),
  call: (mk, args) => mk.orders.create(args.body as RequestBody<'createOrder'>, idempotency(args)),
});
