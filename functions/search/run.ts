// POST /v1/search — structured search over this instance's copy of the index.
import { searchCatalog } from '../../shared/domain/search.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './run.route.ts';

export const handler = apiHandler(route, async ({ caller, body, now }) => ({ data: await searchCatalog(caller.agentId, body, now) }));
