// POST /v1/agents/me/rotate-key — a new key; the one used for the call stops working. Handler: ./rotate-key.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { AgentWithApiKey } from '../../shared/schemas/agents.ts';

export const route = defineRoute({
  operationId: 'rotateMyApiKey',
  method: 'POST',
  path: '/v1/agents/me/rotate-key',
  handler: 'functions/agents/rotate-key.ts',
  summary: 'Issue a new API key and revoke the current one at once',
  tag: 'Agents',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: {},
  response: { status: 200, description: 'The profile with its new API key, shown once', schema: AgentWithApiKey },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem'],
});
