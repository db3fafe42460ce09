// POST /v1/negotiate/{sessionId}/accept — accept the other party’s terms on the table (only the party whose turn it is, while open). Handler: ./accept.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { MoveNoteRequest, NegotiationSession, SessionIdParams } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'acceptNegotiation',
  method: 'POST',
  path: '/v1/negotiate/{sessionId}/accept',
  handler: 'functions/negotiate/accept.ts',
  summary: 'Accept the other party’s terms on the table (only the party whose turn it is, while open)',
  tag: 'Negotiation',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { params: SessionIdParams, body: MoveNoteRequest.optional() },
  response: { status: 200, description: 'The accepted session', schema: NegotiationSession },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});
