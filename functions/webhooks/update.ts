// PATCH /v1/webhooks/{id} — change URL, events, secret, description or active.
import { changeSubscription } from '../../shared/domain/webhooks.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './update.route.ts';

export const handler = apiHandler(route, async ({ caller, params, body, now }) => ({ data: await changeSubscription(caller.agentId, params.id, body, now) }));
