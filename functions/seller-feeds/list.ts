// GET /v1/seller/feeds — the caller's feeds, newest first, cursor-paginated.
import { listOwnFeeds } from '../../shared/domain/feeds.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './list.route.ts';

export const handler = apiHandler(route, async ({ caller, query }) => ({ data: await listOwnFeeds(caller.agentId, query) }));
