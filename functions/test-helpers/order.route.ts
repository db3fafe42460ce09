// POST /v1/test-helpers/orders — a house buyer orders from the caller's own offer (sandbox only). Handler: ./order.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { EXAMPLE_IDS, EXAMPLE_ORDER } from '../../shared/schemas/examples.ts';
import { HouseOrderRequest } from '../../shared/schemas/test-helpers.ts';
import { Order } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'orderFromHouseBuyer',
  method: 'POST',
  path: '/v1/test-helpers/orders',
  handler: 'functions/test-helpers/order.ts',
  summary: 'A house buyer orders from your offer (sandbox)',
  description:
    'A house buyer orders `quantity` of one of your offers at its price (it proposes, you accept unless the offer’s policy did, it orders: the usual events). The order is `pending`, for you to confirm, ship and deliver; the house buyer completes it once delivered.',
  tag: 'Test helpers',
  auth: 'apiKey',
  roles: ['seller'],
  scope: 'orders:write',
  stages: ['test'],
  rateLimited: true,
  request: { body: HouseOrderRequest },
  response: { status: 201, description: 'The order, the house buyer its buyer' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Order,
  examples: { body: { offerId: EXAMPLE_IDS.offer, quantity: 500 }, response: EXAMPLE_ORDER },
});
