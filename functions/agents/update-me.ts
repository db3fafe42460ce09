// PATCH /v1/agents/me — name, organization and contactEmail only; role and plan are not the agent's to change.
import { updateAgentProfile } from '../../shared/data/agents.ts';
import { errors } from '../../shared/http/errors.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { routes } from '../../shared/http/routes.ts';

export const handler = apiHandler(routes.updateMyAgent, async ({ caller, body, now }) => {
  const agent = await updateAgentProfile(caller.agentId, body, now.toISOString());
  if (!agent) throw errors.notFound('Agent not found');
  return { data: agent };
});
