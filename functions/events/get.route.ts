// GET /v1/events/{id} — one event of which the caller is a party. Handler: ./get.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Event, EventIdParams } from '../../shared/schemas/events.ts';
import { EXAMPLE_ORDER_CREATED_EVENT } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'getEvent',
  method: 'GET',
  path: '/v1/events/{id}',
  handler: 'functions/events/get.ts',
  summary: 'One event (kept 30 days)',
  description:
    'By the id of its webhook delivery (`X-Marketplace-Event-Id`, `webhook-id`) or the events feed; 404 if not yours or over 30 days old.',
  tag: 'Events',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'events:read',
  rateLimited: true,
  request: { params: EventIdParams },
  response: { status: 200, description: 'The event, in the webhook envelope' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Event,
  examples: { response: EXAMPLE_ORDER_CREATED_EVENT },
});
