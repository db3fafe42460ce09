// POST /v1/agents/register — register a buyer or seller. Handler: ./register.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { AgentWithApiKey, RegisterAgentRequest } from '../../shared/schemas/agents.ts';
import { EXAMPLE_API_KEY, EXAMPLE_BUYER, EXAMPLE_BUYER_REGISTRATION } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'registerAgent',
  method: 'POST',
  path: '/v1/agents/register',
  handler: 'functions/agents/register.ts',
  summary: 'Register a buyer or seller agent (returns its API key once)',
  description:
    'The `role` never changes; the plan is free. The API key is **only in this response**: store it. Next: a seller gets a feed template (`GET /v1/seller/templates/json`); a buyer searches (`POST /v1/search-intent`).',
  tag: 'Agents',
  auth: 'public',
  roles: ANY_ROLE,
  scope: null,
  rateLimited: true,
  request: { body: RegisterAgentRequest },
  response: { status: 201, description: 'The new agent with its API key' },
  handlerErrors: [],
  tableActions: ['dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: AgentWithApiKey,
  examples: { body: EXAMPLE_BUYER_REGISTRATION, response: { ...EXAMPLE_BUYER, apiKey: EXAMPLE_API_KEY } },
});
