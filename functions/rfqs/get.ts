// GET /v1/rfqs/{id} — one request for quotes as the caller may see it (404 to anyone it is not for).
import { getRfqForCaller } from '../../shared/domain/rfqs.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get.route.ts';

export const handler = apiHandler(route, async ({ caller, params, now }) => ({ data: await getRfqForCaller(caller, params.id, now) }));
