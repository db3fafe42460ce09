// POST /v1/negotiate/{sessionId} — counter the terms on the table (only the party whose turn it is, while open; at most maxRounds proposals). Handler: ./counter.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { CounterRequest, NegotiationSession, SessionIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_COUNTERED_SESSION } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'counterNegotiation',
  method: 'POST',
  path: '/v1/negotiate/{sessionId}',
  handler: 'functions/negotiate/counter.ts',
  summary: 'Counter the terms on the table',
  description:
    'In an `open` session, on your `turn` (409 otherwise); the turn passes. At most 20 proposals (`maxRounds`). The seller’s policy may answer a buyer’s counter at once.',
  tag: 'Negotiation',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'negotiations:write',
  rateLimited: true,
  request: { params: SessionIdParams, body: CounterRequest },
  response: { status: 200, description: 'The session after the move (and any automatic answer)' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: NegotiationSession,
  examples: { body: { unitPrice: 1160 }, response: EXAMPLE_COUNTERED_SESSION },
});
