// The MCP server of one agent: the tools of its role (functions/mcp/tools.ts), each calling the API
// through an SDK client holding the agent's key. Both transports build it here: POST /mcp per request
// (stateless), and the stdio server (bin/mcp.ts) once per process.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { FieldProblem } from '../../shared/failures.ts';
import type { Role } from '../../shared/schemas/agents.ts';
import { MarketplaceConnectionError, MarketplaceError, type Marketplace } from '../../sdk/typescript/src/index.ts';
import { SDK_VERSION } from '../../sdk/typescript/src/version.ts';
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

async function runTool(tool: Tool, marketplace: Marketplace, args: Record<string, unknown>, onUnexpected: (error: unknown) => void): Promise<CallToolResult> {
  const parsed = tool.input.parse(args);
  if (!parsed.ok) return errorResult({ code: 'validation/invalid', ...invalidArguments(parsed.problems), status: 422 });
  try {
    return dataResult(await tool.call(marketplace, parsed.value));
  } catch (error) {
    return errorResult(toolErrorOf(error, onUnexpected));
  }
}

/**
 * Every tool's registered zod schema accepts any argument object, carrying the tool's JSON Schema for
 * tools/list: the tool checks its arguments itself (routeInput), so that a mistake is answered as the
 * API answers it (validation/invalid, details by argument) rather than as the MCP library's text.
 */
const REGISTERED_ARGUMENTS = new Map(TOOLS.map((tool) => [tool.name, z.looseObject({})]));

let argumentsDescribed = false;
/**
 * Attaches each tool's JSON Schema to its registered schema, where the MCP library's tools/list reads
 * it. Done when the first tools/list arrives (ToolGuard), not at init: building them is most of what
 * the tool table costs, and a cold start serving initialize or a tools/call does not need them.
 */
function describeRegisteredArguments(): void {
  if (argumentsDescribed) return;
  for (const tool of TOOLS) z.globalRegistry.add(registeredArguments(tool), { ...tool.input.schema });
  argumentsDescribed = true;
}

function registeredArguments(tool: Tool) {
  const schema = REGISTERED_ARGUMENTS.get(tool.name);
  if (!schema) throw new Error(`${tool.name} is not in the tool table`);
  return schema;
}

/** The server never asks the client for structured input (elicitation), the only use of this validator. */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'This server does not request input from clients' }),
};

export interface MarketplaceMcpServerOptions {
  /** The agent's role: its tools are listed, the other role's are refused. */
  role: Role;
  /** An SDK client holding the agent's key. */
  marketplace: Marketplace;
  /** A tool failed with something other than an API answer (a bug): report it. */
  onUnexpectedError?: (error: unknown) => void;
}

export function createMarketplaceMcpServer(options: MarketplaceMcpServerOptions): McpServer {
  const onUnexpected = options.onUnexpectedError ?? (() => undefined);
  const server = new McpServer(
    { name: 'agent-marketplace', title: 'Agent Marketplace', version: SDK_VERSION },
    { instructions: SERVER_INSTRUCTIONS, jsonSchemaValidator: NO_ELICITATION },
  );
  for (const tool of toolsFor(options.role)) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: registeredArguments(tool), outputSchema: tool.output, annotations: { title: tool.title, ...tool.annotations } },
      (args: Record<string, unknown>) => runTool(tool, options.marketplace, args, onUnexpected),
    );
  }
  return server;
}

/** The answer to a tools/call the agent's role has no tool for: the API's 403, or a 404 for a name no role has. */
function refusal(name: string, role: Role): CallToolResult | undefined {
  const tool = TOOLS.find((candidate) => candidate.name === name);
  if (tool && rolesOf(tool).includes(role)) return undefined;
  if (tool) {
    const roles = rolesOf(tool).join(' or ');
    return errorResult({ code: 'auth/forbidden', message: `${name} is a tool for ${roles} agents; your key is a ${role}'s (tools/list shows yours)`, details: [], status: 403 });
  }
  return errorResult({ code: 'not-found', message: `There is no tool named ${JSON.stringify(name)}; tools/list shows the tools of your role`, details: [], status: 404 });
}

/**
 * Connects the server to a transport through a guard that answers a tools/call for a tool outside the
 * agent's role with the API's own refusal (auth/forbidden, not-found), as a tool result (the MCP
 * library would answer it with a bare "Tool not found" text), and describes the tools' arguments
 * before the first tools/list.
 */
export async function connectMarketplaceMcpServer(server: McpServer, transport: Transport, role: Role): Promise<void> {
  await server.connect(new ToolGuard(transport, (name) => refusal(name, role), describeRegisteredArguments));
}

class ToolGuard implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  readonly #inner: Transport;
  readonly #refuse: (name: string) => CallToolResult | undefined;
  readonly #beforeList: () => void;

  constructor(inner: Transport, refuse: (name: string) => CallToolResult | undefined, beforeList: () => void) {
    this.#inner = inner;
    this.#refuse = refuse;
    this.#beforeList = beforeList;
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    this.#inner.onclose = () => this.onclose?.();
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onmessage = (message, extra) => {
      if (isJSONRPCRequest(message) && message.method === 'tools/list') this.#beforeList();
      if (isJSONRPCRequest(message) && message.method === 'tools/call') {
        const result = this.#refuse(String((message.params as { name?: unknown } | undefined)?.name));
        if (result) {
          const response: JSONRPCMessage = { jsonrpc: '2.0', id: message.id, result };
          this.#inner.send(response, { relatedRequestId: message.id }).catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
          return;
        }
      }
      this.onmessage?.(message, extra);
    };
    return this.#inner.start();
  }

  send(...args: Parameters<Transport['send']>): Promise<void> {
    return this.#inner.send(...args);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
