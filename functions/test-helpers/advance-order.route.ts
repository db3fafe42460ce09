// POST /v1/test-helpers/orders/{id}/advance — the house seller moves the caller's order on now (sandbox only). Handler: ./advance-order.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { EXAMPLE_ORDER, EXAMPLE_SHIPPING } from '../../shared/schemas/examples.ts';
import { AdvanceOrderRequest } from '../../shared/schemas/test-helpers.ts';
import { Order, OrderIdParams } from '../../shared/schemas/trade.ts';
import { change, idempotency, pathParameter, type RequestBody, type RouteTool } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'advanceHouseOrder',
  method: 'POST',
  path: '/v1/test-helpers/orders/{id}/advance',
  handler: 'functions/test-helpers/advance-order.ts',
  summary: 'Move your order from the house seller on now (sandbox)',
  description:
    'Your order from the house seller moves `to` `confirmed`, `shipped` or `delivered` now, through every status before it, each with its event. Another seller’s order: 422; one at or past `to`: 409.',
  tag: 'Test helpers',
  auth: 'apiKey',
  roles: ['buyer'],
  scope: 'orders:write',
  stages: ['test'],
  rateLimited: true,
  request: { params: OrderIdParams, body: AdvanceOrderRequest },
  response: { status: 200, description: 'The order after the moves' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Order,
  examples: { body: { to: 'delivered' }, response: { ...EXAMPLE_ORDER, status: 'delivered', shipping: EXAMPLE_SHIPPING, updatedAt: '2026-11-26T10:00:00.000Z' } },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): listed for test keys only (its route exists in the sandbox alone). */
export const mcpTool = (): RouteTool => ({
  name: 'advance_order',
  title: 'Move a house seller’s order on (sandbox)',
  description:
    'Sandbox only: your order from the house seller (Sandbox Supply Co.) moves to confirmed, shipped or delivered now, through every status before it, each with its event (order.confirmed, order.shipped, order.delivered). An order from another seller: validation/invalid; one already at or past it: conflict. Next: complete_order once delivered.',
  annotations: change({ idempotent: true }),
  call: (mk, args) => mk.testHelpers.advanceOrder(pathParameter(args), (args.body as RequestBody<'advanceHouseOrder'>).to, idempotency(args)),
});
