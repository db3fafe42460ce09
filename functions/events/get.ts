// GET /v1/events/{id} — parties only; anyone else, and any event older than 30 days, gets 404.
import { getEventForCaller } from '../../shared/domain/events.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get.route.ts';

export const handler = apiHandler(route, async ({ caller, params, now }) => ({ data: await getEventForCaller(caller, params.id, now) }));
