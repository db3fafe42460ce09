// GET /v1/agents/me/keys — the main key, then the restricted keys, newest first.
import { listKeys } from '../../shared/domain/restricted-keys.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './list.route.ts';

export const handler = apiHandler(route, async ({ caller, query, now }) => ({ data: await listKeys(caller, query, now) }));
