// POST /v1/rfqs — a buyer's request for quotes; its sellers are found and told by the rfqDispatch worker.
import { createRfq } from '../../shared/domain/rfqs.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './create.route.ts';

export const handler = apiHandler(route, async ({ caller, body, now }) => ({ status: 201, data: await createRfq(caller, body, now) }));
