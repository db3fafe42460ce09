// The MCP server of one agent: its role's tools as the tool catalogue lists them, each call handed to
// a tool caller (./tool-calls.ts: the tool table and our SDK's client with the agent's key), served by
// our protocol core (./protocol.ts). Both transports build it here: POST /mcp per request (stateless,
// the catalogue read from the file built at synth, the caller loaded on the first tools/call), and the
// stdio server (bin/mcp.ts) once per process. This module stays light: POST /mcp loads it at init.
import type { FieldProblem } from '../../shared/failures.ts';
import type { Role } from '../../shared/schemas/agents.ts';
import { SDK_VERSION } from '../../sdk/typescript/src/version.ts';
import type { CallToolResult, JsonObject, McpServerDefinition, McpTool, ToolDescription } from './protocol.ts';

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

/** One tool of the catalogue: its tools/list entry and the roles it is listed for. */
export interface CataloguedTool {
  roles: readonly Role[];
  listing: ToolDescription;
}

/**
 * Every tool of the table, in table order, as tools/list shows it (./tool-catalogue.ts builds it from
 * the table): POST /mcp reads it from mcp-tools.json, built at synth, so that neither a cold start nor
 * a tools/list builds a JSON Schema or loads the table.
 */
export interface ToolCatalogue {
  tools: readonly CataloguedTool[];
}

/** Runs a tool of the caller's role by name: its result, or its error as a tool result (./tool-calls.ts). */
export type CallTool = (name: string, args: JsonObject) => Promise<CallToolResult>;

export interface MarketplaceMcpServerOptions {
  /** The agent's role: its tools are listed, the other role's are refused. */
  role: Role;
  catalogue: ToolCatalogue;
  /** Runs the tools the role may call; never given another. */
  callTool: CallTool;
}

/** The answer to a tools/call the agent's role has no tool for: the API's 403, or a 404 for a name no role has. */
export function refusal(name: string, role: Role, catalogue: ToolCatalogue): CallToolResult | undefined {
  const tool = catalogue.tools.find((candidate) => candidate.listing.name === name);
  if (tool?.roles.includes(role)) return undefined;
  if (tool) {
    const roles = tool.roles.join(' or ');
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
  const { role, catalogue, callTool } = options;
  const tools = new Map<string, McpTool>(
    catalogue.tools
      .filter((tool) => tool.roles.includes(role))
      .map(({ listing }) => [listing.name, { describe: () => listing, call: (args) => callTool(listing.name, args) }]),
  );
  return {
    serverInfo: { name: 'agent-marketplace', title: 'Agent Marketplace', version: SDK_VERSION },
    instructions: SERVER_INSTRUCTIONS,
    tools,
    refuseCall: (name) => refusal(name, role, catalogue),
  };
}
