// The Model Context Protocol for a server of tools, as our own small code: JSON-RPC 2.0 messages, the
// lifecycle (initialize, ping), tools/list and tools/call, and the Streamable HTTP rules of a stateless
// server answering in JSON. Both transports use it: POST /mcp (answerHttp) and the stdio server
// (bin/mcp.ts, McpSession). It answers as the MCP SDK's McpServer with its stateless
// WebStandardStreamableHTTPServerTransport did (@modelcontextprotocol/sdk 1.32.2;
// test/unit/mcp-protocol.test.ts holds it to that), without the SDK's ~200 protocol schemas, which
// classic zod built at every cold start: no schema is built here, messages are checked with plain code.
import { paramsFit, paramsProblem } from './request-params.ts';

export const LATEST_PROTOCOL_VERSION = '2025-11-25';
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [LATEST_PROTOCOL_VERSION, '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

/** JSON-RPC's error codes, and the SDK's own (-32000) for what the HTTP transport refuses. */
export const ErrorCode = { ParseError: -32700, InvalidRequest: -32600, MethodNotFound: -32601, InvalidParams: -32602, InternalError: -32603, TransportRefusal: -32000 } as const;

/** A JSON-RPC batch holds at most this many messages (the SDK's limit). */
const MAX_BATCH_SIZE = 100;
const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

export type JsonObject = Record<string, unknown>;
export type JsonRpcId = string | number;
export interface JsonRpcRequest { jsonrpc: '2.0'; id: JsonRpcId; method: string; params?: JsonObject }
export interface JsonRpcNotification { jsonrpc: '2.0'; method: string; params?: JsonObject }
export interface JsonRpcResultResponse { jsonrpc: '2.0'; id: JsonRpcId; result: object }
export interface JsonRpcErrorResponse { jsonrpc: '2.0'; id?: JsonRpcId | null; error: { code: number; message: string; data?: unknown } }
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** MCP tool annotations: hints a client may show or act on (never a security boundary). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface TextContent { type: 'text'; text: string }
export interface CallToolResult { content: TextContent[]; structuredContent?: JsonObject; isError?: boolean }

/** A tool as tools/list shows it. */
export interface ToolDescription {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  execution?: { taskSupport: 'forbidden' | 'optional' | 'required' };
}

export interface McpTool {
  /** Its entry in tools/list: read on tools/list only, so that a cold start serving anything else builds no JSON Schema. */
  describe(): ToolDescription;
  /** Runs the tool; a throw is answered as an `isError` result with the error's message, as the SDK does. */
  call(args: JsonObject): Promise<CallToolResult>;
}

export interface McpServerDefinition {
  serverInfo: { name: string; title?: string; version: string };
  instructions?: string;
  /** The tools by name, in the order tools/list gives them. */
  tools: ReadonlyMap<string, McpTool>;
  /** The server's first say on a tools/call, before the request is checked: a refusal as a tool result, or nothing. */
  refuseCall?(name: string): CallToolResult | undefined;
}

// Messages: what the SDK's JSONRPCMessageSchema accepts, checked with plain code.

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is JsonRpcId => typeof value === 'string' || Number.isSafeInteger(value);
const absentOr = (value: unknown, check: (value: unknown) => boolean): boolean => value === undefined || check(value);
/** A request or notification has exactly these members, or fewer (the SDK's schemas are strict). */
const hasOnly = (value: JsonObject, names: readonly string[]): boolean => Object.keys(value).every((name) => names.includes(name));

/** `_meta` of params or a result: a progress token, a related task. */
function isMeta(value: unknown): boolean {
  if (!isObject(value)) return false;
  const task = value[RELATED_TASK_META_KEY];
  return absentOr(value.progressToken, isId) && absentOr(task, (related) => isObject(related) && typeof related.taskId === 'string');
}

const isParams = (value: unknown): boolean => isObject(value) && absentOr(value._meta, isMeta);

const REQUEST_MEMBERS = ['jsonrpc', 'id', 'method', 'params'];
const NOTIFICATION_MEMBERS = ['jsonrpc', 'method', 'params'];
const RESULT_MEMBERS = ['jsonrpc', 'id', 'result'];
const ERROR_MEMBERS = ['jsonrpc', 'id', 'error'];

const isRequestMessage = (value: JsonObject): boolean => hasOnly(value, REQUEST_MEMBERS) && isId(value.id) && typeof value.method === 'string' && absentOr(value.params, isParams);
const isNotificationMessage = (value: JsonObject): boolean => hasOnly(value, NOTIFICATION_MEMBERS) && typeof value.method === 'string' && absentOr(value.params, isParams);
const isResultMessage = (value: JsonObject): boolean => hasOnly(value, RESULT_MEMBERS) && isId(value.id) && isObject(value.result) && absentOr(value.result._meta, isMeta);
const isErrorMessage = (value: JsonObject): boolean =>
  hasOnly(value, ERROR_MEMBERS) && absentOr(value.id, isId) && isObject(value.error) && Number.isSafeInteger(value.error.code) && typeof value.error.message === 'string';

/** The value as a JSON-RPC message, or undefined for anything else (answered as a parse error). */
export function parseMessage(value: unknown): JsonRpcMessage | undefined {
  if (!isObject(value) || value.jsonrpc !== '2.0') return undefined;
  const valid = isRequestMessage(value) || isNotificationMessage(value) || isResultMessage(value) || isErrorMessage(value);
  return valid ? (value as unknown as JsonRpcMessage) : undefined;
}

const isRequest = (message: JsonRpcMessage): message is JsonRpcRequest => 'method' in message && 'id' in message;
const isNotification = (message: JsonRpcMessage): message is JsonRpcNotification => 'method' in message && !('id' in message);

/** An initialize whose params are whole: the HTTP transport lets it through without a protocol version header. */
const isInitializeRequest = (message: JsonRpcMessage): boolean =>
  'method' in message && message.method === 'initialize' && paramsFit('initialize', message.params);

// Requests: the lifecycle and the tools.

// Members in the order the SDK wrote them (a refusal's are in its own), so that an answer is the same text as before.
const resultOf = (id: JsonRpcId, result: object): JsonRpcResultResponse => ({ result, jsonrpc: '2.0', id });
const errorOf = (id: JsonRpcId, code: number, message: string): JsonRpcErrorResponse => ({ jsonrpc: '2.0', id, error: { code, message } });

/** An McpError's message, as the SDK writes it (and answers it in a tool result). */
export const sdkErrorText = (code: number, message: string): string => `MCP error ${code}: ${message}`;

/** A tool's failure as the SDK answers it: an `isError` result carrying the message. */
const toolFailure = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/** The version the server speaks: the client's, if supported, else the latest (the client then decides). */
const negotiatedVersion = (requested: unknown): string =>
  typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;

/** A request that asks for a task (params.task): this server runs none, which the SDK says before anything else. */
function asksForTask(params: JsonObject | undefined): boolean {
  const task = params?.task;
  return isObject(task) && absentOr(task.ttl, (ttl) => typeof ttl === 'number');
}

type Handler = (server: McpServerDefinition, request: JsonRpcRequest) => object | Promise<object>;

const HANDLERS: Readonly<Record<string, Handler>> = {
  initialize: (server, request) => ({
    protocolVersion: negotiatedVersion(request.params?.protocolVersion),
    // What the SDK's McpServer declares for a server with tools (it never sends list_changed here).
    capabilities: { tools: { listChanged: true } },
    serverInfo: server.serverInfo,
    ...(server.instructions ? { instructions: server.instructions } : {}),
  }),
  ping: () => ({}),
  'tools/list': (server) => ({ tools: [...server.tools.values()].map((tool) => tool.describe()) }),
  'tools/call': (server, request) => callTool(server, request.params as { name: string; arguments?: JsonObject }),
};

/** A tool's result as the SDK's schema gave it: its members only, in the schema's order. */
const resultMembers = ({ content, structuredContent, isError }: CallToolResult): CallToolResult => ({
  content,
  ...(structuredContent === undefined ? {} : { structuredContent }),
  ...(isError === undefined ? {} : { isError }),
});

async function callTool(server: McpServerDefinition, params: { name: string; arguments?: JsonObject }): Promise<CallToolResult> {
  const tool = server.tools.get(params.name);
  // What the SDK answers in the tool result (McpError's text) rather than as a JSON-RPC error.
  if (!tool) return toolFailure(sdkErrorText(ErrorCode.InvalidParams, `Tool ${params.name} not found`));
  try {
    return resultMembers(await tool.call(params.arguments ?? {}));
  } catch (error) {
    return toolFailure(error instanceof Error ? error.message : String(error));
  }
}

async function answerRequest(server: McpServerDefinition, request: JsonRpcRequest): Promise<JsonRpcResponse> {
  if (request.method === 'tools/call' && server.refuseCall) {
    const refusal = server.refuseCall(String(request.params?.name));
    if (refusal) return { jsonrpc: '2.0', id: request.id, result: refusal };
  }
  const handler = Object.hasOwn(HANDLERS, request.method) ? HANDLERS[request.method] : undefined;
  if (!handler) return errorOf(request.id, ErrorCode.MethodNotFound, 'Method not found');
  // The SDK's own wording and code (a plain Error there, so InternalError).
  if (asksForTask(request.params)) return errorOf(request.id, ErrorCode.InternalError, `Server does not support task creation (required for ${request.method})`);
  const problem = paramsProblem(request);
  if (problem !== undefined) return errorOf(request.id, ErrorCode.InternalError, problem);
  try {
    return resultOf(request.id, await handler(server, request));
  } catch (error) {
    return errorOf(request.id, ErrorCode.InternalError, error instanceof Error ? error.message : 'Internal error');
  }
}

/** The id a notifications/cancelled names, when its params are whole (a falsy id cancels nothing, as in the SDK). */
function cancelledId(notification: JsonRpcNotification): JsonRpcId | undefined {
  const params = notification.params;
  if (!isObject(params) || !absentOr(params.requestId, isId) || !absentOr(params.reason, (reason) => typeof reason === 'string')) return undefined;
  return (params.requestId as JsonRpcId | undefined) || undefined;
}

/**
 * One connection's messages: a stdio process's, or one POST's. Requests are answered, concurrently;
 * a notifications/cancelled drops the answer of a request still running; notifications and the
 * client's responses are otherwise accepted and ignored.
 */
export class McpSession {
  readonly #server: McpServerDefinition;
  readonly #running = new Map<JsonRpcId, AbortController>();

  constructor(server: McpServerDefinition) {
    this.#server = server;
  }

  /** The answer to a message: a response to a request (unless it was cancelled), nothing otherwise. */
  async receive(message: JsonRpcMessage): Promise<JsonRpcResponse | undefined> {
    if (isNotification(message)) {
      if (message.method === 'notifications/cancelled') this.#cancel(message);
      return undefined;
    }
    if (!isRequest(message)) return undefined;
    const controller = new AbortController();
    this.#running.set(message.id, controller);
    try {
      const response = await answerRequest(this.#server, message);
      return controller.signal.aborted ? undefined : response;
    } finally {
      if (this.#running.get(message.id) === controller) this.#running.delete(message.id);
    }
  }

  /** Drops the answers of every running request (the connection is closing). */
  close(): void {
    for (const controller of this.#running.values()) controller.abort();
    this.#running.clear();
  }

  #cancel(notification: JsonRpcNotification): void {
    const id = cancelledId(notification);
    if (id !== undefined) this.#running.get(id)?.abort();
  }
}

// Streamable HTTP, stateless, JSON answers.

/** The request headers the protocol reads, as received (undefined when absent). */
export interface HttpRequestHeaders {
  accept?: string | undefined;
  contentType?: string | undefined;
  protocolVersion?: string | undefined;
}

export interface HttpAnswer {
  status: number;
  /** The JSON body: one response, or an array of several (a batch); none for 202. */
  body?: JsonRpcResponse | JsonRpcResponse[];
  contentType?: 'application/json';
}

/** A refusal of the whole POST: a JSON-RPC error without an id. */
const httpRefusal = (status: number, code: number, message: string): HttpAnswer => ({
  status,
  body: { jsonrpc: '2.0', error: { code, message }, id: null },
  contentType: 'application/json',
});

/** A header value as the Fetch API's Headers holds it: leading and trailing HTTP whitespace removed. */
const headerValue = (value: string | undefined): string | undefined => value?.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');

/**
 * Whether the client takes a JSON answer. Answers are always JSON (a Lambda answers once, so never a
 * stream): a client that accepts JSON, or anything (`*\/*`), or says nothing, is served, though the
 * protocol asks it to accept text/event-stream as well.
 */
function acceptsJson(accept: string | undefined): boolean {
  const value = headerValue(accept) ?? '';
  return value === '' || /application\/json|\*\/\*/.test(value);
}

async function answerMessages(server: McpServerDefinition, messages: readonly JsonRpcMessage[]): Promise<HttpAnswer> {
  const session = new McpSession(server);
  const answers = await Promise.all(messages.map((message) => session.receive(message)));
  if (!messages.some(isRequest)) return { status: 202 };
  // One response per id, in the order of the requests: a batch that repeats an id (which JSON-RPC
  // forbids) gets the answer to the first request with it.
  const responses = new Map<JsonRpcId, JsonRpcResponse>();
  messages.forEach((message, index) => {
    const answer = answers[index];
    if (isRequest(message) && answer && !responses.has(message.id)) responses.set(message.id, answer);
  });
  const answered = [...responses.values()];
  // Every request of the POST cancelled by a notification in it: nothing to answer (the SDK never answered).
  if (answered.length === 0) return { status: 202 };
  return { status: 200, body: answered.length === 1 ? answered[0] : answered, contentType: 'application/json' };
}

/**
 * The answer to one POST of Streamable HTTP: `body` is the parsed JSON (a message or a batch), undefined
 * for none. The checks run in the SDK's order: Accept (406), Content-Type (415), the messages (400), the
 * protocol version header (400, but not on initialize); then 202 for notifications and responses, or
 * the JSON answer to the requests.
 */
export async function answerHttp(server: McpServerDefinition, body: unknown, headers: HttpRequestHeaders): Promise<HttpAnswer> {
  if (!acceptsJson(headers.accept)) return httpRefusal(406, ErrorCode.TransportRefusal, 'Not Acceptable: Client must accept both application/json and text/event-stream');
  if (!isJsonContentType(headerValue(headers.contentType))) return httpRefusal(415, ErrorCode.TransportRefusal, 'Unsupported Media Type: Content-Type must be application/json');
  if (body === undefined) return httpRefusal(400, ErrorCode.ParseError, 'Parse error: Invalid JSON');
  if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) return httpRefusal(400, ErrorCode.InvalidRequest, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
  const messages = (Array.isArray(body) ? body : [body]).map(parseMessage);
  if (!messages.every((message) => message !== undefined)) return httpRefusal(400, ErrorCode.ParseError, 'Parse error: Invalid JSON-RPC message');
  const initializing = messages.some(isInitializeRequest);
  if (initializing && messages.length > 1) return httpRefusal(400, ErrorCode.InvalidRequest, 'Invalid Request: Only one initialization request is allowed');
  const version = headerValue(headers.protocolVersion);
  if (!initializing && version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    const supported = SUPPORTED_PROTOCOL_VERSIONS.join(', ');
    return httpRefusal(400, ErrorCode.TransportRefusal, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${supported})`);
  }
  return answerMessages(server, messages);
}

// Content-Type: its media type as RFC 9110 (the `content-type` package, which the SDK uses) parses it.

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const TYPE = new RegExp(`^${TOKEN}/${TOKEN}$`);
// A parameter: `; name=value`, the value a token or a quoted string.
const PARAMETER = new RegExp(`; *(${TOKEN}) *= *("(?:[\\u000b\\u0020\\u0021\\u0023-\\u005b\\u005d-\\u007e\\u0080-\\u00ff]|\\\\[\\u000b\\u0020-\\u00ff])*"|${TOKEN}) *`, 'y');

/** Whether the parameters after the media type (from the first `;`) are well formed, as the `content-type` package requires. */
function wellFormedParameters(rest: string): boolean {
  PARAMETER.lastIndex = 0;
  while (PARAMETER.lastIndex < rest.length) if (!PARAMETER.exec(rest)) return false;
  return true;
}

/**
 * Whether a Content-Type is application/json (parameters such as charset ignored), exactly as the
 * SDK decides: the media type parsed by the `content-type` package, or, when its parameters are
 * malformed, the part before the first `;`, unless a comma follows (two headers joined).
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const semicolon = header.indexOf(';');
  const type = (semicolon === -1 ? header : header.slice(0, semicolon)).trim();
  const parsed = TYPE.test(type) && (semicolon === -1 || wellFormedParameters(header.slice(semicolon)));
  if (parsed) return type.toLowerCase() === 'application/json';
  const essence = type.toLowerCase();
  if (essence === '' || header.slice(essence.length).includes(',')) return false;
  return essence === 'application/json';
}
