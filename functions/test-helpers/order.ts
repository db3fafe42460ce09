// POST /v1/test-helpers/orders — the caller's own offers only (another's: 404); the house buyer negotiates at the offer's price and orders.
import { orderFromHouseBuyer } from '../../shared/domain/test-helpers.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './order.route.ts';

export const handler = apiHandler(route, async ({ caller, body, now }) => ({ data: await orderFromHouseBuyer(caller, body, now) }));
