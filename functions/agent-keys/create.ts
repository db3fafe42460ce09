// POST /v1/agents/me/keys — a restricted key, its secret shown once.
import { createKey } from '../../shared/domain/restricted-keys.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './create.route.ts';

export const handler = apiHandler(route, async ({ caller, body, now }) => ({ status: 201, data: await createKey(caller, body, now) }));
