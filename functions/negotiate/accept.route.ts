// POST /v1/negotiate/{sessionId}/accept — accept the other party’s terms on the table (only the party whose turn it is, while open). Handler: ./accept.ts
import * as z from '../../shared/schemas/zod.ts';
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { negotiationMoveRoles, negotiationMoveText, negotiationMoveTo } from '../../shared/http/route-states.ts';
import { MoveNoteRequest, NegotiationSession, SessionIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_ACCEPTED_SESSION } from '../../shared/schemas/examples.ts';
import { change, idempotency, MONEY, pathParameter, type RouteTool } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'acceptNegotiation',
  method: 'POST',
  path: '/v1/negotiate/{sessionId}/accept',
  handler: 'functions/negotiate/accept.ts',
  summary: 'Accept the other party’s terms',
  description:
    `${negotiationMoveText('accept')}: you accept the other side’s terms. The session becomes ${negotiationMoveTo('accept')}; the buyer then orders: \`POST /v1/create-order {"sessionId"}\`.`,
  tag: 'Negotiation',
  auth: 'apiKey',
  roles: negotiationMoveRoles('accept'),
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

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'accept_terms',
  title: 'Accept the terms',
  description: `Accept the other party's proposal on the table (only when it is your turn: you accept their terms, never your own). The session becomes accepted at its quantity and unitPrice. ${MONEY} Next (buyers): place_order with the sessionId.`,
  annotations: change({ idempotent: true }),
  call: (mk, args) => mk.negotiations.accept(pathParameter(args, 'sessionId'), args.body, idempotency(args)),
});
