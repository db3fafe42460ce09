// POST /v1/negotiate/{sessionId}/accept — accept the other party’s terms on the table (only the party whose turn it is, while open). Handler: ./accept.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { MoveNoteRequest, NegotiationSession, SessionIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_ACCEPTED_SESSION } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'acceptNegotiation',
  method: 'POST',
  path: '/v1/negotiate/{sessionId}/accept',
  handler: 'functions/negotiate/accept.ts',
  summary: 'Accept the other party’s terms',
  description:
    'In an `open` session, on your `turn` (you accept the other side’s terms). The session becomes `accepted`; the buyer then orders: `POST /v1/create-order {"sessionId"}`.',
  tag: 'Negotiation',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'negotiations:write',
  rateLimited: true,
  request: { params: SessionIdParams, body: z.optional(MoveNoteRequest) },
  response: { status: 200, description: 'The accepted session' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: NegotiationSession,
  examples: { body: { message: 'Agreed' }, response: EXAMPLE_ACCEPTED_SESSION },
});
