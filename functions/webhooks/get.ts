// GET /v1/webhooks/{id} — one of the caller's subscriptions; anyone else's is 404.
import { getOwnSubscription } from '../../shared/domain/webhooks.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get.route.ts';

export const handler = apiHandler(route, async ({ caller, params }) => ({ data: await getOwnSubscription(caller.agentId, params.id) }));
