// PATCH /v1/agents/me — change name, organization or contact e-mail. Handler: ./update-me.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { Agent, UpdateAgentRequest } from '../../shared/schemas/agents.ts';

export const route = defineRoute({
  operationId: 'updateMyAgent',
  method: 'PATCH',
  path: '/v1/agents/me',
  handler: 'functions/agents/update-me.ts',
  summary: "Change the calling agent's name, organization or contact e-mail",
  tag: 'Agents',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { body: UpdateAgentRequest },
  response: { status: 200, description: 'The updated profile', schema: Agent },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:UpdateItem'],
});
