// POST /v1/agents/register — register a buyer or seller. Handler: ./register.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { AgentWithApiKey, RegisterAgentRequest } from '../../shared/schemas/agents.ts';

export const route = defineRoute({
  operationId: 'registerAgent',
  method: 'POST',
  path: '/v1/agents/register',
  handler: 'functions/agents/register.ts',
  summary: 'Register a buyer or seller agent; the response holds its API key, shown once',
  tag: 'Agents',
  auth: 'public',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { body: RegisterAgentRequest },
  response: { status: 201, description: 'The new agent with its API key', schema: AgentWithApiKey },
  handlerErrors: [],
  tableActions: ['dynamodb:PutItem'],
});
