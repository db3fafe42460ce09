// GET /v1/webhooks/{id} — one of the caller's subscriptions; anyone else's is 404.
import { getSubscription, toSubscription } from '../../shared/data/webhook-subscriptions.ts';
import { errors } from '../../shared/http/errors.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { routes } from '../../shared/http/routes.ts';

export const handler = apiHandler(routes.getWebhook, async ({ caller, params }) => {
  const item = await getSubscription(caller.agentId, params.id);
  if (!item) throw errors.notFound(`Webhook subscription ${params.id} not found`);
  return { data: toSubscription(item) };
});
