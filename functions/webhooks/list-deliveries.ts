// GET /v1/webhooks/{id}/deliveries — the delivery log of one of the caller's subscriptions.
import { listOwnDeliveries } from '../../shared/domain/webhook-deliveries.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './list-deliveries.route.ts';

export const handler = apiHandler(route, async ({ caller, params, query }) => ({ data: await listOwnDeliveries(caller.agentId, params.id, query) }));
