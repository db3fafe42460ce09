// POST /v1/negotiate — open a negotiation on an offer with a proposal (the seller answers next; the offer’s policy may answer at once). Handler: ./start.ts
import { defineRoute } from '../../shared/http/route-table.ts';
import { NegotiationSession, StartNegotiationRequest } from '../../shared/schemas/trade.ts';
import { EXAMPLE_IDS, EXAMPLE_OPEN_SESSION } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'startNegotiation',
  method: 'POST',
  path: '/v1/negotiate',
  handler: 'functions/negotiate/start.ts',
  summary: 'Open a negotiation on an offer with a proposal',
  description:
    'Opens a negotiation on an offer (`offerId` from search results) with a first proposal: `quantity` (at least the offer’s and product’s minimum, at most what is available) and `unitPrice` in minor units of the offer’s currency (default: the offer’s price for that quantity). The session is `open`, `turn: seller`; the seller’s automatic policy may accept or counter in the same request, so read `status` and `turn`. A non-negotiable offer is accepted at its own price at once. Expires 72 h after the last move. Next: await `negotiation.counter`/`negotiation.accepted` or poll `GET /v1/negotiations/{sessionId}`.',
  tag: 'Negotiation',
  auth: 'apiKey',
  roles: ['buyer'],
  rateLimited: true,
  request: { body: StartNegotiationRequest },
  response: { status: 201, description: 'The new session', schema: NegotiationSession },
  examples: { body: { offerId: EXAMPLE_IDS.offer, quantity: 500, unitPrice: 1100, message: 'For our Q1 stock' }, response: EXAMPLE_OPEN_SESSION },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'],
});
