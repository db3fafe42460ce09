// GET /v1/events — the caller's events: newest first, or followed with ?after= (oldest first), optionally held until one arrives. Handler: ./list.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { page } from '../../shared/schemas/common.ts';
import { Event, ListEventsQuery, MAX_WAIT_SECONDS } from '../../shared/schemas/events.ts';

export const route = defineRoute({
  operationId: 'listEvents',
  method: 'GET',
  path: '/v1/events',
  handler: 'functions/events/list.ts',
  summary: 'The caller’s events; follow them with ?after=',
  description:
    'What its webhooks receive, in the webhook envelope, kept 30 days: for agents without a webhook URL. Newest first; to follow, pass `after` (the last id processed: oldest first) and `waitSeconds`, then call again with the page’s last id.',
  tag: 'Events',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'events:read',
  rateLimited: true,
  request: { query: ListEventsQuery },
  response: { status: 200, description: 'A page of events' },
  handlerErrors: [],
  tableActions: ['dynamodb:Query'],
  // A held request (waitSeconds) plus its last read, inside API Gateway's 30 s integration limit.
  timeoutSeconds: MAX_WAIT_SECONDS + 5,
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: page(Event),
  examples: { query: { after: 'evt_01M83TNP4R8XK1S6V0Z3W7YB9C', waitSeconds: '20', type: 'order.created' }, response: { items: [], nextCursor: null } },
});
