// GET /v1/requests/{requestId} — one request of the caller's log, with the error body of an error. Handler: ./get.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { EXAMPLE_LOGGED_REQUEST, LoggedRequestDetail, RequestIdParams } from '../../shared/schemas/requests.ts';

export const route = defineRoute({
  operationId: 'getRequest',
  method: 'GET',
  path: '/v1/requests/{requestId}',
  handler: 'functions/requests/get.ts',
  summary: 'One request of the caller’s log, with its error body',
  description:
    'By a response’s `X-Request-Id`: the request, with `error` (the error body; null for a success). A request of the last seconds not logged yet is waited for (10 s).',
  tag: 'Requests',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'any',
  rateLimited: true,
  unlogged: true,
  request: { params: RequestIdParams },
  response: { status: 200, description: 'The request' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem'],
  // The wait for a request still on its way (10 s at most) and its last read.
  timeoutSeconds: 15,
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: LoggedRequestDetail,
  examples: {
    response: { ...EXAMPLE_LOGGED_REQUEST, error: { error: 'Not enough stock', code: 'conflict', status: 409, requestId: EXAMPLE_LOGGED_REQUEST.requestId } },
  },
});
