// GET /v1/seller/feeds/{id} — one of the caller's feeds.
import { getOwnFeed } from '../../shared/domain/feeds.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get.route.ts';

export const handler = apiHandler(route, async ({ caller, params }) => ({ data: await getOwnFeed(caller.agentId, params.id) }));
