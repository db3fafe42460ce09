// PATCH /v1/webhooks/{id} — change a subscription. Handler: ./update.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { UpdateWebhookRequest, WebhookIdParams, WebhookSubscription } from '../../shared/schemas/webhooks.ts';

export const route = defineRoute({
  operationId: 'updateWebhook',
  method: 'PATCH',
  path: '/v1/webhooks/{id}',
  handler: 'functions/webhooks/update.ts',
  summary: 'Change a subscription’s URL, events, secret, description or active flag',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { params: WebhookIdParams, body: UpdateWebhookRequest },
  response: { status: 200, description: 'The updated subscription', schema: WebhookSubscription },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:UpdateItem'],
});
