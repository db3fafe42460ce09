// POST /v1/negotiate/{sessionId}/reject — reject and end the negotiation (either party, while open). Handler: ./reject.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { MoveNoteRequest, NegotiationSession, SessionIdParams } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'rejectNegotiation',
  method: 'POST',
  path: '/v1/negotiate/{sessionId}/reject',
  handler: 'functions/negotiate/reject.ts',
  summary: 'Reject and end the negotiation (either party, while open)',
  tag: 'Negotiation',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { params: SessionIdParams, body: MoveNoteRequest.optional() },
  response: { status: 200, description: 'The rejected session', schema: NegotiationSession },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});
