// A tool call by name: the table's tool (./tools.ts) checks its arguments and makes its one SDK call
// with the agent's key; its data, or its error (the API's, or the arguments'), as a tool result.
// POST /mcp loads this module on its first tools/call, as a bundle of its own beside the function's
// (its row's bundledFiles: mcp-tool-calls), so that a cold start — and initialize and tools/list,
// answered from the catalogue — never loads the table, its 29 route rows and their schemas
// (docs/decisions/mcp-deferred-tool-table.md). The stdio server imports it as it is.
import { MarketplaceConnectionError, MarketplaceError, type Marketplace } from '../../sdk/typescript/src/index.ts';
import { ErrorCode, sdkErrorText, type CallToolResult } from './protocol.ts';
import { errorResult, type CallTool, type ToolError } from './server.ts';
import { invalidArguments } from './tool-schemas.ts';
import { TOOLS, type Tool } from './tools.ts';

/** The SDK's client, for POST /mcp to build with the agent's key once this module is loaded. */
export { Marketplace } from '../../sdk/typescript/src/index.ts';

function dataResult(data: unknown): CallToolResult {
  // The SDK's records as they are: their extras (lastResponse, nextPage) are not enumerable, so neither
  // JSON nor the output schema's check sees them.
  return { structuredContent: data as Record<string, unknown>, content: [{ type: 'text', text: JSON.stringify(data) }] };
}

/** What a failed SDK call becomes: the API's answer as it was, or no answer at all. */
function toolErrorOf(error: unknown, onUnexpected: (error: unknown) => void): ToolError {
  if (error instanceof MarketplaceError) {
    return {
      code: error.code,
      message: error.message,
      details: error.details,
      status: error.status,
      ...(error.requestId ? { requestId: error.requestId } : {}),
      ...(error.retryAfterSeconds !== null ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    };
  }
  if (error instanceof MarketplaceConnectionError) {
    return { code: 'internal', message: `The marketplace API did not answer (${error.message}); call again, with the same idempotencyKey for a change`, details: [], status: 503 };
  }
  onUnexpected(error);
  return { code: 'internal', message: 'The tool failed unexpectedly; call again, with the same idempotencyKey for a change', details: [], status: 500 };
}

/** Checks a tool's arguments and calls it: its data, or its error (the API's, or the arguments'), as a tool result. */
export async function runTool(tool: Tool, marketplace: Marketplace, args: Record<string, unknown>, onUnexpected: (error: unknown) => void): Promise<CallToolResult> {
  const parsed = tool.input.parse(args);
  if (!parsed.ok) return errorResult({ code: 'validation/invalid', ...invalidArguments(parsed.problems), status: 422 });
  try {
    return dataResult(await tool.call(marketplace, parsed.value));
  } catch (error) {
    return errorResult(toolErrorOf(error, onUnexpected));
  }
}

/** zod's issues as one text, each with its dot path, as the MCP SDK writes them. */
function issuesText(issues: readonly { message: string; path: readonly PropertyKey[] }[]): string {
  const dotPath = (path: readonly PropertyKey[]) => path.reduce<string>((text, segment, index) => (index === 0 ? String(segment) : typeof segment === 'number' ? `${text}[${segment}]` : `${text}.${String(segment)}`), '');
  return issues.map((issue) => (issue.path.length > 0 ? `${issue.message} at ${dotPath(issue.path)}` : issue.message)).join('\n');
}

/**
 * A successful result whose structuredContent does not fit the tool's output schema (an API answer
 * the tool table does not describe) fails the call, as the MCP SDK failed it, rather than reaching a
 * client that would refuse it against the listed schema.
 */
async function checkedOutput(tool: Tool, result: CallToolResult): Promise<CallToolResult> {
  if (result.isError) return result;
  const fail = (message: string) => new Error(sdkErrorText(ErrorCode.InvalidParams, `Output validation error: ${message}`));
  if (!result.structuredContent) throw fail(`Tool ${tool.name} has an output schema but no structured content was provided`);
  const parsed = await tool.output.safeParseAsync(result.structuredContent);
  if (!parsed.success) throw fail(`Invalid structured content for tool ${tool.name}: ${issuesText(parsed.error.issues)}`);
  return result;
}

const TOOLS_BY_NAME: ReadonlyMap<string, Tool> = new Map(TOOLS.map((tool) => [tool.name, tool]));

/**
 * Calls the table's tools through `marketplace` (an SDK client holding the agent's key). The server
 * hands it only the names its catalogue lists for the agent's role; `onUnexpected` hears of a tool
 * that failed with something other than an API answer (a bug).
 */
export function toolCaller(marketplace: Marketplace, onUnexpected: (error: unknown) => void = () => undefined): CallTool {
  return async (name, args) => {
    const tool = TOOLS_BY_NAME.get(name);
    // Only if the catalogue and the table were built from different code: answered as the SDK answers a throw.
    if (!tool) throw new Error(`The tool table has no tool named ${name}`);
    return checkedOutput(tool, await runTool(tool, marketplace, args, onUnexpected));
  };
}
