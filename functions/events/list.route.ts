// GET /v1/events — the caller's events: newest first, or followed with ?after= (oldest first), optionally held until one arrives. Handler: ./list.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { page } from '../../shared/schemas/common.ts';
import { Event, ListEventsQuery, MAX_WAIT_SECONDS } from '../../shared/schemas/events.ts';
import { firstPage, PAGED, READ, type RouteTool, type QueryParams } from '../mcp/tool-declaration.ts';

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

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'list_events',
  title: 'List or follow your events',
  description: `What happened to your negotiations, orders and feeds, as {id, type, timestamp, data} (order.created, order.confirmed, order.shipped, negotiation.counter, feed.completed, …). Without after: newest first. To follow along: pass after = the id of the last event you handled and waitSeconds (up to 20) — the call returns as soon as something new happens (oldest first), or empty when the wait is over; then call again with after = the last id you received. ${PAGED}`,
  annotations: READ,
  call: (mk, args) => firstPage(mk.events.list(args.query as QueryParams<'listEvents'>)),
});
