// POST /v1/test-helpers/orders/{id}/expire-approval — the buyer's main key only (its seller never sees such an order: 404); the decline is the expiry's.
import { expireApprovalNow } from '../../shared/domain/orders.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './expire-approval.route.ts';

export const handler = apiHandler(route, async ({ caller, params, now }) => ({ data: await expireApprovalNow(caller, params.id, now) }));
