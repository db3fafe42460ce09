// POST /v1/negotiate/{sessionId} — counter the terms on the table (only the party whose turn it is, while open; at most maxRounds proposals). Handler: ./counter.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { negotiationMoveRoles, negotiationMoveText } from '../../shared/http/route-states.ts';
import { CounterRequest, MAX_ROUNDS, NegotiationSession, SessionIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_COUNTERED_SESSION } from '../../shared/schemas/examples.ts';
import { change, idempotency, MONEY, pathParameter, type RouteTool, type RequestBody } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'counterNegotiation',
  method: 'POST',
  path: '/v1/negotiate/{sessionId}',
  handler: 'functions/negotiate/counter.ts',
  summary: 'Counter the terms on the table',
  description:
    `${negotiationMoveText('counter')}; the turn passes. At most ${MAX_ROUNDS} proposals (\`maxRounds\`). The seller’s policy may answer a buyer’s counter at once.`,
  tag: 'Negotiation',
  auth: 'apiKey',
  roles: negotiationMoveRoles('counter'),
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

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'counter_offer',
  title: 'Counter-offer',
  description: `Propose new terms in a negotiation when it is your turn: unitPrice (and optionally a different quantity and a message). The turn passes to the other party; a seller's automatic policy may answer at once (read turn and history in the result). At most ${MAX_ROUNDS} proposals per session. ${MONEY} Next: wait for the answer (list_events, or get_negotiation), then counter again, accept_terms or reject_negotiation.`,
  annotations: change({ idempotent: false }),
  call: (mk, args) => mk.negotiations.counter(pathParameter(args, 'sessionId'), args.body as RequestBody<'counterNegotiation'>, idempotency(args)),
});
