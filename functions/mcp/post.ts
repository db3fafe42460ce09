// POST /mcp — one MCP exchange, statelessly: a server with the caller's tools and an SDK client with
// the caller's key, for this request only. The middleware has already authenticated the key (401),
// counted the request and parsed the JSON-RPC body; the protocol core (./protocol.ts) answers in JSON
// (no stream: a Lambda answers once). The function's init loads neither the tool table nor the SDK's
// client: tools/list is answered from mcp-tools.json, and the first tools/call loads the tool calls'
// own bundle (both built at synth beside this one: the row's bundledFiles; docs/performance.md).
import { requiredSetting } from '../../shared/config.ts';
import { COUNTED_CALL_HEADER, countedCallProof } from '../../shared/http/counted-calls.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { logger } from '../../shared/logger.ts';
import { importBundledModule, readBundledFile } from '../../shared/resources.ts';
import { answerHttp } from './protocol.ts';
import { route } from './post.route.ts';
import { createMarketplaceMcpServer, type CallTool, type ToolCatalogue } from './server.ts';
import type * as ToolCalls from './tool-calls.ts';

const BEARER = /^Bearer +(\S+)\s*$/i;
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The tools' API calls must end inside this function's time limit: list_events may be held 20 s by
 * the API, so an attempt may take 25 s, and no retry starts after 8 s (a longer Retry-After is
 * answered as the rate-limit error it is).
 */
const CLIENT_SETTINGS = { timeoutMs: 25_000, maxRetries: 2, maxRetryTimeMs: 8_000 } as const;

/**
 * The SDK's fetch, with the proof that this /mcp request was counted: the one tool call it carries is
 * then not counted again by its own API request. A batch of messages (older clients) gets none, so
 * that each of its tool calls is counted.
 */
function countedFetch(proof: string | undefined): typeof fetch | undefined {
  if (proof === undefined) return undefined;
  return (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string> | undefined), [COUNTED_CALL_HEADER]: proof } });
}

let catalogue: ToolCatalogue | undefined;

/** Every tool as tools/list shows it, read on the first request. */
function toolCatalogue(): ToolCatalogue {
  catalogue ??= JSON.parse(readBundledFile('mcp-tools.json', import.meta.url)) as ToolCatalogue;
  return catalogue;
}

let toolCalls: Promise<typeof ToolCalls> | undefined;

/** The tool table and the SDK's client, loaded on the first tools/call. */
function loadToolCalls(): Promise<typeof ToolCalls> {
  toolCalls ??= importBundledModule<typeof ToolCalls>('mcp-tool-calls', import.meta.url);
  return toolCalls;
}

export const handler = apiHandler(route, async ({ caller, headers, body, requestId, now }) => {
  const apiKey = BEARER.exec(headers.authorization ?? '')?.[1] as string; // authenticated by the middleware
  // The API's own URL from configuration, never from the request: no header can send the key elsewhere.
  const baseUrl = requiredSetting('API_BASE_URL');
  const counted = Array.isArray(body) ? undefined : countedFetch(countedCallProof(caller.agentId, requestId, now));
  const onUnexpected = (error: unknown) => logger.error('MCP tool failed unexpectedly', { requestId, agentId: caller.agentId, error: error as Error });
  // The SDK client with the caller's key, built by this request's first tools/call.
  let callTool: Promise<CallTool> | undefined;
  const server = createMarketplaceMcpServer({
    role: caller.role,
    catalogue: toolCatalogue(),
    callTool: async (name, args) => {
      callTool ??= loadToolCalls().then(({ Marketplace, toolCaller }) => toolCaller(new Marketplace({ apiKey, baseUrl, ...CLIENT_SETTINGS, ...(counted ? { fetch: counted } : {}) }), onUnexpected));
      return (await callTool)(name, args);
    },
  });
  const answer = await answerHttp(server, body, { accept: headers.accept, contentType: headers['content-type'], protocolVersion: headers['mcp-protocol-version'] });
  // A 202 has no body; its content type is the API's usual one, as before.
  return { status: answer.status, raw: { body: answer.body === undefined ? '' : JSON.stringify(answer.body), contentType: answer.contentType ?? JSON_TYPE } };
});
