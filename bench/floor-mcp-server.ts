// A cold-start floor (bench/cold-start.ts): the minimal handler plus the MCP SDK's server and the
// stateless transport POST /mcp serves with (functions/mcp/post.ts), and nothing of ours, bundled as
// the functions are (ajv, zod 3 and zod-to-json-schema stubbed: lib/bundling.ts). The SDK builds its protocol schemas with classic
// zod at import: that is the least an MCP function can cost.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { documentClient } from './minimal-handler.ts';

export const mcp = [McpServer, WebStandardStreamableHTTPServerTransport];

export const handler = () => Promise.resolve({ statusCode: 204, client: documentClient });
