// GET /v1/agents/me — the caller's profile and the key it called with.
import { getCallerProfile } from '../../shared/domain/agents.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get-me.route.ts';

export const handler = apiHandler(route, async ({ caller }) => ({ data: await getCallerProfile(caller) }));
