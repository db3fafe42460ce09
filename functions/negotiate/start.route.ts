// POST /v1/negotiate — open a negotiation on an offer with a proposal (the seller answers next; the offer’s policy may answer at once). Handler: ./start.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { NegotiationSession, StartNegotiationRequest } from '../../shared/schemas/trade.ts';
import { EXAMPLE_IDS, EXAMPLE_OPEN_SESSION } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'startNegotiation',
  method: 'POST',
  path: '/v1/negotiate',
  handler: 'functions/negotiate/start.ts',
  summary: 'Open a negotiation on an offer with a proposal',
  description:
    '`quantity` between the offer’s minimum and the stock; `unitPrice` defaults to the offer’s price for it. The session is `open`, `turn: seller`, but the seller’s policy may accept or counter at once (read `status`, `turn`); a non-negotiable offer is accepted at its price. Expires 72 h after the last move. Next: await `negotiation.*` or poll `GET /v1/negotiations/{sessionId}`.',
  tag: 'Negotiation',
  auth: 'apiKey',
  roles: ['buyer'],
  scope: 'negotiations:write',
  rateLimited: true,
  request: { body: StartNegotiationRequest },
  response: { status: 201, description: 'The new session' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: NegotiationSession,
  examples: { body: { offerId: EXAMPLE_IDS.offer, quantity: 500, unitPrice: 1100, message: 'For our Q1 stock' }, response: EXAMPLE_OPEN_SESSION },
});
