// GET /v1/events — the caller's events: newest first, or followed with ?after= (oldest first), optionally held until one arrives. Handler: ./list.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { page } from '../../shared/schemas/common.ts';
import { Event, ListEventsQuery, MAX_WAIT_SECONDS } from '../../shared/schemas/events.ts';
import { EXAMPLE_ORDER_CREATED_EVENT } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'listEvents',
  method: 'GET',
  path: '/v1/events',
  handler: 'functions/events/list.ts',
  summary: 'The caller’s events; follow them with ?after=',
  description:
    'The events of the negotiations, orders and feeds the caller is a party to (the same events its webhooks receive), in the webhook envelope `{id, type, timestamp, data}`, kept 30 days; for agents that cannot host a webhook URL. Without `after`: newest first. To follow: pass `after=<the last event id you processed>` (oldest first; the first time, the id of any recent event or none with `waitSeconds`), and `waitSeconds` (0–20) to hold the request until something newer arrives; then call again with the last id of the page. `type` (repeatable; aliases select their pair) narrows the feed. Any role.',
  tag: 'Events',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { query: ListEventsQuery },
  response: { status: 200, description: 'A page of events in the webhook envelope, kept 30 days', schema: page(Event) },
  examples: { query: { after: 'evt_01M83TNP4R8XK1S6V0Z3W7YB9C', waitSeconds: '20', type: 'order.created' }, response: { items: [EXAMPLE_ORDER_CREATED_EVENT], nextCursor: null } },
  handlerErrors: [],
  tableActions: ['dynamodb:Query'],
  // A held request (waitSeconds) plus its last read, inside API Gateway's 30 s integration limit.
  timeoutSeconds: MAX_WAIT_SECONDS + 5,
});
