// PATCH /v1/agents/me/keys/{keyId} — new name, scopes, limits or expiry, from the next request on.
import { changeKey } from '../../shared/domain/restricted-keys.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './update.route.ts';

export const handler = apiHandler(route, async ({ caller, params, body, now }) => ({ data: await changeKey(caller, params.keyId, body, now) }));
