// DELETE /v1/agents/me/keys/{keyId} — revoke a restricted key at once (main key only). Handler: ./revoke.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { KeyIdParams, RestrictedKey } from '../../shared/schemas/keys.ts';
import { EXAMPLE_RESTRICTED_KEY } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'revokeApiKey',
  method: 'DELETE',
  path: '/v1/agents/me/keys/{keyId}',
  handler: 'functions/agent-keys/revoke.ts',
  summary: 'Revoke a restricted key',
  description: 'Once this answers, every request with the key gets 401; its slot is free. Revoking again answers the revoked key. The main key is rotated instead (409).',
  tag: 'Agents',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'main',
  rateLimited: true,
  request: { params: KeyIdParams },
  response: { status: 200, description: 'The revoked key' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: RestrictedKey,
  examples: { response: { ...EXAMPLE_RESTRICTED_KEY, status: 'revoked', revokedAt: '2026-11-25T08:00:00.000Z' } },
});
