// POST /v1/webhooks — subscribe a URL to events; at most 20 per agent.
import { subscribe } from '../../shared/domain/webhooks.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './create.route.ts';

export const handler = apiHandler(route, async ({ caller, body, now }) => ({ status: 201, data: await subscribe(caller.agentId, body, now) }));
