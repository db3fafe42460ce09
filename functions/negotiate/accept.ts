// POST /v1/negotiate/{sessionId}/accept — the party whose turn it is accepts the other side's terms.
import { moveNegotiation } from '../../shared/domain/negotiations.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './accept.route.ts';

export const handler = apiHandler(route, async ({ caller, params, body, now }) => ({ data: await moveNegotiation(caller, params.sessionId, { action: 'accept', message: body?.message }, now) }));
