// POST /v1/rfqs/{id}/quotes — a seller's sealed quote, written only while the request is open.
import { submitQuote } from '../../shared/domain/rfqs.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './submit-quote.route.ts';

export const handler = apiHandler(route, async ({ caller, params, body, now }) => ({ status: 201, data: await submitQuote(caller, params.id, body, now) }));
