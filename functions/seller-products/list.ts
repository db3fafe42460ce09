// GET /v1/seller/products — the caller's own catalog.
import { listOwnProducts } from '../../shared/domain/catalog.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './list.route.ts';

export const handler = apiHandler(route, async ({ caller, query }) => ({ data: await listOwnProducts(caller.agentId, query) }));
