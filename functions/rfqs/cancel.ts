// POST /v1/rfqs/{id}/cancel — open or closed → cancelled; the rfqDispatch worker tells the sellers.
import { cancelRfq } from '../../shared/domain/rfqs.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './cancel.route.ts';

export const handler = apiHandler(route, async ({ caller, params, body, now }) => ({ data: await cancelRfq(caller, params.id, body ?? {}, now) }));
