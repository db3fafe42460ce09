// The MCP server of one agent: the tools of its role (functions/mcp/tools.ts), each calling the API
// through an SDK client holding the agent's key, served by our protocol core (./protocol.ts). Both
// transports build it here: POST /mcp per request (stateless), and the stdio server (bin/mcp.ts) once
// per process.
import type { FieldProblem } from '../../shared/failures.ts';
import type { Role } from '../../shared/schemas/agents.ts';
import { MarketplaceConnectionError, MarketplaceError, type Marketplace } from '../../sdk/typescript/src/index.ts';
import { SDK_VERSION } from '../../sdk/typescript/src/version.ts';
import { ErrorCode, sdkErrorText, type CallToolResult, type McpServerDefinition, type McpTool, type ToolDescription } from './protocol.ts';
import { invalidArguments } from './tool-schemas.ts';
import { TOOLS, rolesOf, toolsFor, type Tool } from './tools.ts';
import * as z from '../../shared/schemas/zod.ts';

export const SERVER_INSTRUCTIONS = `Agent Marketplace: a B2B exchange where buyer and seller agents trade through these tools, with your API key.
Buyers: search_products → get_offer → start_negotiation → counter_offer / accept_terms (in turns) → place_order → follow with list_events (order.confirmed, order.shipped, order.delivered) → complete_order.
Sellers: get_feed_template → upload_feed → get_feed until completed; then answer negotiations (counter_offer, accept_terms) and fulfil orders: confirm_order → ship_order → mark_delivered.
Money: every price and amount is an integer in the minor unit of its currency (cents for USD and EUR): unitPrice 1150 in USD is $11.50.
Results: structuredContent and a JSON text block with the API's data. Errors: isError true, and the text is JSON {code, message, details, status, requestId}: validation/invalid (fix the arguments named in details), not-found, conflict (details give the record's current state), auth/forbidden (not your role or not your move), rate-limit (wait retryAfterSeconds), idempotency/conflict, internal (retry).
Changes accept an optional idempotencyKey: repeat a call with the same key after a timeout and it is not done twice.`;

/** The error of a tool result: the API's error (code, message, details) as JSON text. */
export interface ToolError {
  code: string;
  message: string;
  details: FieldProblem[];
  /** The HTTP status the API answered (or would have, for arguments refused before the call). */
  status: number;
  /** The API request's id, when a request was made. */
  requestId?: string;
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

const JSON_SCHEMA_DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/**
 * Each tool's tools/list entry, built on the first tools/list and kept, not at init: its JSON Schemas
 * (zod's conversion of its routes' schemas) are costly to build, and a cold start serving initialize
 * or a tools/call never reads them. The arguments' schema is the tool's own
 * (tool-schemas.ts: the tool checks its arguments itself, so that a mistake is answered as the API
 * answers it); the result's is zod's conversion of the tool's output schema, as the MCP SDK gave it.
 */
const descriptions = new Map<string, ToolDescription>();

function describe(tool: Tool): ToolDescription {
  let description = descriptions.get(tool.name);
  if (!description) {
    // Members in the order of the MCP SDK's conversion (an open object's, then the rest), so that the list is the same text as before.
    const { type, properties, additionalProperties, ...rest } = tool.input.schema;
    description = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: { $schema: JSON_SCHEMA_DRAFT_07, type, properties, additionalProperties, ...rest },
      annotations: { title: tool.title, ...tool.annotations },
      // Every tool runs at once: none runs as a task (MCP's long-running requests).
      execution: { taskSupport: 'forbidden' },
      outputSchema: z.toJSONSchema(tool.output, { target: 'draft-7', io: 'output' }),
    };
    descriptions.set(tool.name, description);
  }
  return description;
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

export interface MarketplaceMcpServerOptions {
  /** The agent's role: its tools are listed, the other role's are refused. */
  role: Role;
  /** An SDK client holding the agent's key. */
  marketplace: Marketplace;
  /** A tool failed with something other than an API answer (a bug): report it. */
  onUnexpectedError?: (error: unknown) => void;
}

/** The answer to a tools/call the agent's role has no tool for: the API's 403, or a 404 for a name no role has. */
export function refusal(name: string, role: Role): CallToolResult | undefined {
  const tool = TOOLS.find((candidate) => candidate.name === name);
  if (tool && rolesOf(tool).includes(role)) return undefined;
  if (tool) {
    const roles = rolesOf(tool).join(' or ');
    return errorResult({ code: 'auth/forbidden', message: `${name} is a tool for ${roles} agents; your key is a ${role}'s (tools/list shows yours)`, details: [], status: 403 });
  }
  return errorResult({ code: 'not-found', message: `There is no tool named ${JSON.stringify(name)}; tools/list shows the tools of your role`, details: [], status: 404 });
}

/**
 * The server of one agent: its role's tools, each one SDK call with the agent's key. A tools/call
 * for a tool outside the role is answered first, before the request is checked, with the API's own
 * refusal (auth/forbidden, not-found) as a tool result.
 */
export function createMarketplaceMcpServer(options: MarketplaceMcpServerOptions): McpServerDefinition {
  const onUnexpected = options.onUnexpectedError ?? (() => undefined);
  const tools = new Map<string, McpTool>(
    toolsFor(options.role).map((tool) => [
      tool.name,
      { describe: () => describe(tool), call: async (args) => checkedOutput(tool, await runTool(tool, options.marketplace, args, onUnexpected)) },
    ]),
  );
  return {
    serverInfo: { name: 'agent-marketplace', title: 'Agent Marketplace', version: SDK_VERSION },
    instructions: SERVER_INSTRUCTIONS,
    tools,
    refuseCall: (name) => refusal(name, options.role),
  };
}
