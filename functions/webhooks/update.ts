// PATCH /v1/webhooks/{id} — change URL, events, secret, description or active.
import { updateSubscription, toSubscription } from '../../shared/data/webhook-subscriptions.ts';
import { assertDeliverableUrl } from '../../shared/domain/webhooks.ts';
import { errors } from '../../shared/http/errors.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { routes } from '../../shared/http/routes.ts';

export const handler = apiHandler(routes.updateWebhook, async ({ caller, params, body, now }) => {
  if (body.url !== undefined) await assertDeliverableUrl(body.url);
  const item = await updateSubscription(caller.agentId, params.id, body, now.toISOString());
  if (!item) throw errors.notFound(`Webhook subscription ${params.id} not found`);
  return { data: toSubscription(item) };
});
