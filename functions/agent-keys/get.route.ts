// GET /v1/agents/me/keys/{keyId} — one of the agent's keys (main key only). Handler: ./get.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { ApiKeyListItem, KeyIdParams } from '../../shared/schemas/keys.ts';
import { EXAMPLE_RESTRICTED_KEY } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'getApiKey',
  method: 'GET',
  path: '/v1/agents/me/keys/{keyId}',
  handler: 'functions/agent-keys/get.ts',
  summary: 'One of the agent’s keys',
  description: 'A restricted key with its scopes, limits, status and `lastUsedAt`; the main key’s id gives `{keyId, kind: "main"}`.',
  tag: 'Agents',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'main',
  rateLimited: true,
  request: { params: KeyIdParams },
  response: { status: 200, description: 'The key (no secret)' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: ApiKeyListItem,
  examples: { response: EXAMPLE_RESTRICTED_KEY },
});
