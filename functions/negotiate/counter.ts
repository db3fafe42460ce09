// POST /v1/negotiate/{sessionId} — a counter-proposal by the party whose turn it is; 409 against the session's state or turn.
import { moveNegotiation } from '../../shared/domain/negotiations.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './counter.route.ts';

export const handler = apiHandler(route, async ({ caller, params, body, now }) => ({ data: await moveNegotiation(caller, params.sessionId, { action: 'counter', ...body }, now) }));
