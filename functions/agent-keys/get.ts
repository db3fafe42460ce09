// GET /v1/agents/me/keys/{keyId} — one key, never its secret.
import { getKey } from '../../shared/domain/restricted-keys.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get.route.ts';

export const handler = apiHandler(route, async ({ caller, params, now }) => ({ data: await getKey(caller, params.keyId, now) }));
