// PATCH /v1/agents/me — name, organization and contactEmail only; role and plan are not the agent's to change.
import { updateProfile } from '../../shared/domain/agents.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './update-me.route.ts';

export const handler = apiHandler(route, async ({ caller, body, now }) => ({ data: await updateProfile(caller.agentId, body, now) }));
