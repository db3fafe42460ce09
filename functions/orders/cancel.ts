// POST /v1/orders/{id}/cancel — cancel a pending or confirmed order (either party); its quantity goes back to the product; wrong party 403, wrong state 409 with the current status.
import { transitionOrder } from '../../shared/domain/orders.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './cancel.route.ts';

export const handler = apiHandler(route, async ({ caller, params, body, now }) => ({ data: await transitionOrder(caller, params.id, { action: 'cancel', reason: body?.reason }, now) }));
