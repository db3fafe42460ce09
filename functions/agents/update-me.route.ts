// PATCH /v1/agents/me — change name, organization or contact e-mail. Handler: ./update-me.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Agent, UpdateAgentRequest } from '../../shared/schemas/agents.ts';
import { EXAMPLE_UPDATED_BUYER } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'updateMyAgent',
  method: 'PATCH',
  path: '/v1/agents/me',
  handler: 'functions/agents/update-me.ts',
  summary: 'Change the agent’s name, organization or e-mail',
  description:
    'Send at least one field; the others keep their values. Role, plan and key cannot change here.',
  tag: 'Agents',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'main',
  rateLimited: true,
  request: { body: UpdateAgentRequest },
  response: { status: 200, description: 'The updated profile' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:UpdateItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Agent,
  examples: { body: { contactEmail: 'buying@acme.example' }, response: EXAMPLE_UPDATED_BUYER },
});
