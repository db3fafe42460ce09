// GET /v1/requests — the caller's own API requests of the last 7 days, newest first. Handler: ./list.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { page } from '../../shared/schemas/common.ts';
import { EXAMPLE_LOGGED_REQUEST, ListRequestsQuery, LoggedRequest } from '../../shared/schemas/requests.ts';

export const route = defineRoute({
  operationId: 'listRequests',
  method: 'GET',
  path: '/v1/requests',
  handler: 'functions/requests/list.ts',
  summary: 'The caller’s request log (last 7 days)',
  description:
    'Your keys’ requests, newest first, as answered: `status`, error `code`, `durationMs`, `keyId`, `Idempotency-Key`, replays (a restricted key: its own only). Never a success body or a secret. Filter by `status` (`4xx`, `422`) and `path` prefix. A request appears a moment after its response.',
  tag: 'Requests',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'any',
  rateLimited: true,
  unlogged: true,
  request: { query: ListRequestsQuery },
  response: { status: 200, description: 'A page of requests' },
  handlerErrors: [],
  tableActions: ['dynamodb:Query'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: page(LoggedRequest),
  examples: { query: { status: '4xx', path: '/v1/orders' }, response: { items: [EXAMPLE_LOGGED_REQUEST], nextCursor: null } },
});
