// POST /v1/test-helpers/orders/{id}/advance — the order's buyer only (anyone else: 404); the house seller makes each move.
import { advanceHouseOrder } from '../../shared/domain/test-helpers.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './advance-order.route.ts';

export const handler = apiHandler(route, async ({ caller, params, body, now }) => ({ data: await advanceHouseOrder(caller, params.id, body.to, now) }));
