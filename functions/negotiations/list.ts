// GET /v1/negotiations — the caller's sessions (as buyer or as seller), newest first, cursor-paginated.
import { listNegotiationsForCaller } from '../../shared/domain/negotiations.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './list.route.ts';

export const handler = apiHandler(route, async ({ caller, query, now }) => ({ data: await listNegotiationsForCaller(caller, query, now) }));
