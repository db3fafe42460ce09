// POST /v1/orders/{id}/approve — awaiting_approval → pending; order.created to both parties.
import { transitionOrder } from '../../shared/domain/orders.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './approve.route.ts';

export const handler = apiHandler(route, async ({ caller, params, now }) => ({ data: await transitionOrder(caller, params.id, { action: 'approve' }, now) }));
