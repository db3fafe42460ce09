// POST /v1/orders/{id}/confirm — confirm a pending order (its seller; extension); wrong party 403, wrong state 409 with the current status.
import { transitionOrder } from '../../shared/domain/orders.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './confirm.route.ts';

export const handler = apiHandler(route, async ({ caller, params, now }) => ({ data: await transitionOrder(caller, params.id, { action: 'confirm' }, now) }));
