// GET /v1/rfqs — the caller's requests for quotes (a buyer's own; a seller's received), newest first.
import { listRfqsForCaller } from '../../shared/domain/rfqs.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './list.route.ts';

export const handler = apiHandler(route, async ({ caller, query, now }) => ({ data: await listRfqsForCaller(caller, query, now) }));
