// POST /v1/negotiate/{sessionId}/reject — reject and end the negotiation (either party, while open). Handler: ./reject.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { MoveNoteRequest, NegotiationSession, SessionIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_COUNTERED_SESSION } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'rejectNegotiation',
  method: 'POST',
  path: '/v1/negotiate/{sessionId}/reject',
  handler: 'functions/negotiate/reject.ts',
  summary: 'Reject and end the negotiation',
  description:
    'Either party, whoever’s turn it is; the session becomes `rejected` (`negotiation.rejected`). A closed session is 409.',
  tag: 'Negotiation',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'negotiations:write',
  rateLimited: true,
  request: { params: SessionIdParams, body: z.optional(MoveNoteRequest) },
  response: { status: 200, description: 'The rejected session' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: NegotiationSession,
  examples: { body: { message: 'Above our budget this quarter' }, response: { ...EXAMPLE_COUNTERED_SESSION, status: 'rejected', turn: null, history: [...EXAMPLE_COUNTERED_SESSION.history, { round: 2, by: 'buyer', action: 'reject', unitPrice: 1160, quantity: 500, message: 'Above our budget this quarter', automatic: false, at: '2026-11-23T09:10:00.000Z' }], expiresAt: null, updatedAt: '2026-11-23T09:10:00.000Z' } },
});
