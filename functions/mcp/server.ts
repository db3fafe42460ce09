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
import * as z from '../../shared/schemas/zod.ts';
import { errorResult, runTool } from './tool-calls.ts';
import type { Tool } from './tool-declaration.ts';
import type * as ToolTableModule from './tool-table.ts';
import type { ToolCaller } from './tool-table.ts';

/** The tool table's module: every tool, and the rules of who may call which. */
type ToolTable = typeof ToolTableModule;
let toolTable: Promise<ToolTable> | undefined;

/**
 * The tool table, imported when a request first needs it (a tools/list or a tools/call), once per
 * process: importing it evaluates every route module a tool calls, most of what POST /mcp's init cost
 * beyond the MCP SDK, and an initialize, a ping or a notification needs none of it
 * (docs/decisions/mcp-lazy-tool-table.md). esbuild keeps it in the one bundle, initialized on import().
 */
export const loadToolTable = (): Promise<ToolTable> => (toolTable ??= import('./tool-table.ts'));

export const SERVER_INSTRUCTIONS = `Agent Marketplace: a B2B exchange where buyer and seller agents trade through these tools, with your API key.
Buyers: search_products → get_offer → start_negotiation → counter_offer / accept_terms (in turns) → preview_order → place_order → follow with list_events (order.confirmed, order.shipped, order.delivered) → complete_order.
Sellers: get_feed_template → upload_feed → get_feed until completed; then answer negotiations (counter_offer, accept_terms) and fulfil orders: confirm_order → ship_order → mark_delivered.
Requests for quotes: a buyer asks many sellers at once with request_quotes, compares the quotes with list_rfqs {rfqId}, award_quote → place_order {sessionId}; a seller finds the RFQs sent to it with list_rfqs and answers with submit_quote.
Money: every price and amount is an integer in the minor unit of its currency (cents for USD and EUR): unitPrice 1150 in USD is $11.50.
Ids: arguments take the names results give them (orderId, offerId, productId, sessionId, feedId, webhookId, rfqId, quoteId).
Results: structuredContent and a JSON text block with the API's data; search results are compact unless fields is full. Errors: isError true, and the text is JSON {code, message, details, status, requestId} (quote requestId when asking for help): validation/invalid (fix the arguments named in details), not-found, conflict (details give the record's current state), auth/forbidden (not your role or not your move), auth/insufficient-scope (your key lacks the scope in details, or the tool is the main key's: ask the key's owner), spending-limit (over a limit of your key: details name it and what is left; order less or ask the owner), rate-limit (wait retryAfterSeconds), idempotency/conflict, internal (retry).
An order over your key's approvalAbove is created awaiting_approval: it waits for the owner's main key (approve_order, decline_order); follow it with get_order or list_events (order.created once approved, order.declined otherwise).
Changes accept an optional idempotencyKey: repeat a call with the same key after a timeout and it is not done twice.`;

/**
 * The server never asks a client for input (elicitation), the one use the SDK has for a JSON Schema
 * validator; the SDK's own, built once per process rather than by every server it would otherwise build.
 */
const NO_ELICITATION_IN_USE = new AjvJsonSchemaValidator();

/** The keywords of a tool's argument or result schema that tools/list writes out (`$schema` left out: MCP says which JSON Schema). */
const LISTED_KEYWORDS = ['type', 'properties', 'required', 'additionalProperties', 'definitions', '$schema'] as const;

/**
 * A schema for the SDK that accepts any object and that tools/list writes out as `json()`: zod's
 * conversion (the SDK's tools/list) lays a schema's metadata over what it generates, so the metadata
 * here is `json()`'s keywords, read only when a tools/list is answered (a request that initializes or
 * calls a tool never builds a tool's JSON Schema).
 */
function listedAs(json: () => Record<string, unknown>): z.ZodMiniObject {
  const metadata = {};
  for (const keyword of LISTED_KEYWORDS) Object.defineProperty(metadata, keyword, { enumerable: true, get: () => json()[keyword] });
  return z.annotated(z.looseObject({}), metadata);
}

interface RegisteredSchemas {
  input: z.ZodMiniObject;
  output: z.ZodMiniObject;
}
const registeredSchemas = new Map<Tool, RegisteredSchemas>();

/**
 * What the SDK is given as a tool's schemas, built once per tool and process. Arguments: any object,
 * since the tool checks its arguments itself (tool-arguments.ts), so that a mistake is answered as the
 * API answers it (validation/invalid with details by argument name) rather than in the SDK's words,
 * listed as the tool's own JSON Schema. Result: any object too (the API's data is what the API
 * answered), listed as the tool's compact result schema (tool-results.ts), against which MCP clients
 * check every structuredContent.
 */
function registeredSchemasOf(tool: Tool): RegisteredSchemas {
  let schemas = registeredSchemas.get(tool);
  if (!schemas) {
    schemas = { input: listedAs(() => tool.input.schema as unknown as Record<string, unknown>), output: listedAs(() => tool.output.schema) };
    registeredSchemas.set(tool, schemas);
  }
  return schemas;
}

export interface MarketplaceMcpServerOptions {
  /** The key's agent's role, the key's scopes and environment: the tools it may call are listed, others refused. */
  caller: ToolCaller;
  /** Our SDK's client holding the agent's key: every tool call is one call of it. */
  marketplace: Marketplace;
  /** Hears of a tool that failed with something other than an API answer (a bug). */
  onUnexpected: (error: unknown) => void;
  /** The id an error answered without an API request names: POST /mcp's own request id; over stdio, a new one each time. */
  requestId: () => string;
}

/**
 * The agent's server: the tools its key may call (from `table`), each registered with its title,
 * description, annotations, arguments and result schema (registeredSchemasOf). Without the table (a
 * request that lists or calls no tool), the server still declares its tools capability, as it would
 * with them, so that an initialize is answered the same either way.
 */
export function createMarketplaceMcpServer({ caller, marketplace, onUnexpected, requestId }: MarketplaceMcpServerOptions, table: ToolTable | undefined): McpServer {
  const server = new McpServer(
    { name: 'agent-marketplace', title: 'Agent Marketplace', version: SDK_VERSION },
    { instructions: SERVER_INSTRUCTIONS, jsonSchemaValidator: NO_ELICITATION_IN_USE },
  );
  if (!table) {
    server.server.registerCapabilities({ tools: { listChanged: true } });
    return server;
  }
  for (const tool of table.toolsFor(caller)) {
    const schemas = registeredSchemasOf(tool);
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: schemas.input, outputSchema: schemas.output, annotations: tool.annotations },
      (args: Record<string, unknown>) => runTool(tool, marketplace, args, { onUnexpected, requestId }),
    );
  }
  return server;
}

/** The answer to a tools/call of a tool the key may not call (or that does not exist): the API's refusal, with a request id. */
export function refusal(table: ToolTable, name: string, caller: ToolCaller, requestId: () => string): CallToolResult | undefined {
  const refused = table.refusalOf(table.toolNamed(name), name, caller);
  return refused && errorResult({ ...refused, requestId: requestId() });
}

/**
 * A transport that answers a tools/call for a tool the key may not call itself, with the API's own
 * refusal (not-found, auth/forbidden, auth/insufficient-scope) as a tool result, and hands every other
 * message to the server. McpServer knows only the tools it lists, and would answer "Tool … not found"
 * in its own words.
 */
class ToolGuard implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  readonly #inner: Transport;
  readonly #caller: ToolCaller;
  readonly #requestId: () => string;
  readonly #table: ToolTable | undefined;

  constructor(inner: Transport, caller: ToolCaller, requestId: () => string, table: ToolTable | undefined) {
    this.#inner = inner;
    this.#caller = caller;
    this.#requestId = requestId;
    this.#table = table;
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

  /** A tools/call naming a tool (params the SDK would refuse are left to it) the key may not call. */
  #refusalOf(message: JSONRPCMessage): CallToolResult | undefined {
    if (!isJSONRPCRequest(message) || message.method !== 'tools/call') return undefined;
    const name = (message.params as { name?: unknown } | undefined)?.name;
    // Without the table no tool is registered: a tools/call reaching this server (none does: the table is loaded for every tools/ request) is the SDK's to refuse.
    return typeof name === 'string' && this.#table ? refusal(this.#table, name, this.#caller, this.#requestId) : undefined;
  }
}

/**
 * The agent's server, connected to `transport`: calls of tools the key may not call answered by the
 * guard. `withTools: false` (POST /mcp, for a request that lists or calls no tool) leaves the tool
 * table unloaded.
 */
export async function serveMarketplaceTools(transport: Transport, options: MarketplaceMcpServerOptions & { withTools?: boolean }): Promise<McpServer> {
  const table = options.withTools === false ? undefined : await loadToolTable();
  const server = createMarketplaceMcpServer(options, table);
  await server.connect(new ToolGuard(transport, options.caller, options.requestId, table));
  return server;
}
