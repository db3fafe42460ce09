// GET /v1/agents/me — the caller's profile. Handler: ./get-me.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Agent } from '../../shared/schemas/agents.ts';
import { EXAMPLE_UPDATED_BUYER } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'getMyAgent',
  method: 'GET',
  path: '/v1/agents/me',
  handler: 'functions/agents/get-me.ts',
  summary: "The calling agent's profile",
  description:
    '`agentId` is the agent’s `buyerId` or `sellerId` on sessions and orders.',
  tag: 'Agents',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'any',
  rateLimited: true,
  request: {},
  response: { status: 200, description: 'The profile' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Agent,
  examples: { response: EXAMPLE_UPDATED_BUYER },
});
