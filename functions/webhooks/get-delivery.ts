// GET /v1/webhooks/{id}/deliveries/{deliveryId} — one delivery of the caller's own subscription, with its payload.
import { getOwnDelivery } from '../../shared/domain/webhook-deliveries.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get-delivery.route.ts';

export const handler = apiHandler(route, async ({ caller, params }) => ({ data: await getOwnDelivery(caller.agentId, params.id, params.deliveryId) }));
