// POST /v1/create-order — the buyer of an accepted session orders it; 409 when it is not accepted, already ordered, or the stock is short; 403 over the key's limits. A dry run answers 200 and writes nothing.
import { createOrder } from '../../shared/domain/orders.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './run.route.ts';

export const handler = apiHandler(route, async ({ caller, body, now }) => ({ status: body.dryRun ? 200 : 201, data: await createOrder(caller, body, now) }));
