// DELETE /v1/webhooks/{id} — remove a subscription and free its slot.
import { deleteSubscription } from '../../shared/data/webhook-subscriptions.ts';
import { errors } from '../../shared/http/errors.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { routes } from '../../shared/http/routes.ts';

export const handler = apiHandler(routes.deleteWebhook, async ({ caller, params }) => {
  if (!(await deleteSubscription(caller.agentId, params.id))) {
    throw errors.notFound(`Webhook subscription ${params.id} not found`);
  }
  return { data: { id: params.id, deleted: true as const } };
});
