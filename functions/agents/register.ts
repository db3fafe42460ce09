// POST /v1/agents/register — no key; answers with the new agent and its API key, shown once.
import { registerAgent } from '../../shared/domain/agents.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './register.route.ts';

export const handler = apiHandler(route, async ({ body, now }) => {
  const { agent, apiKey } = await registerAgent(body, now);
  return { status: 201, data: { ...agent, apiKey } };
});
