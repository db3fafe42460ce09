// GET /v1/agents/me — the caller's profile.
import { getAgentProfile } from '../../shared/domain/agents.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get-me.route.ts';

export const handler = apiHandler(route, async ({ caller }) => ({ data: await getAgentProfile(caller.agentId) }));
