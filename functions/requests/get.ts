// GET /v1/requests/{requestId} — the caller's partition only: another agent's request is simply not found.
import { getRequestForCaller } from '../../shared/domain/request-log.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get.route.ts';

export const handler = apiHandler(route, async ({ caller, params, now }) => ({ data: await getRequestForCaller(caller, params.requestId, now) }));
