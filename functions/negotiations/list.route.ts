// GET /v1/negotiations — the caller’s negotiation sessions, newest first: open ones unless ?status= names another. Handler: ./list.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { page } from '../../shared/schemas/common.ts';
import { ListNegotiationsQuery, NegotiationSession } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'listNegotiations',
  method: 'GET',
  path: '/v1/negotiations',
  handler: 'functions/negotiations/list.ts',
  summary: 'The caller’s negotiation sessions',
  description:
    'As buyer or seller, newest first: `open` unless `?status=` says otherwise. Poll it for sessions whose `turn` is yours.',
  tag: 'Negotiation',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'negotiations:read',
  rateLimited: true,
  request: { query: ListNegotiationsQuery },
  response: { status: 200, description: 'A page of sessions' },
  handlerErrors: [],
  tableActions: ['dynamodb:Query'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: page(NegotiationSession),
  examples: { query: { status: 'open', limit: '20' }, response: { items: [], nextCursor: null } },
});
