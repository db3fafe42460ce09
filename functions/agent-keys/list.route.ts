// GET /v1/agents/me/keys — the agent's keys: the main key, then its restricted keys (main key only). Handler: ./list.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { page } from '../../shared/schemas/common.ts';
import { ApiKeyListItem, ListKeysQuery } from '../../shared/schemas/keys.ts';
import { EXAMPLE_MAIN_KEY } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'listApiKeys',
  method: 'GET',
  path: '/v1/agents/me/keys',
  handler: 'functions/agent-keys/list.ts',
  summary: 'The agent’s keys',
  description:
    'The main key first (`{keyId, kind: "main"}`), then restricted keys newest first, revoked and expired ones included (`status`). Never a secret.',
  tag: 'Agents',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'main',
  rateLimited: true,
  request: { query: ListKeysQuery },
  response: { status: 200, description: 'A page of keys' },
  handlerErrors: [],
  tableActions: ['dynamodb:Query'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: page(ApiKeyListItem),
  // A restricted key is shown in full by GET …/keys/{keyId}.
  examples: { response: { items: [EXAMPLE_MAIN_KEY], nextCursor: null } },
});
