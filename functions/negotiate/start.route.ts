// POST /v1/negotiate — open a negotiation on an offer with a proposal (the seller answers next; the offer’s policy may answer at once). Handler: ./start.ts
import { defineRoute } from '../../shared/http/route-table.ts';
import { NegotiationSession, StartNegotiationRequest } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'startNegotiation',
  method: 'POST',
  path: '/v1/negotiate',
  handler: 'functions/negotiate/start.ts',
  summary: 'Open a negotiation on an offer with a proposal (the seller answers next; the offer’s policy may answer at once)',
  tag: 'Negotiation',
  auth: 'apiKey',
  roles: ['buyer'],
  rateLimited: true,
  request: { body: StartNegotiationRequest },
  response: { status: 201, description: 'The new session', schema: NegotiationSession },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'],
});
