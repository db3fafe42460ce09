// POST /v1/test-helpers/orders/{id}/advance — the house seller moves the caller's order on now (sandbox only). Handler: ./advance-order.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { EXAMPLE_ORDER } from '../../shared/schemas/examples.ts';
import { AdvanceOrderRequest } from '../../shared/schemas/test-helpers.ts';
import { Order, OrderIdParams } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'advanceHouseOrder',
  method: 'POST',
  path: '/v1/test-helpers/orders/{id}/advance',
  handler: 'functions/test-helpers/advance-order.ts',
  summary: 'Move your order from the house seller on now (sandbox)',
  description:
    'For the buyer of an order from the house seller (Sandbox Supply Co.): the house seller moves it `to` `confirmed`, `shipped` or `delivered` now, through every status before it, each move with its event (`order.confirmed`, `order.shipped` with a tracking number, `order.delivered`) — what its schedule would do minutes later. An order of another seller is 422; one already at or past `to`, cancelled or completed, 409.',
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
  examples: { body: { to: 'delivered' }, response: { ...EXAMPLE_ORDER, sellerId: 'agt_0000000000000000000000S001', status: 'delivered', updatedAt: '2026-11-23T11:00:00.000Z' } },
});
