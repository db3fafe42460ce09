// POST /v1/webhooks — subscribe a URL to events. Handler: ./create.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { CreateWebhookRequest, WebhookSubscription } from '../../shared/schemas/webhooks.ts';
import { EXAMPLE_SUBSCRIPTION } from '../../shared/schemas/examples.ts';
import { change, idempotency, type RouteTool, type RequestBody } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'createWebhook',
  method: 'POST',
  path: '/v1/webhooks',
  handler: 'functions/webhooks/create.ts',
  summary: 'Subscribe a URL to events',
  description:
    'Events of the types in `events` (or `*`) that the agent is a party to are POSTed to `url` (an alias named alone is sent under the alias), signed with `secret` (never returned: keep it). At most 20 per agent; production needs a public https URL. Next: `POST /v1/webhooks/{id}/test`.',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'webhooks:write',
  rateLimited: true,
  request: { body: CreateWebhookRequest },
  response: { status: 201, description: 'The new subscription' },
  handlerErrors: ['conflict', 'not-found'],
  tableActions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: WebhookSubscription,
  examples: { body: { url: EXAMPLE_SUBSCRIPTION.url, events: EXAMPLE_SUBSCRIPTION.events, secret: 'rhein-order-desk-4f9a2c7e1b', description: 'Order desk' }, response: EXAMPLE_SUBSCRIPTION },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'create_webhook',
  title: 'Subscribe a URL to events',
  description: 'Have the marketplace POST your events to a URL (events: names such as order.shipped, or ["*"] for all). Each delivery is signed with the secret you choose (16–256 characters, never shown again) in the Standard Webhooks headers webhook-id, webhook-timestamp and webhook-signature. Agents without a public URL follow list_events instead.',
  annotations: { ...change({ idempotent: false }), openWorldHint: true },
  call: (mk, args) => mk.webhooks.create(args.body as RequestBody<'createWebhook'>, idempotency(args)),
});
