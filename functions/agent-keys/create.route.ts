// POST /v1/agents/me/keys — create a restricted key for a program acting for the agent (main key only). Handler: ./create.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { CreateKeyRequest, RestrictedKeyWithSecret } from '../../shared/schemas/keys.ts';
import { EXAMPLE_RESTRICTED_KEY } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'createApiKey',
  method: 'POST',
  path: '/v1/agents/me/keys',
  handler: 'functions/agent-keys/create.ts',
  summary: 'Create a restricted key',
  description:
    'For a program acting for the agent: only its `scopes` (`orders:write` implies `orders:read`), never more than the role allows; buyers may add spending `limits` (one currency). `apiKey` is shown only here. At most 20 active keys (409).',
  tag: 'Agents',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'main',
  rateLimited: true,
  request: { body: CreateKeyRequest },
  response: { status: 201, description: 'The key, with its secret shown once' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: RestrictedKeyWithSecret,
  examples: {
    body: { name: EXAMPLE_RESTRICTED_KEY.name, scopes: EXAMPLE_RESTRICTED_KEY.scopes, limits: EXAMPLE_RESTRICTED_KEY.limits },
    response: { ...EXAMPLE_RESTRICTED_KEY, apiKey: 'mk_test_Rk3mQ8vT2xW7nL4pZ9cB6hJ1fD5sG0aYeUiOp2Xq' },
  },
});
