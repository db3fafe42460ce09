// POST /v1/orders/{id}/ship — mark a confirmed order shipped, with carrier and tracking number (its seller; extension); wrong party 403, wrong state 409 with the current status.
import { transitionOrder } from '../../shared/domain/orders.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './ship.route.ts';

export const handler = apiHandler(route, async ({ caller, params, body, now }) => ({ data: await transitionOrder(caller, params.id, { action: 'ship', ...body }, now) }));
