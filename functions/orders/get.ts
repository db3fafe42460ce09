// GET /v1/orders/{id} — parties only; anyone else gets 404.
import { getOrderForCaller } from '../../shared/domain/orders.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get.route.ts';

export const handler = apiHandler(route, async ({ caller, params }) => ({ data: await getOrderForCaller(caller, params.id) }));
