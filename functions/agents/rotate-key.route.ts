// POST /v1/agents/me/rotate-key — a new key; the one used for the call stops working. Handler: ./rotate-key.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { AgentWithApiKey } from '../../shared/schemas/agents.ts';
import { EXAMPLE_BUYER } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'rotateMyApiKey',
  method: 'POST',
  path: '/v1/agents/me/rotate-key',
  handler: 'functions/agents/rotate-key.ts',
  summary: 'Issue a new API key and revoke the current one at once',
  description:
    'Revokes the key used for this call (cached copies may work 30 s more); the new key is only in this response. No body. A lost key: ask an operator.',
  tag: 'Agents',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'main',
  rateLimited: true,
  request: {},
  response: { status: 200, description: 'The profile with its new API key, shown once' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: AgentWithApiKey,
  examples: { response: { ...EXAMPLE_BUYER, apiKeyPrefix: 'mk_test_Qw7r', apiKey: 'mk_test_Qw7rT2nZ8kLp4Xc9Vb6Nm3Hs1Jd5Fg0AeYuRi7Wx', updatedAt: '2026-11-23T09:40:00.000Z' } },
});
