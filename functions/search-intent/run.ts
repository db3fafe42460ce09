// POST /v1/search-intent — reads the intent, searches as understood, returns the interpretation.
import { searchIntent } from '../../shared/domain/search.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './run.route.ts';

export const handler = apiHandler(route, async ({ caller, body, now }) => ({ data: await searchIntent(caller.agentId, body, now) }));
