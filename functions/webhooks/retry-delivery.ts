// POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry — a manual attempt, queued now.
import { retryOwnDelivery } from '../../shared/domain/webhook-deliveries.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './retry-delivery.route.ts';

export const handler = apiHandler(route, async ({ caller, params, now }) => ({ status: 202, data: await retryOwnDelivery(caller.agentId, params.id, params.deliveryId, now) }));
