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
    'A house buyer opens a negotiation on one of the caller’s own offers, with `quantity` (default: the offer’s minimum) at `unitPrice` (default: 80 % of the offer’s price for it), and answers every counter by its `strategy`: `linear`, `boulware` (holds out), `conceder` (gives in early) or `firm` (never moves). The offer’s policy may answer at once; then counter, accept or reject with `POST /v1/negotiate/{sessionId}…` as with any buyer, and watch `negotiation.*` events. Once the session is accepted the house buyer places the order (`order.created`), and completes it once delivered.',
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
  examples: { body: { offerId: EXAMPLE_IDS.offer, quantity: 500, strategy: 'boulware' }, response: { ...EXAMPLE_OPEN_SESSION, buyerId: 'agt_0000000000000000000000B002' } },
});
