// GET /v1/rfqs — a buyer's own requests for quotes; a seller's the ones it was sent (open unless ?status=). Handler: ./list.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { page } from '../../shared/schemas/common.ts';
import { ListRfqsQuery, Rfq } from '../../shared/schemas/rfqs.ts';

export const route = defineRoute({
  operationId: 'listRfqs',
  method: 'GET',
  path: '/v1/rfqs',
  handler: 'functions/rfqs/list.ts',
  summary: 'Requests for quotes: a buyer’s own, or those sent to a seller',
  description:
    'Newest first, without their quotes (`GET /v1/rfqs/{id}` has them). A buyer: its own, every status unless `?status=`. A seller: those that reached it, `open` unless `?status=`: the ones it may quote on.',
  tag: 'Requests for quotes',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'rfqs:read',
  rateLimited: true,
  request: { query: ListRfqsQuery },
  response: { status: 200, description: 'A page of requests for quotes' },
  handlerErrors: [],
  tableActions: ['dynamodb:Query', 'dynamodb:BatchGetItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: page(Rfq),
  // An item is shown in full by GET /v1/rfqs/{id}: the page's example is the shared empty page.
  examples: { query: { status: 'open', limit: '20' }, response: { items: [], nextCursor: null } },
});

