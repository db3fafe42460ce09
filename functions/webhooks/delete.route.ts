// DELETE /v1/webhooks/{id} — remove a subscription. Handler: ./delete.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { DeletedWebhook, WebhookIdParams } from '../../shared/schemas/webhooks.ts';
import { EXAMPLE_IDS } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'deleteWebhook',
  method: 'DELETE',
  path: '/v1/webhooks/{id}',
  handler: 'functions/webhooks/delete.ts',
  summary: 'Delete a subscription',
  description:
    'Nothing more is sent to it. Answers its id and `deleted: true`.',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'webhooks:write',
  rateLimited: true,
  request: { params: WebhookIdParams },
  response: { status: 200, description: 'The subscription is gone' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:DeleteItem', 'dynamodb:UpdateItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: DeletedWebhook,
  examples: { response: { id: EXAMPLE_IDS.webhook, deleted: true } },
});
