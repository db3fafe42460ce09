// POST /v1/negotiate — a buyer opens a session on an offer; 404 for an unknown, withdrawn or expired offer, 422 for a quantity outside the offer's limits.
import { startNegotiation } from '../../shared/domain/negotiations.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './start.route.ts';

export const handler = apiHandler(route, async ({ caller, body, now }) => ({ status: 201, data: await startNegotiation(caller.agentId, body, now) }));
