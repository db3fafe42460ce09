// POST /v1/negotiate/{sessionId}/reject — either party ends an open session.
import { moveNegotiation } from '../../shared/domain/negotiations.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './reject.route.ts';

export const handler = apiHandler(route, async ({ caller, params, body, now }) => ({ data: await moveNegotiation(caller, params.sessionId, { action: 'reject', message: body?.message }, now) }));
