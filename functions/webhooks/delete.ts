// DELETE /v1/webhooks/{id} — remove a subscription and free its slot.
import { unsubscribe } from '../../shared/domain/webhooks.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './delete.route.ts';

export const handler = apiHandler(route, async ({ caller, params }) => ({ data: await unsubscribe(caller.agentId, params.id) }));
