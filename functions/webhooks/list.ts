// GET /v1/webhooks — the caller's subscriptions, newest first, cursor-paginated.
import { listOwnSubscriptions } from '../../shared/domain/webhooks.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './list.route.ts';

export const handler = apiHandler(route, async ({ caller, query }) => ({ data: await listOwnSubscriptions(caller.agentId, query.limit, query.cursor) }));
