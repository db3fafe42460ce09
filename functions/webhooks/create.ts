// POST /v1/webhooks — subscribe a URL to events; at most 20 per agent.
import { createSubscription, toSubscription } from '../../shared/data/webhook-subscriptions.ts';
import { assertDeliverableUrl } from '../../shared/domain/webhooks.ts';
import { errors } from '../../shared/http/errors.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { routes } from '../../shared/http/routes.ts';
import { newId } from '../../shared/ids.ts';
import { MAX_SUBSCRIPTIONS_PER_AGENT } from '../../shared/schemas/webhooks.ts';

export const handler = apiHandler(routes.createWebhook, async ({ caller, body, now }) => {
  await assertDeliverableUrl(body.url);
  const timestamp = now.toISOString();
  const item = {
    id: newId('webhook'),
    agentId: caller.agentId,
    url: body.url,
    events: body.events,
    secret: body.secret,
    description: body.description ?? null,
    active: true,
    createdAt: timestamp,
    updatedAt: timestamp,
  };
  const outcome = await createSubscription(item);
  if (!outcome.created) {
    if (outcome.reason === 'no-agent') throw errors.notFound('Agent not found');
    throw errors.conflict(`An agent may have at most ${MAX_SUBSCRIPTIONS_PER_AGENT} webhook subscriptions; delete one first`, [
      { path: 'subscriptions', message: `${MAX_SUBSCRIPTIONS_PER_AGENT} of ${MAX_SUBSCRIPTIONS_PER_AGENT} in use` },
    ]);
  }
  return { status: 201, data: toSubscription(item) };
});
