// GET /v1/products/{id} — what the caller may see of a product and its offers.
import { getProductForCaller } from '../../shared/domain/catalog.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get.route.ts';

export const handler = apiHandler(route, async ({ caller, params }) => ({ data: await getProductForCaller(caller.agentId, params.id) }));
