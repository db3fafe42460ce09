// POST /mcp — the Model Context Protocol over Streamable HTTP (stateless, JSON responses): the agent's
// tools, each a call of this API with the agent's own key. Handler: ./post.ts
import { ANY_ROLE, MULTIPART_OVERHEAD_BYTES, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { INLINE_FEED_MAX_BYTES } from '../../shared/schemas/catalog.ts';
import { MAX_WAIT_SECONDS } from '../../shared/schemas/events.ts';
import { McpRequestBody, McpResponseBody } from '../../shared/schemas/mcp.ts';

export const route = defineRoute({
  operationId: 'postMcpMessage',
  method: 'POST',
  path: '/mcp',
  handler: 'functions/mcp/post.ts',
  summary: 'MCP server: your role’s tools over Streamable HTTP',
  description:
    'Stateless Streamable HTTP, JSON answers (or the SDK’s `agent-marketplace-mcp` bin over stdio). `tools/list` gives the tools your key may call; each `tools/call` is one call of this API with your key: `structuredContent` and a JSON text block, or `isError`.',
  tag: 'MCP',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'any',
  rateLimited: true,
  request: { body: McpRequestBody },
  response: { status: 200, description: 'The JSON-RPC response', raw: true },
  handlerErrors: [],
  // The tools call the API over HTTP: the function itself touches no table or bucket.
  tableActions: [],
  callsApi: true,
  // A web page of another site is refused (403) before its key is looked up (MCP's DNS-rebinding defence).
  checksOrigin: true,
  // upload_feed carries an inline feed file (up to 5 MiB) inside its JSON-RPC message.
  maxBodyBytes: INLINE_FEED_MAX_BYTES + MULTIPART_OVERHEAD_BYTES,
  // list_events may wait up to 20 s for an event; its API call and the answer fit in the rest.
  timeoutSeconds: MAX_WAIT_SECONDS + 8,
  // The MCP SDK's server brings classic zod, zod-to-json-schema and ajv (for elicitation, which this
  // server never uses): 884 kB with the first tool table, 1,106 kB with every route's tool, the request
  // log and requests for quotes (docs/decisions/mcp-sdk-server.md).
  bundleBudgetKb: 1200,
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: McpResponseBody,
  examples: {
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_products', arguments: { intent: '500 nitrile gloves under 0.15 EUR each' } } },
    response: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '{"items":[…],"nextCursor":null}' }], structuredContent: { items: [], nextCursor: null } } },
  },
  protocolResponses: [
    { status: 202, description: 'A notification (a message without an `id`) or a client’s response: accepted, no body' },
    {
      status: 403,
      description: 'A web page’s `Origin` (locally, also a `Host` not a loopback name) this server does not allow, refused before the key is read (DNS-rebinding protection): a JSON-RPC error, `id` null',
      schema: McpResponseBody,
      example: { jsonrpc: '2.0', error: { code: -32000, message: 'Invalid Origin header: https://evil.example' }, id: null },
    },
    {
      status: 400,
      description: 'A message the MCP transport refuses (not valid JSON-RPC): a JSON-RPC error, `id` null',
      schema: McpResponseBody,
      example: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' }, id: null },
    },
  ],
});
