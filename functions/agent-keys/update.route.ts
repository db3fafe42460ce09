// PATCH /v1/agents/me/keys/{keyId} — change a restricted key's name, scopes, limits or expiry (main key only). Handler: ./update.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { KeyIdParams, RestrictedKey, UpdateKeyRequest } from '../../shared/schemas/keys.ts';
import { EXAMPLE_RESTRICTED_KEY } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'updateApiKey',
  method: 'PATCH',
  path: '/v1/agents/me/keys/{keyId}',
  handler: 'functions/agent-keys/update.ts',
  summary: 'Change a restricted key',
  description: 'Fields sent replace the key’s (`limits` whole; `null` removes limits or expiry), from the next request on. A revoked or expired key: 409.',
  tag: 'Agents',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'main',
  rateLimited: true,
  request: { params: KeyIdParams, body: UpdateKeyRequest },
  response: { status: 200, description: 'The key after the change' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: RestrictedKey,
  examples: { body: { limits: EXAMPLE_RESTRICTED_KEY.limits, expiresAt: null }, response: EXAMPLE_RESTRICTED_KEY },
});
