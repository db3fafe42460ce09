// GET /mcp — MCP clients open a server-to-client event stream here; this stateless server offers none,
// which the protocol says with 405. Handler: ./get.ts
import * as z from 'zod';
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';

export const route = defineRoute({
  operationId: 'getMcpStream',
  method: 'GET',
  path: '/mcp',
  handler: 'functions/mcp/get.ts',
  summary: 'MCP event stream: not offered (405 with Allow: POST), as the Streamable HTTP transport specifies for a stateless server',
  tag: 'MCP',
  auth: 'public',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { query: z.looseObject({}) },
  response: { status: 200, description: 'Never: always 405', schema: z.never() },
  handlerErrors: ['request/method-not-allowed'],
  tableActions: [],
});
