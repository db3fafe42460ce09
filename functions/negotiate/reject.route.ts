// POST /v1/negotiate/{sessionId}/reject — reject and end the negotiation (either party, while open). Handler: ./reject.ts
import * as z from '../../shared/schemas/zod.ts';
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { negotiationMoveRoles, negotiationMoveText, negotiationMoveTo } from '../../shared/http/route-states.ts';
import { MoveNoteRequest, NegotiationSession, SessionIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_COUNTERED_SESSION } from '../../shared/schemas/examples.ts';
import { change, idempotency, pathParameter, type RouteTool } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'rejectNegotiation',
  method: 'POST',
  path: '/v1/negotiate/{sessionId}/reject',
  handler: 'functions/negotiate/reject.ts',
  summary: 'Reject and end the negotiation',
  description:
    `${negotiationMoveText('reject')}: the session becomes ${negotiationMoveTo('reject')} (\`negotiation.rejected\`).`,
  tag: 'Negotiation',
  auth: 'apiKey',
  roles: negotiationMoveRoles('reject'),
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

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'reject_negotiation',
  title: 'Reject a negotiation',
  description: 'End an open negotiation session without a deal (either party, whoever’s turn it is). It cannot be reopened; a buyer may start a new one with start_negotiation.',
  annotations: change({ destructive: true, idempotent: true }),
  call: (mk, args) => mk.negotiations.reject(pathParameter(args, 'sessionId'), args.body, idempotency(args)),
});
