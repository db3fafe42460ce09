// POST /v1/orders/{id}/deliver — mark a shipped order delivered (its seller; extension); wrong party 403, wrong state 409 with the current status.
import { transitionOrder } from '../../shared/domain/orders.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './deliver.route.ts';

export const handler = apiHandler(route, async ({ caller, params, now }) => ({ data: await transitionOrder(caller, params.id, { action: 'deliver' }, now) }));
