// The MCP endpoint's messages (POST /mcp, MCP Streamable HTTP): JSON-RPC 2.0 as the Model Context
// Protocol uses it. Only the envelope is checked here; the MCP transport checks each message in full
// and answers a malformed one with a JSON-RPC error.
import * as z from 'zod';

const JsonRpcId = z.union([z.string(), z.int()]);

export const JsonRpcMessage = z
  .looseObject({
    jsonrpc: z.literal('2.0', { error: 'Must be "2.0" (a JSON-RPC 2.0 message)' }),
    id: JsonRpcId.optional().meta({ description: 'Present on requests (and their responses); absent on notifications' }),
    method: z.string().optional().meta({ description: 'initialize, tools/list, tools/call, ping, notifications/initialized, …', example: 'tools/call' }),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'JsonRpcMessage', description: 'A JSON-RPC 2.0 request, notification or response of the Model Context Protocol' });

export const McpRequestBody = z
  .union([JsonRpcMessage, z.array(JsonRpcMessage).min(1, 'Send at least one message')])
  .meta({ id: 'McpRequestBody', description: 'One JSON-RPC message (or, from clients of protocol versions before 2025-06-18, a batch)' });

export const McpResponseBody = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcId.nullable(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .meta({ id: 'McpResponseBody', description: 'The JSON-RPC response to the request (notifications are answered 202 with no body)' });
