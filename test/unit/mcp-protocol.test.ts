// Our MCP protocol core (functions/mcp/protocol.ts) against the MCP SDK's server it replaced: every
// message of a corpus answered by both, the SDK's built as POST /mcp built it before (McpServer, the
// stateless WebStandardStreamableHTTPServerTransport answering JSON, the guard answering refusals
// first, post.ts's Accept rule), and the status, content type and body compared (the same JSON text,
// members in the same order). Tool calls that reach the API get canned answers from the Marketplace
// client's `fetch` (the e2e suite makes real ones).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isJsonContentType as sdkIsJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION as SDK_LATEST,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS as SDK_SUPPORTED,
  type CallToolResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { routeDocument as getMyAgentDocument } from '../../functions/agents/get-me.route.ts';
import { routeDocument as getOrderDocument } from '../../functions/orders/get.route.ts';
import { LATEST_PROTOCOL_VERSION, McpSession, SUPPORTED_PROTOCOL_VERSIONS, answerHttp, isJsonContentType, parseMessage, type JsonRpcMessage } from '../../functions/mcp/protocol.ts';
import { paramsProblem } from '../../functions/mcp/request-params.ts';
import { SERVER_INSTRUCTIONS, createMarketplaceMcpServer, refusal } from '../../functions/mcp/server.ts';
import { buildToolCatalogue } from '../../functions/mcp/tool-catalogue.ts';
import { runTool, toolCaller } from '../../functions/mcp/tool-calls.ts';
import { TOOLS, toolsFor } from '../../functions/mcp/tools.ts';
import type { Role } from '../../shared/schemas/agents.ts';
import * as z from '../../shared/schemas/zod.ts';
import { Marketplace } from '../../sdk/typescript/src/index.ts';
import { SDK_VERSION } from '../../sdk/typescript/src/version.ts';

type HeaderRecord = Record<string, string | undefined>;
interface Answer {
  status: number;
  contentType: string | null;
  body: unknown;
}

// The reference: the MCP SDK's server, as functions/mcp/server.ts and post.ts built it before.

/** The catalogue POST /mcp reads from mcp-tools.json, built here as synth builds it. */
const CATALOGUE = buildToolCatalogue();

/** The registered arguments schema accepts any object and carries the tool's JSON Schema for tools/list. */
const REGISTERED_ARGUMENTS = new Map(TOOLS.map((tool) => [tool.name, z.looseObject({})]));
for (const tool of TOOLS) z.globalRegistry.add(REGISTERED_ARGUMENTS.get(tool.name)!, { ...tool.input.schema });

const NO_ELICITATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'This server does not request input from clients' }),
};

function referenceServer(role: Role, marketplace: Marketplace): McpServer {
  const server = new McpServer({ name: 'agent-marketplace', title: 'Agent Marketplace', version: SDK_VERSION }, { instructions: SERVER_INSTRUCTIONS, jsonSchemaValidator: NO_ELICITATION });
  for (const tool of toolsFor(role)) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: REGISTERED_ARGUMENTS.get(tool.name)!, outputSchema: tool.output, annotations: { title: tool.title, ...tool.annotations } },
      (args: Record<string, unknown>) => runTool(tool, marketplace, args, () => undefined) as Promise<CallToolResult>,
    );
  }
  return server;
}

/** Answers a tools/call for a tool outside the role with our refusal, before the SDK's server sees it. */
class ToolGuard implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  readonly inner: Transport;
  readonly role: Role;

  constructor(inner: Transport, role: Role) {
    this.inner = inner;
    this.role = role;
  }

  start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => {
      if (isJSONRPCRequest(message) && message.method === 'tools/call') {
        const result = refusal(String((message.params as { name?: unknown } | undefined)?.name), this.role, CATALOGUE);
        if (result) {
          void this.inner.send({ jsonrpc: '2.0', id: message.id, result } as unknown as JSONRPCMessage, { relatedRequestId: message.id });
          return;
        }
      }
      this.onmessage?.(message, extra);
    };
    return this.inner.start();
  }

  send(...args: Parameters<Transport['send']>): Promise<void> {
    return this.inner.send(...args);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** post.ts's header rule before: a client that accepts JSON, anything or says nothing is let through. */
function transportHeaders(headers: HeaderRecord): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out.set(name, value);
  const accept = out.get('accept') ?? '';
  if (accept === '' || /application\/json|\*\/\*/.test(accept)) out.set('accept', 'application/json, text/event-stream');
  return out;
}

async function sdkAnswer(role: Role, body: unknown, headers: HeaderRecord, api: typeof fetch): Promise<Answer> {
  const server = referenceServer(role, marketplaceWith(api));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(new ToolGuard(transport, role));
  try {
    const response = await transport.handleRequest(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: transportHeaders(headers) }), { parsedBody: body });
    const text = await response.text();
    return { status: response.status, contentType: response.headers.get('content-type'), body: text === '' ? undefined : JSON.parse(text) };
  } finally {
    await server.close();
  }
}

async function coreAnswer(role: Role, body: unknown, headers: HeaderRecord, api: typeof fetch): Promise<Answer> {
  const server = createMarketplaceMcpServer({ role, catalogue: CATALOGUE, callTool: toolCaller(marketplaceWith(api)) });
  const answer = await answerHttp(server, body, { accept: headers.accept, contentType: headers['content-type'], protocolVersion: headers['mcp-protocol-version'] });
  // Through JSON, as post.ts sends it.
  return { status: answer.status, contentType: answer.contentType ?? null, body: answer.body === undefined ? undefined : JSON.parse(JSON.stringify(answer.body)) };
}

// The canned API.

const REQUEST_ID = 'req_01JF3Q5Z8X2C7V9B4N6M1K0PQR';
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-request-id': REQUEST_ID } });

/** The API as these tool calls meet it: a profile, an order, a missing order, a profile the tool table does not describe, no answer. */
const cannedApi: typeof fetch = (input) => Promise.resolve(cannedAnswer(input));

function cannedAnswer(input: string | URL | Request): Response {
  const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
  if (path === '/v1/agents/me') return json(200, { data: getMyAgentDocument().examples.response, meta: { requestId: REQUEST_ID } });
  if (path === '/v1/orders/ord_01JF3Q5Z8X2C7V9B4N6M1K0AAA') return json(200, { data: getOrderDocument().examples.response, meta: { requestId: REQUEST_ID } });
  if (path === '/v1/orders/ord_01JF3Q5Z8X2C7V9B4N6M1K0BAD') return json(200, { data: { orderId: 42 }, meta: { requestId: REQUEST_ID } });
  if (path.startsWith('/v1/orders/')) return json(404, { code: 'not-found', error: 'No order with this id', status: 404, details: [], requestId: REQUEST_ID });
  throw new TypeError('fetch failed');
}

const marketplaceWith = (api: typeof fetch) => new Marketplace({ apiKey: 'mk_test_differential', baseUrl: 'http://127.0.0.1:9', maxRetries: 0, fetch: api });

// The corpus.

const HEADERS: HeaderRecord = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const clientInfo = { name: 'differential', version: '1.0.0' };
const initialize = (params: unknown, id: string | number = 1) => ({ jsonrpc: '2.0', id, method: 'initialize', ...(params === undefined ? {} : { params }) });
const initParams = (extra: Record<string, unknown> = {}) => ({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo, ...extra });
const request = (method: string, params?: unknown, id: string | number = 7) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const call = (name: unknown, args?: unknown, id: string | number = 7) => request('tools/call', { name, ...(args === undefined ? {} : { arguments: args }) }, id);

interface Case {
  name: string;
  body: unknown;
  role?: Role;
  headers?: HeaderRecord;
}

const CORPUS: Case[] = [
  // initialize: version negotiation, and params the SDK's schemas refuse (zod's issues as the message)
  ...SDK_SUPPORTED.map((version) => ({ name: `initialize ${version}`, body: initialize(initParams({ protocolVersion: version })) })),
  { name: 'initialize, an unsupported version', body: initialize(initParams({ protocolVersion: '1999-01-01' })) },
  { name: 'initialize, a string id and a seller', body: initialize(initParams(), 'init-1'), role: 'seller' },
  { name: 'initialize, no version', body: initialize({ capabilities: {}, clientInfo }) },
  { name: 'initialize, a version that is no string', body: initialize(initParams({ protocolVersion: 20250618 })) },
  { name: 'initialize, no params', body: initialize(undefined) },
  { name: 'initialize, no clientInfo', body: initialize({ protocolVersion: '2025-06-18', capabilities: {} }) },
  {
    name: 'initialize, every capability a client may declare',
    body: initialize(initParams({
      capabilities: {
        experimental: { x: {} }, sampling: { context: {}, tools: {} }, elicitation: { form: { applyDefaults: true }, url: {} }, roots: { listChanged: true },
        tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } }, more: 1 }, extensions: { 'acme/x': [] }, unknown: 5,
      },
      clientInfo: { ...clientInfo, title: 'T', icons: [{ src: 'data:,', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' }], websiteUrl: 'https://example.com', description: 'd' },
      _meta: { progressToken: 'p' },
    })),
  },
  { name: 'initialize, an empty elicitation capability', body: initialize(initParams({ capabilities: { elicitation: {} } })) },
  {
    name: 'initialize, capabilities of the wrong shapes',
    body: initialize(initParams({
      capabilities: { elicitation: true, roots: { listChanged: 1 }, experimental: { x: 1 }, sampling: [], tasks: { requests: { sampling: { createMessage: null } } }, extensions: [] },
      clientInfo: { name: 'x', version: 1, icons: [{ src: 1, theme: 'blue', sizes: [1] }] },
    })),
  },
  { name: 'initialize, elicitation form of the wrong shape', body: initialize(initParams({ capabilities: { elicitation: { form: { applyDefaults: 'yes' }, url: null } } })) },
  { name: 'initialize, elicitation an array', body: initialize(initParams({ capabilities: { elicitation: [] } })) },
  { name: 'initialize, capabilities null', body: initialize(initParams({ capabilities: null })) },
  { name: 'initialize, a task', body: initialize(initParams({ task: {} })) },
  { name: 'initialize as a notification', body: { jsonrpc: '2.0', method: 'initialize', params: initParams() } },
  { name: 'initialize with an unsupported protocol version header (initialize does not need one)', body: initialize(initParams()), headers: { ...HEADERS, 'mcp-protocol-version': '1999-01-01' } },
  { name: 'a malformed initialize with an unsupported version header', body: initialize({}), headers: { ...HEADERS, 'mcp-protocol-version': '1999-01-01' } },
  { name: 'initialize in a batch', body: [initialize(initParams()), request('ping')] },
  { name: 'a malformed initialize in a batch', body: [initialize({}), request('ping', undefined, 8)] },
  // ping
  { name: 'ping, a number id', body: request('ping', undefined, 0) },
  { name: 'ping, a string id', body: request('ping', undefined, 'ping-1') },
  { name: 'ping, params with _meta', body: request('ping', { _meta: { progressToken: 3, 'io.modelcontextprotocol/related-task': { taskId: 't' } }, extra: [1] }) },
  { name: 'ping, a task', body: request('ping', { task: { ttl: 5 } }) },
  { name: 'ping, a task of the wrong shape (no task then)', body: request('ping', { task: { ttl: 'soon' } }) },
  // tools/list
  { name: 'tools/list, a buyer', body: request('tools/list') },
  { name: 'tools/list, a seller', body: request('tools/list', {}, 'list'), role: 'seller' },
  { name: 'tools/list, a cursor', body: request('tools/list', { cursor: 'next' }) },
  { name: 'tools/list, a cursor that is no string', body: request('tools/list', { cursor: 5 }) },
  // tools/call: refusals first, then the request, then the tool
  { name: 'tools/call, the other role’s tool', body: call('confirm_order', { id: 'ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR' }) },
  { name: 'tools/call, the other role’s tool (a seller)', body: call('place_order', {}), role: 'seller' },
  { name: 'tools/call, an unknown name', body: call('drop_tables') },
  { name: 'tools/call, no name', body: request('tools/call', { arguments: {} }) },
  { name: 'tools/call, no params', body: request('tools/call') },
  { name: 'tools/call, a name that is a number', body: call(5) },
  { name: 'tools/call, a name in an array that reads as a tool’s', body: call(['get_profile'], [1]) },
  { name: 'tools/call, arguments that are an array', body: call('get_profile', [1]) },
  { name: 'tools/call, a task', body: request('tools/call', { name: 'get_profile', task: {} }) },
  { name: 'tools/call, a task of the wrong shape', body: request('tools/call', { name: 'get_profile', task: { ttl: 'x' } }) },
  { name: 'tools/call, a refused tool with a task', body: request('tools/call', { name: 'confirm_order', task: {} }) },
  { name: 'tools/call, invalid arguments', body: call('start_negotiation', { offerId: 'ofr_nope', quantity: 0, extra: true }) },
  { name: 'tools/call, invalid arguments of a seller', body: call('upload_feed', { csv: 'x', products: [] }), role: 'seller' },
  { name: 'tools/call, no arguments', body: call('get_order') },
  { name: 'tools/call, the API’s data', body: call('get_profile', {}, 'call-1') },
  { name: 'tools/call, the API’s data without arguments', body: call('get_profile') },
  { name: 'tools/call, an order', body: call('get_order', { id: 'ord_01JF3Q5Z8X2C7V9B4N6M1K0AAA' }) },
  { name: 'tools/call, the API’s 404', body: call('get_order', { id: 'ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR' }) },
  { name: 'tools/call, data the output schema refuses', body: call('get_order', { id: 'ord_01JF3Q5Z8X2C7V9B4N6M1K0BAD' }) },
  { name: 'tools/call, no answer from the API', body: call('list_webhooks', {}) },
  { name: 'tools/call, the API’s data for a seller', body: call('get_profile', {}, 12), role: 'seller' },
  // notifications and the client's responses: 202, no body
  { name: 'notifications/initialized', body: { jsonrpc: '2.0', method: 'notifications/initialized' } },
  { name: 'notifications/cancelled', body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'late' } } },
  { name: 'an unknown notification', body: { jsonrpc: '2.0', method: 'notifications/whatever', params: { a: 1 } } },
  { name: 'a client’s result', body: { jsonrpc: '2.0', id: 1, result: {} } },
  { name: 'a client’s result with _meta', body: { jsonrpc: '2.0', id: 'r', result: { _meta: { progressToken: 'p' }, roots: [] } } },
  { name: 'a client’s error', body: { jsonrpc: '2.0', id: 'x', error: { code: -1, message: 'no', data: [1] } } },
  { name: 'a client’s error without an id', body: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } } },
  // batches (clients of protocol versions before 2025-06-18)
  { name: 'a batch', body: [request('ping', undefined, 1), request('tools/list', undefined, 'two'), { jsonrpc: '2.0', method: 'notifications/initialized' }, request('nope', undefined, 3)] },
  { name: 'a batch of one', body: [request('ping')] },
  { name: 'a batch of notifications', body: [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 1, result: {} }] },
  { name: 'an empty batch', body: [] },
  // (With different answers for a repeated id, the SDK gave whichever arrived last before every id had one; we give the first request's: below.)
  { name: 'a batch repeating an id', body: [request('ping', undefined, 1), request('ping', undefined, 1), request('ping', undefined, '1')] },
  { name: 'a batch with tool calls', body: [call('get_profile', {}, 1), call('confirm_order', {}, 2), call('get_order', { id: 'ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR' }, 3)] },
  { name: 'a batch with a malformed message', body: [request('ping'), { jsonrpc: '2.0', id: 2 }] },
  { name: 'a batch of 100', body: Array.from({ length: 100 }, (_, index) => request('ping', undefined, index)) },
  { name: 'a batch of 101', body: Array.from({ length: 101 }, (_, index) => request('ping', undefined, index)) },
  // methods this server has no handler for
  ...['resources/list', 'prompts/list', 'logging/setLevel', 'tasks/get', 'completion/complete', 'toString', '__proto__', 'constructor', ''].map((method) => ({ name: `method ${JSON.stringify(method)}`, body: request(method) })),
  // malformed messages: a parse error, id null
  { name: 'no body', body: undefined },
  ...(
    [
      ['a string', 'ping'],
      ['a number', 1],
      ['null', null],
      ['jsonrpc 1.0', { jsonrpc: '1.0', id: 1, method: 'ping' }],
      ['no jsonrpc', { id: 1, method: 'ping' }],
      ['an id null', { jsonrpc: '2.0', id: null, method: 'ping' }],
      ['an id 1.5', { jsonrpc: '2.0', id: 1.5, method: 'ping' }],
      ['an id past 2^53', { jsonrpc: '2.0', id: 2 ** 60, method: 'ping' }],
      ['an id that is an object', { jsonrpc: '2.0', id: {}, method: 'ping' }],
      ['an error with an id null', { jsonrpc: '2.0', id: null, error: { code: 1, message: 'x' } }],
      ['an unknown member', { jsonrpc: '2.0', id: 1, method: 'ping', extra: 1 }],
      ['params an array', { jsonrpc: '2.0', id: 1, method: 'ping', params: [] }],
      ['params null', { jsonrpc: '2.0', id: 1, method: 'ping', params: null }],
      ['a method that is a number', { jsonrpc: '2.0', id: 1, method: 5 }],
      ['a progress token 1.5', request('ping', { _meta: { progressToken: 1.5 } })],
      ['a related task without its id', request('ping', { _meta: { 'io.modelcontextprotocol/related-task': {} } })],
      ['_meta an array', request('ping', { _meta: [] })],
      ['a notification with an unknown member', { jsonrpc: '2.0', method: 'notifications/initialized', id: undefined, x: 1 }],
      ['a result that is an array', { jsonrpc: '2.0', id: 1, result: [] }],
      ['a result with a bad _meta', { jsonrpc: '2.0', id: 1, result: { _meta: { progressToken: null } } }],
      ['a result without an id', { jsonrpc: '2.0', result: {} }],
      ['an error code that is a string', { jsonrpc: '2.0', id: 1, error: { code: '1', message: 'x' } }],
      ['an error without a message', { jsonrpc: '2.0', id: 1, error: { code: 1 } }],
      ['a result and an error', { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } }],
      ['a method and a result', { jsonrpc: '2.0', id: 1, method: 'ping', result: {} }],
    ] as const
  ).map(([name, body]) => ({ name: `malformed: ${name}`, body })),
  // headers
  { name: 'a supported protocol version header', body: request('ping'), headers: { ...HEADERS, 'mcp-protocol-version': '2025-03-26' } },
  { name: 'a protocol version header with spaces', body: request('ping'), headers: { ...HEADERS, 'mcp-protocol-version': ' 2025-06-18 ' } },
  { name: 'an unsupported protocol version header', body: request('ping'), headers: { ...HEADERS, 'mcp-protocol-version': '2099-01-01' } },
  { name: 'an empty protocol version header', body: request('tools/list'), headers: { ...HEADERS, 'mcp-protocol-version': '' } },
  { name: 'an unsupported protocol version header on a notification', body: { jsonrpc: '2.0', method: 'notifications/initialized' }, headers: { ...HEADERS, 'mcp-protocol-version': 'x' } },
  ...['text/html', 'text/event-stream', 'application/xml, text/plain', '*/*', 'application/json', 'text/html, application/json;q=0.5', '   ', 'APPLICATION/JSON'].map((accept) => ({
    name: `Accept: ${JSON.stringify(accept)}`,
    body: request('ping'),
    headers: { ...HEADERS, accept },
  })),
  { name: 'no Accept', body: request('ping'), headers: { 'content-type': 'application/json' } },
  { name: 'Accept without JSON, and a malformed message', body: 'x', headers: { ...HEADERS, accept: 'text/html' } },
  ...[
    'text/plain',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    ' application/json ',
    'application/json;',
    'application/json;charset',
    'application/json; charset="utf-8"',
    'application/json;charset=x,y',
    'application/json, text/plain',
    'application/jsonx',
    'application/problem+json',
    '',
  ].map((contentType) => ({ name: `Content-Type: ${JSON.stringify(contentType)}`, body: request('ping'), headers: { ...HEADERS, 'content-type': contentType } })),
  { name: 'no Content-Type', body: request('ping'), headers: { accept: 'application/json' } },
];

// Generated messages and params, beyond the corpus: mostly of the shapes the SDK's schemas take, each
// member sometimes any JSON instead, optional members half the time, now and then one no schema names.

const generated = (() => {
  const KEYS = ['jsonrpc', 'id', 'method', 'params', 'result', 'error', 'code', 'message', '_meta', 'progressToken', 'taskId', 'task', 'ttl', 'name', 'arguments', 'cursor', 'form', 'url', 'listChanged', 'applyDefaults', 'src', 'theme', 'x'];
  const leaf = fc.constantFrom<unknown>(null, true, '', 'x', 'dark', 0, 1, 1.5, 2 ** 60, {}, []);
  const { json } = fc.letrec((tie) => ({ json: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('json'), { maxLength: 2 }), fc.dictionary(fc.constantFrom(...KEYS), tie('json'), { maxKeys: 3 })) }));
  const mostly = <T>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 12 }, { arbitrary: json, weight: 1 });
  const rarely = (value: fc.Arbitrary<unknown>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 8 }, { arbitrary: value, weight: 1 });
  const object = (required: Record<string, fc.Arbitrary<unknown>>, optional: Record<string, fc.Arbitrary<unknown>> = {}) =>
    fc
      .record({ ...required, ...Object.fromEntries(Object.entries(optional).map(([name, value]) => [name, fc.option(value, { nil: undefined, freq: 2 })])), x: rarely(json) })
      .map((value) => Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)));
  const objectLike = mostly(fc.constantFrom({}, [], { a: 1 }));

  const meta = mostly(object({}, { progressToken: mostly(fc.constantFrom('p', 3)), 'io.modelcontextprotocol/related-task': mostly(object({ taskId: mostly(fc.constant('t')) })) }));
  const jsonrpc = mostly(fc.constant('2.0'));
  const id = mostly(fc.constantFrom(1, 'a', 0));
  const params = mostly(object({}, { _meta: meta, cursor: json }));
  const message = fc.oneof(
    object({ jsonrpc, id, method: mostly(fc.constantFrom('ping', 'tools/list')) }, { params }),
    object({ jsonrpc, method: mostly(fc.constant('notifications/initialized')) }, { params }),
    object({ jsonrpc, id, result: mostly(object({}, { _meta: meta })) }),
    object({ jsonrpc, error: mostly(object({ code: mostly(fc.constantFrom(-1, -32700)), message: mostly(fc.constant('m')) }, { data: json })) }, { id }),
    json,
  );

  const icon = mostly(object({ src: mostly(fc.constant('s')) }, { mimeType: mostly(fc.constant('image/png')), sizes: mostly(fc.array(mostly(fc.constant('48x48')), { maxLength: 2 })), theme: mostly(fc.constantFrom('light', 'dark', 'blue')) }));
  const clientInfo = mostly(object({ name: mostly(fc.constant('n')), version: mostly(fc.constant('1')) }, { title: mostly(fc.constant('t')), icons: mostly(fc.array(icon, { maxLength: 2 })), websiteUrl: mostly(fc.constant('u')), description: mostly(fc.constant('d')) }));
  const capabilities = mostly(
    object({}, {
      experimental: mostly(fc.dictionary(fc.constantFrom('a', 'b'), objectLike)),
      sampling: mostly(object({}, { context: objectLike, tools: objectLike })),
      elicitation: mostly(object({}, { form: mostly(object({}, { applyDefaults: mostly(fc.boolean()) })), url: objectLike })),
      roots: mostly(object({}, { listChanged: mostly(fc.boolean()) })),
      tasks: mostly(object({}, { list: objectLike, cancel: objectLike, requests: mostly(object({}, { sampling: mostly(object({}, { createMessage: objectLike })), elicitation: mostly(object({}, { create: objectLike })) })) })),
      extensions: mostly(fc.dictionary(fc.constantFrom('a/b', 'c'), objectLike)),
    }),
  );
  return {
    message,
    params: {
      initialize: mostly(object({ protocolVersion: mostly(fc.constantFrom('2025-06-18', 'x')), capabilities, clientInfo })),
      'tools/list': fc.oneof(fc.constant(undefined), object({}, { cursor: mostly(fc.constant('c')) })),
      'tools/call': mostly(object({ name: mostly(fc.constant('get_profile')) }, { arguments: mostly(fc.dictionary(fc.constantFrom('a', 'b'), json)), task: mostly(object({}, { ttl: mostly(fc.constant(5)) })) })),
    },
  };
})();

describe('the MCP protocol core answers as the MCP SDK’s server did', () => {
  it('speaks the SDK’s protocol versions', () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_SUPPORTED);
    expect(LATEST_PROTOCOL_VERSION).toBe(SDK_LATEST);
  });

  it.each(CORPUS)('$name', async ({ body, role = 'buyer', headers = HEADERS }) => {
    const [sdk, core] = await Promise.all([sdkAnswer(role, body, headers, cannedApi), coreAnswer(role, body, headers, cannedApi)]);
    expect(core).toEqual(sdk);
    expect(JSON.stringify(core.body)).toBe(JSON.stringify(sdk.body));
  });

  it('takes and refuses the messages the SDK takes and refuses', () => {
    fc.assert(fc.property(generated.message, (value) => (parseMessage(value) !== undefined) === JSONRPCMessageSchema.safeParse(value).success), { numRuns: 5000 });
  });

  it('takes and refuses the params the SDK takes and refuses, with its issues as the message', () => {
    const sdkSchemas = { initialize: InitializeRequestSchema, 'tools/list': ListToolsRequestSchema, 'tools/call': CallToolRequestSchema } as const;
    for (const method of Object.keys(sdkSchemas) as (keyof typeof sdkSchemas)[]) {
      fc.assert(
        fc.property(generated.params[method], (value) => {
          const request = { method, ...(value === undefined ? {} : { params: value }) };
          fc.pre(parseMessage({ jsonrpc: '2.0', id: 1, ...request }) !== undefined); // a _meta the envelope refuses never gets here
          const sdk = sdkSchemas[method].safeParse(request);
          expect(paramsProblem(request)).toBe(sdk.success ? undefined : sdk.error.message);
        }),
        { numRuns: 3000 },
      );
    }
  });

  it('reads a Content-Type as the SDK does (the content-type package, with its fallback)', () => {
    const piece = fc.constantFrom('application/json', 'APPLICATION/Json', 'text/plain', ';', ' ', ',', '=', 'charset', 'utf-8', '"', '\\', '"a b"', '\t', 'x', '/', '');
    fc.assert(fc.property(fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join('')), (header) => isJsonContentType(header) === sdkIsJsonContentType(header)), { numRuns: 5000 });
    for (const header of ['application/json', 'application/json; charset=utf-8', 'application/json;', 'application/json ; x="a\\"b"', 'application/json, x', 'application/json;a=b,c', 'application/json; a=b; c', ' application/json', 'application/json\u00a0']) {
      expect(isJsonContentType(header), header).toBe(sdkIsJsonContentType(header));
    }
  });
});

describe('where the SDK gave no answer, or no single one', () => {
  it('drops the answer of a request a notifications/cancelled names while it runs; a POST with nothing left to answer is 202 (the SDK never answered it)', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slowApi: typeof fetch = async (input, init) => {
      await held;
      return cannedApi(input, init);
    };
    const server = createMarketplaceMcpServer({ role: 'buyer', catalogue: CATALOGUE, callTool: toolCaller(marketplaceWith(slowApi)) });
    const session = new McpSession(server);
    const answer = session.receive(call('get_profile', {}, 9) as JsonRpcMessage);
    expect(await session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } })).toBeUndefined();
    release();
    expect(await answer).toBeUndefined();
    // A cancellation naming no running request, or id 0 (which the SDK reads as none), changes nothing.
    const ping = session.receive(request('ping', undefined, 0) as JsonRpcMessage);
    await session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0 } });
    expect(await ping).toEqual({ jsonrpc: '2.0', id: 0, result: {} });

    const both = await answerHttp(createMarketplaceMcpServer({ role: 'buyer', catalogue: CATALOGUE, callTool: toolCaller(marketplaceWith(slowApi)) }), [call('get_profile', {}, 1), { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }], {
      accept: 'application/json',
      contentType: 'application/json',
    });
    expect(both).toEqual({ status: 202 });
  });

  it('answers a batch that repeats an id with the answer to the first request with it', async () => {
    const server = createMarketplaceMcpServer({ role: 'buyer', catalogue: CATALOGUE, callTool: toolCaller(marketplaceWith(cannedApi)) });
    const answer = await answerHttp(server, [request('tools/list', undefined, 1), request('ping', undefined, 1), request('ping', undefined, 2)], { contentType: 'application/json' });
    expect(answer.body).toEqual([{ jsonrpc: '2.0', id: 1, result: { tools: expect.any(Array) } }, { jsonrpc: '2.0', id: 2, result: {} }]);
  });
});
