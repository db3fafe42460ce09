// POST /v1/orders/{id}/complete — complete a delivered order (its buyer; extension); wrong party 403, wrong state 409 with the current status.
import { transitionOrder } from '../../shared/domain/orders.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './complete.route.ts';

export const handler = apiHandler(route, async ({ caller, params, now }) => ({ data: await transitionOrder(caller, params.id, { action: 'complete' }, now) }));
