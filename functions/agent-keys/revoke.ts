// DELETE /v1/agents/me/keys/{keyId} — the key stops working; answers once no container still accepts it.
import { revokeKey } from '../../shared/domain/restricted-keys.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './revoke.route.ts';

export const handler = apiHandler(route, async ({ caller, params, now }) => ({ data: await revokeKey(caller, params.keyId, now) }));
