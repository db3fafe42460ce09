// POST /v1/test-helpers/events — a sample event of a type, to the caller's webhooks and events feed (sandbox only). Handler: ./trigger-event.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Event } from '../../shared/schemas/events.ts';
import { EXAMPLE_ORDER_CREATED_EVENT } from '../../shared/schemas/examples.ts';
import { TriggerEventRequest } from '../../shared/schemas/test-helpers.ts';

export const route = defineRoute({
  operationId: 'triggerSampleEvent',
  method: 'POST',
  path: '/v1/test-helpers/events',
  handler: 'functions/test-helpers/trigger-event.ts',
  summary: 'Send yourself a sample event of a type (sandbox)',
  description:
    'Records a sample event of `type` (any event type or alias a caller of your role receives: a buyer never gets `feed.*`) for the caller alone: its data is valid for the type’s schema, its ids are of sample records that do not exist, and `data.sample` is `true`. Your subscriptions to the type receive it signed like any delivery, and `GET /v1/events` lists it — a webhook handler exercised without a trade. The other party it names is a house agent, which ignores samples.',
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
    response: { ...EXAMPLE_ORDER_CREATED_EVENT, data: { ...EXAMPLE_ORDER_CREATED_EVENT.data, sellerId: 'agt_0000000000000000000000S001', sample: true } },
  },
});
