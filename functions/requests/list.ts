// GET /v1/requests — the caller's request log, newest first, from its own partition; this read is not logged itself.
import { listRequestsForCaller } from '../../shared/domain/request-log.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './list.route.ts';

export const handler = apiHandler(route, async ({ caller, query, now }) => ({ data: await listRequestsForCaller(caller, query, now) }));
