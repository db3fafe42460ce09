// POST /v1/test-helpers/events — a sample event of a type, to the caller's webhooks and events feed (sandbox only). Handler: ./trigger-event.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Event } from '../../shared/schemas/events.ts';
import { EXAMPLE_ORDER_CREATED_EVENT } from '../../shared/schemas/examples.ts';
import { TriggerEventRequest } from '../../shared/schemas/test-helpers.ts';
import { change, idempotency, type RequestBody, type RouteTool } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'triggerSampleEvent',
  method: 'POST',
  path: '/v1/test-helpers/events',
  handler: 'functions/test-helpers/trigger-event.ts',
  summary: 'Send yourself a sample event of a type (sandbox)',
  description:
    'A sample event of `type` (a type your role receives) for you alone: valid data with ids of no real records and `data.sample: true`, to your webhooks and `GET /v1/events`, signed like any delivery.',
  tag: 'Test helpers',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'events:read',
  stages: ['test'],
  rateLimited: true,
  request: { body: TriggerEventRequest },
  response: { status: 201, description: 'The sample event, as the events feed shows it' },
  handlerErrors: [],
  tableActions: ['dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Event,
  examples: {
    body: { type: 'order.created' },
    response: EXAMPLE_ORDER_CREATED_EVENT,
  },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): listed for test keys only (its route exists in the sandbox alone). */
export const mcpTool = (): RouteTool => ({
  name: 'trigger_event',
  title: 'Send yourself a sample event (sandbox)',
  description:
    'Sandbox only: a sample event of type (order.shipped, negotiation.counter, feed.completed, … a type your role receives) for you alone, to your webhooks and list_events, signed like any delivery: valid data with ids of no real records and data.sample true. Use it to test your webhook handler or your event loop. Answers the event as list_events shows it.',
  annotations: change({ idempotent: false }),
  call: (mk, args) => mk.testHelpers.triggerEvent((args.body as RequestBody<'triggerSampleEvent'>).type, idempotency(args)),
});
