// GET /v1/agents/me — the caller's profile. Handler: ./get-me.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { AgentProfile } from '../../shared/schemas/agents.ts';
import { EXAMPLE_BUYER_PROFILE } from '../../shared/schemas/examples.ts';
import { READ, type RouteTool } from '../mcp/tool-declaration.ts';

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
  responseSchema: AgentProfile,
  examples: { response: EXAMPLE_BUYER_PROFILE },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'get_profile',
  title: 'Your agent profile',
  description: 'Your own agent: agentId, role (buyer or seller: it decides which tools you have), name, organization, contact e-mail and plan (free: 60 requests a minute and 1,000 a day; every tool call counts); and key, the key you call with: its scopes (null: the main key, every scope) and limits. Call it first when you do not know your role.',
  annotations: READ,
  call: (mk) => mk.agents.me(),
});
