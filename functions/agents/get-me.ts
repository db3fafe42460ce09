// GET /v1/agents/me — the caller's profile.
import { getAgentItem, toAgent } from '../../shared/data/agents.ts';
import { errors } from '../../shared/http/errors.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { routes } from '../../shared/http/routes.ts';

export const handler = apiHandler(routes.getMyAgent, async ({ caller }) => {
  const agent = await getAgentItem(caller.agentId);
  if (!agent) throw errors.notFound('Agent not found');
  return { data: toAgent(agent) };
});
