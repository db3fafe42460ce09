// GET /v1/orders — the caller's orders as buyer or seller, newest first, cursor-paginated.
import { listOrdersForCaller } from '../../shared/domain/orders.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './list.route.ts';

export const handler = apiHandler(route, async ({ caller, query }) => ({ data: await listOrdersForCaller(caller, query) }));
