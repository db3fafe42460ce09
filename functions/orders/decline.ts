// POST /v1/orders/{id}/decline — awaiting_approval → declined; stock and spend released, order.declined to the buyer.
import { transitionOrder } from '../../shared/domain/orders.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './decline.route.ts';

export const handler = apiHandler(route, async ({ caller, params, body, now }) => ({ data: await transitionOrder(caller, params.id, { action: 'decline', reason: body?.reason }, now) }));
