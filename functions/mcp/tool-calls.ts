// A tool call: the table's tool (./tool-table.ts) checks its arguments and makes its one SDK call with the
// agent's key; its data, or its error (the API's, or the arguments'), as a tool result.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MarketplaceConnectionError, MarketplaceError, type Marketplace } from '../../sdk/typescript/src/index.ts';
import type { FieldProblem } from '../../shared/failures.ts';
import { invalidArguments } from './tool-arguments.ts';
import type { Tool } from './tool-declaration.ts';

/** The error of a tool result: the API's error (code, message, details) as JSON text. */
export interface ToolError {
  code: string;
  message: string;
  details: FieldProblem[];
  /** The HTTP status the API answered (or would have, for arguments refused before the call). */
  status: number;
  /**
   * The API request's id; for an error answered before any API request (arguments refused, a tool of
   * another role, no answer), the id of the MCP request that carried the call (POST /mcp's
   * X-Request-Id), or one made for it over stdio: every error names a request to quote.
   */
  requestId: string;
  retryAfterSeconds?: number;
}

export function errorResult(error: ToolError): CallToolResult {
  // No structuredContent: MCP clients check it against the tool's outputSchema, which describes success.
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(error) }] };
}

function dataResult(data: unknown): CallToolResult {
  // The SDK's records as they are: their extras (lastResponse, nextPage) are not enumerable, so neither
  // JSON nor the output schema's check sees them.
  return { structuredContent: data as Record<string, unknown>, content: [{ type: 'text', text: JSON.stringify(data) }] };
}

/** What a failed SDK call becomes: the API's answer as it was, or no answer at all. */
function toolErrorOf(error: unknown, onUnexpected: (error: unknown) => void, requestId: () => string): ToolError {
  if (error instanceof MarketplaceError) {
    return {
      code: error.code,
      message: error.message,
      details: error.details,
      status: error.status,
      requestId: error.requestId ?? requestId(),
      ...(error.retryAfterSeconds !== null ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    };
  }
  if (error instanceof MarketplaceConnectionError) {
    return { code: 'internal', message: `The marketplace API did not answer (${error.message}); call again, with the same idempotencyKey for a change`, details: [], status: 503, requestId: requestId() };
  }
  onUnexpected(error);
  return { code: 'internal', message: 'The tool failed unexpectedly; call again, with the same idempotencyKey for a change', details: [], status: 500, requestId: requestId() };
}

/** Checks a tool's arguments and calls it: its data, or its error (the API's, or the arguments'), as a tool result. */
export async function runTool(
  tool: Tool,
  marketplace: Marketplace,
  args: Record<string, unknown>,
  context: { onUnexpected: (error: unknown) => void; requestId: () => string },
): Promise<CallToolResult> {
  const parsed = tool.input.parse(args);
  if (!parsed.ok) return errorResult({ code: 'validation/invalid', ...invalidArguments(parsed.problems), status: 422, requestId: context.requestId() });
  try {
    return dataResult(await tool.call(marketplace, parsed.value));
  } catch (error) {
    return errorResult(toolErrorOf(error, context.onUnexpected, context.requestId));
  }
}
