// The MCP endpoint's messages (POST /mcp, MCP Streamable HTTP): JSON-RPC 2.0 as the Model Context
// Protocol uses it. Only the envelope is checked here; the MCP transport checks each message in full
// and answers a malformed one with a JSON-RPC error. Documented compactly: the protocol's own schema
// (modelcontextprotocol.io) describes every method, and tools/list describes every tool.
import * as z from './zod.ts';

const JsonRpcId = z.union([z.string().check(z.maxLength(256)), z.int()]);

// Strict at the top level like every body here (an unknown member is 422); `params` and `result` are the protocol's.
export const JsonRpcMessage = z.annotated(z.strictObject({
  jsonrpc: z.literal('2.0', { error: 'Must be "2.0" (a JSON-RPC 2.0 message)' }),
  id: z.annotated(z.optional(JsonRpcId), { description: 'On requests and their responses; absent on notifications' }),
  method: z.annotated(z.optional(z.string().check(
    z.maxLength(128),
    z.regex(/^\S+$/),
  )), { description: 'initialize, tools/list, tools/call, ping, notifications/initialized, …', example: 'tools/call' }),
  params: z.annotated(z.optional(z.looseObject({})), { description: 'For tools/call: `name` and `arguments`' }),
  result: z.annotated(z.optional(z.looseObject({})), { description: 'A client’s answer to a server request' }),
  error: z.annotated(z.optional(z.looseObject({})), { description: 'A client’s error answer to a server request' }),
}), { id: 'JsonRpcMessage', description: 'A JSON-RPC 2.0 request, notification or response (MCP)' });

export const McpRequestBody = z.annotated(
  z.union([JsonRpcMessage, z.array(JsonRpcMessage).check(z.minLength(1, 'Send at least one message'), z.maxLength(100))]),
  { id: 'McpRequestBody', description: 'One JSON-RPC message (a batch from protocol versions before 2025-06-18)' },
);

export const McpResponseBody = z.annotated(z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: z.nullable(JsonRpcId),
  result: z.annotated(z.optional(z.looseObject({})), { description: 'For tools/call: `content` (a JSON text block), `structuredContent` (the API’s data), `isError` on an API error' }),
  error: z.optional(z.object({ code: z.int(), message: z.string().check(z.maxLength(4096)), data: z.optional(z.unknown()) })),
}), { id: 'McpResponseBody', description: 'The JSON-RPC response to the request' });
