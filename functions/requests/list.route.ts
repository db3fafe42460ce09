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
    'Every request the caller’s keys made, newest first, as the API answered it: method, path, status, error `code`, `durationMs`, the `keyId` that sent it, its `Idempotency-Key` and whether the answer was a replay. Never a body of a success and never a secret. Filter with `status` (`4xx`, `5xx`, or `422`) and a `path` prefix; read one with its error body at `GET /v1/requests/{requestId}` (the `X-Request-Id` of a response). A request shows up a moment after its response (the log is written off the request’s path); reads of the log itself are not logged.',
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
