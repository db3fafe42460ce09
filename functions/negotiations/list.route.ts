// GET /v1/negotiations — the caller’s negotiation sessions, newest first: open ones unless ?status= names another. Handler: ./list.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { page } from '../../shared/schemas/common.ts';
import { ListNegotiationsQuery, NegotiationSession } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'listNegotiations',
  method: 'GET',
  path: '/v1/negotiations',
  handler: 'functions/negotiations/list.ts',
  summary: 'The caller’s negotiation sessions, newest first: open ones unless ?status= names another',
  tag: 'Negotiation',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { query: ListNegotiationsQuery },
  response: { status: 200, description: 'A page of sessions', schema: page(NegotiationSession) },
  handlerErrors: [],
  tableActions: ['dynamodb:Query'],
});
