// POST /v1/test-helpers/negotiations — a house buyer opens a negotiation on the caller's own offer (sandbox only). Handler: ./negotiate.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { EXAMPLE_IDS, EXAMPLE_OPEN_SESSION } from '../../shared/schemas/examples.ts';
import { HouseNegotiationRequest } from '../../shared/schemas/test-helpers.ts';
import { NegotiationSession } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'negotiateWithHouseBuyer',
  method: 'POST',
  path: '/v1/test-helpers/negotiations',
  handler: 'functions/test-helpers/negotiate.ts',
  summary: 'A house buyer negotiates on your offer (sandbox)',
  description:
    'A house buyer opens a negotiation on one of your offers: `quantity` (default: the offer’s minimum) at `unitPrice` (default: 80 % of its price), then answers your counters by `strategy` (`linear`, `boulware`, `conceder`, `firm`); it orders once the session is accepted, and completes once delivered.',
  tag: 'Test helpers',
  auth: 'apiKey',
  roles: ['seller'],
  scope: 'negotiations:write',
  stages: ['test'],
  rateLimited: true,
  request: { body: HouseNegotiationRequest },
  response: { status: 201, description: 'The new session, the house buyer its buyer' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: NegotiationSession,
  examples: { body: { offerId: EXAMPLE_IDS.offer, quantity: 500, strategy: 'boulware' }, response: EXAMPLE_OPEN_SESSION },
});
