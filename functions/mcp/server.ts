// The MCP server of one agent: the MCP SDK's McpServer with the tools of the agent's role from the
// tool table (./tool-table.ts), each one SDK call with the agent's key (./tool-calls.ts). Both transports
// connect it here: POST /mcp to a stateless Streamable HTTP transport per request (./post.ts), the
// stdio server (bin/mcp.ts) to the SDK's stdio transport once per process.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Marketplace } from '../../sdk/typescript/src/index.ts';
import { SDK_VERSION } from '../../sdk/typescript/src/version.ts';
import type { Role } from '../../shared/schemas/agents.ts';
import * as z from '../../shared/schemas/zod.ts';
import { errorResult, runTool } from './tool-calls.ts';
import type { Tool } from './tool-declaration.ts';
import { TOOLS, rolesOf, toolsFor } from './tool-table.ts';

export const SERVER_INSTRUCTIONS = `Agent Marketplace: a B2B exchange where buyer and seller agents trade through these tools, with your API key.
Buyers: search_products → get_offer → start_negotiation → counter_offer / accept_terms (in turns) → place_order → follow with list_events (order.confirmed, order.shipped, order.delivered) → complete_order.
Sellers: get_feed_template → upload_feed → get_feed until completed; then answer negotiations (counter_offer, accept_terms) and fulfil orders: confirm_order → ship_order → mark_delivered.
Money: every price and amount is an integer in the minor unit of its currency (cents for USD and EUR): unitPrice 1150 in USD is $11.50.
Results: structuredContent and a JSON text block with the API's data. Errors: isError true, and the text is JSON {code, message, details, status, requestId}: validation/invalid (fix the arguments named in details), not-found, conflict (details give the record's current state), auth/forbidden (not your role or not your move), rate-limit (wait retryAfterSeconds), idempotency/conflict, internal (retry).
Changes accept an optional idempotencyKey: repeat a call with the same key after a timeout and it is not done twice.`;

/**
 * The server never asks a client for input (elicitation), the one use the SDK has for a JSON Schema
 * validator; the SDK's own, built once per process rather than by every server it would otherwise build.
 */
const NO_ELICITATION_IN_USE = new AjvJsonSchemaValidator();

const registeredArguments = new Map<Tool, z.ZodMiniObject>();

/**
 * What the SDK is given as a tool's arguments schema: any object, since the tool checks its arguments
 * itself (tool-arguments.ts), so that a mistake is answered as the API answers it (validation/invalid with
 * details by argument name) rather than in the SDK's words; and the tool's own JSON Schema as its
 * metadata, which zod's conversion (the SDK's tools/list) writes out as the schema. Built once per tool
 * and process.
 */
function registeredArgumentsOf(tool: Tool): z.ZodMiniObject {
  let schema = registeredArguments.get(tool);
  if (!schema) {
    schema = z.annotated(z.looseObject({}), { ...tool.input.schema });
    registeredArguments.set(tool, schema);
  }
  return schema;
}

export interface MarketplaceMcpServerOptions {
  /** The agent's role: its tools are listed, the other role's are refused. */
  role: Role;
  /** Our SDK's client holding the agent's key: every tool call is one call of it. */
  marketplace: Marketplace;
  /** Hears of a tool that failed with something other than an API answer (a bug). */
  onUnexpected: (error: unknown) => void;
}

/**
 * The agent's server: the tools of its role, each registered with its title, description, annotations,
 * arguments (registeredArgumentsOf) and result schema (the route's `data`: the SDK checks every
 * successful result against it, as MCP clients do).
 */
export function createMarketplaceMcpServer({ role, marketplace, onUnexpected }: MarketplaceMcpServerOptions): McpServer {
  const server = new McpServer(
    { name: 'agent-marketplace', title: 'Agent Marketplace', version: SDK_VERSION },
    { instructions: SERVER_INSTRUCTIONS, jsonSchemaValidator: NO_ELICITATION_IN_USE },
  );
  for (const tool of toolsFor(role)) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: registeredArgumentsOf(tool), outputSchema: tool.output, annotations: { title: tool.title, ...tool.annotations } },
      (args: Record<string, unknown>) => runTool(tool, marketplace, args, onUnexpected),
    );
  }
  return server;
}

/** The answer to a tools/call the agent's role has no tool for: the API's 403, or a 404 for a name no role has. */
export function refusal(name: string, role: Role): CallToolResult | undefined {
  const tool = TOOLS.find((candidate) => candidate.name === name);
  const roles = tool ? rolesOf(tool) : [];
  if (roles.includes(role)) return undefined;
  if (tool) {
    return errorResult({ code: 'auth/forbidden', message: `${name} is a tool for ${roles.join(' or ')} agents; your key is a ${role}'s (tools/list shows yours)`, details: [], status: 403 });
  }
  return errorResult({ code: 'not-found', message: `There is no tool named ${JSON.stringify(name)}; tools/list shows the tools of your role`, details: [], status: 404 });
}

/**
 * A transport that answers a tools/call for a tool outside the agent's role itself, with the API's own
 * refusal (auth/forbidden, not-found) as a tool result, and hands every other message to the server.
 * McpServer knows only the tools it lists, and would answer "Tool … not found" in its own words.
 */
class RoleGuard implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  readonly #inner: Transport;
  readonly #role: Role;

  constructor(inner: Transport, role: Role) {
    this.#inner = inner;
    this.#role = role;
  }

  start(): Promise<void> {
    this.#inner.onclose = () => this.onclose?.();
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onmessage = (message, extra) => {
      const refused = this.#refusalOf(message);
      if (refused && isJSONRPCRequest(message)) void this.#inner.send({ jsonrpc: '2.0', id: message.id, result: refused }, { relatedRequestId: message.id });
      else this.onmessage?.(message, extra);
    };
    return this.#inner.start();
  }

  send(...args: Parameters<Transport['send']>): Promise<void> {
    return this.#inner.send(...args);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** A tools/call naming a tool (params the SDK would refuse are left to it) the role has none of. */
  #refusalOf(message: JSONRPCMessage): CallToolResult | undefined {
    if (!isJSONRPCRequest(message) || message.method !== 'tools/call') return undefined;
    const name = (message.params as { name?: unknown } | undefined)?.name;
    return typeof name === 'string' ? refusal(name, this.#role) : undefined;
  }
}

/** The agent's server, connected to `transport`: calls of the other role's tools answered by the guard. */
export async function serveMarketplaceTools(transport: Transport, options: MarketplaceMcpServerOptions): Promise<McpServer> {
  const server = createMarketplaceMcpServer(options);
  await server.connect(new RoleGuard(transport, options.role));
  return server;
}
