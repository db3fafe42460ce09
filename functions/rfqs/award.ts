// POST /v1/rfqs/{id}/award — the quote becomes an accepted negotiation session; rfq.awarded to the winner, rfq.closed to the others (rfqDispatch worker).
import { awardQuote } from '../../shared/domain/rfqs.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './award.route.ts';

export const handler = apiHandler(route, async ({ caller, params, body, now }) => ({ data: await awardQuote(caller, params.id, body, now) }));
