// POST /v1/webhooks/{id}/test — a webhook.test delivery to one of the caller's subscriptions.
import { sendTestEvent } from '../../shared/domain/webhook-deliveries.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './test.route.ts';

export const handler = apiHandler(route, async ({ caller, params, now }) => ({ status: 202, data: await sendTestEvent(caller.agentId, params.id, now) }));
