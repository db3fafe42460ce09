// POST /v1/agents/me/rotate-key — a new key, shown once; the key used for this call stops working.
import { rotateAgentKey } from '../../shared/domain/agents.ts';
import { errors } from '../../shared/http/errors.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { routes } from '../../shared/http/routes.ts';

export const handler = apiHandler(routes.rotateMyApiKey, async ({ caller, now }) => {
  const rotated = await rotateAgentKey(caller.agentId, now);
  if (!rotated) throw errors.notFound('Agent not found');
  return { data: { ...rotated.agent, apiKey: rotated.apiKey } };
});
