// GET /mcp — MCP clients open a server-to-client event stream here; this stateless server offers none,
// which the protocol says with 405. Handler: ./get.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';

export const route = defineRoute({
  operationId: 'getMcpStream',
  method: 'GET',
  path: '/mcp',
  handler: 'functions/mcp/get.ts',
  summary: 'MCP event stream: not offered (405)',
  description:
    'Always 405 (`Allow: POST`): this stateless server opens no event stream, which MCP clients accept. Use `POST /mcp`.',
  tag: 'MCP',
  auth: 'public',
  roles: ANY_ROLE,
  scope: null,
  rateLimited: true,
  request: { query: z.looseObject({}) },
  response: { status: 200, description: 'Never sent: always 405' },
  handlerErrors: ['method-not-allowed'],
  tableActions: [],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.null(),
  examples: { response: null },
});
