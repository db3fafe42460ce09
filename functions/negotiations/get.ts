// GET /v1/negotiations/{sessionId} — parties only; anyone else gets 404.
import { getNegotiationForCaller } from '../../shared/domain/negotiations.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get.route.ts';

export const handler = apiHandler(route, async ({ caller, params, now }) => ({ data: await getNegotiationForCaller(caller, params.sessionId, now) }));
