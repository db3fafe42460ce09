// POST /v1/agents/me/rotate-key — a new key, shown once; the key used for this call stops working.
import { rotateOwnKey } from '../../shared/domain/agents.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './rotate-key.route.ts';

export const handler = apiHandler(route, async ({ caller, now }) => {
  const { agent, apiKey } = await rotateOwnKey(caller.agentId, caller.apiKeyHash, now);
  return { data: { ...agent, apiKey } };
});
