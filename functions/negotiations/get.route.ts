// GET /v1/negotiations/{sessionId} — one negotiation session of which the caller is a party. Handler: ./get.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { NegotiationSession, SessionIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_COUNTERED_SESSION } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'getNegotiation',
  method: 'GET',
  path: '/v1/negotiations/{sessionId}',
  handler: 'functions/negotiations/get.ts',
  summary: 'One negotiation session',
  description:
    '404 unless the caller is a party. `turn` says who moves next; an `open` session past `expiresAt` reads `expired`.',
  tag: 'Negotiation',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'negotiations:read',
  rateLimited: true,
  request: { params: SessionIdParams },
  response: { status: 200, description: 'The session' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: NegotiationSession,
  examples: { response: EXAMPLE_COUNTERED_SESSION },
});
