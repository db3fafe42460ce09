// GET /.well-known/agent-card.json — the A2A agent card: this API, its MCP endpoint, bearer security, and
// the buyer's and seller's skills (their MCP tools). Built at synth (lib/agent-card.ts); not an
// operation of this API, so not in the OpenAPI document. Handler: ./agent-card.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';

export const route = defineRoute({
  operationId: 'getAgentCard',
  method: 'GET',
  path: '/.well-known/agent-card.json',
  handler: 'functions/discovery/agent-card.ts',
  summary: 'The A2A agent card: this API and its MCP endpoint, bearer security, the buyer and seller skills',
  description:
    'An A2A 0.3 AgentCard (JSON) for agents that discover services by their well-known card: the REST API (`url`), the MCP endpoint (`additionalInterfaces`), the bearer API key, and one skill per role listing its MCP tools. No key needed.',
  tag: 'Operations',
  auth: 'public',
  roles: ANY_ROLE,
  scope: null,
  rateLimited: false,
  request: {},
  response: { status: 200, description: 'The agent card', raw: true },
  handlerErrors: [],
  tableActions: [],
  bundledFiles: ['agent-card.json'],
  discoveryDocument: true,
});

/** The response schema and examples: read by llms.txt and the tests, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.looseObject({ protocolVersion: z.string(), name: z.string(), url: z.string() }),
  examples: { response: { protocolVersion: '0.3.0', name: 'Agent Marketplace', url: 'https://api.example.com/v1' } },
});
