// POST /mcp — one MCP exchange, statelessly: the MCP SDK's McpServer with the caller's tools and our
// SDK's client with the caller's key, on the SDK's Streamable HTTP transport in stateless JSON mode,
// for this request only (a Lambda answers once, so no event stream). The middleware has already
// refused a web page of another site (403, before the key: the row's checksOrigin), authenticated the
// key (401), counted the request and parsed the JSON-RPC body.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { apiKeyPrefixFor, requiredSetting } from '../../shared/config.ts';
import { COUNTED_CALL_HEADER, countedCallProof } from '../../shared/http/counted-calls.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { logger } from '../../shared/logger.ts';
import { Marketplace } from '../../sdk/typescript/src/index.ts';
import { route } from './post.route.ts';
import { serveMarketplaceTools } from './server.ts';

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

/** The headers the transport reads (not the key: the tools hold it in their client). */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id'] as const;

/**
 * The request as the transport reads it. Answers are always JSON (no stream), so a client that accepts
 * JSON, or anything, or says nothing, is served, although the protocol asks it to accept
 * text/event-stream as well (the transport would answer it 406).
 */
function transportRequest(url: URL, headers: Readonly<Record<string, string | undefined>>): Request {
  const forwarded = new Headers();
  for (const name of TRANSPORT_HEADERS) if (headers[name] !== undefined) forwarded.set(name, headers[name]);
  const accept = forwarded.get('accept') ?? '';
  if (accept === '' || /application\/json|\*\/\*/.test(accept)) forwarded.set('accept', 'application/json, text/event-stream');
  return new Request(url, { method: 'POST', headers: forwarded });
}

export const handler = apiHandler(route, async ({ caller, headers, body, requestId, now }) => {
  // The API's own URL from configuration, never from the request: no header can send the key elsewhere.
  const baseUrl = requiredSetting('API_BASE_URL');

  const apiKey = BEARER.exec(headers.authorization ?? '')?.[1] as string; // authenticated by the middleware
  const counted = Array.isArray(body) ? undefined : countedFetch(countedCallProof(caller.agentId, requestId, now));
  const marketplace = new Marketplace({ apiKey, baseUrl, ...CLIENT_SETTINGS, ...(counted ? { fetch: counted } : {}) });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  // Only a message about tools needs the tool table: an initialize, a ping or a notification is served without loading it.
  const withTools = (Array.isArray(body) ? body : [body]).some((message) => typeof (message as { method?: unknown } | null)?.method === 'string' && (message as { method: string }).method.startsWith('tools/'));
  const server = await serveMarketplaceTools(transport, {
    withTools,
    caller: { role: caller.role, scopes: caller.scopes, sandbox: apiKey.startsWith(apiKeyPrefixFor('test')) },
    marketplace,
    requestId: () => requestId,
    onUnexpected: (error) => logger.error('MCP tool failed unexpectedly', { requestId, agentId: caller.agentId, error: error as Error }),
  });
  try {
    const response = await transport.handleRequest(transportRequest(new URL('/mcp', baseUrl), headers), { parsedBody: body });
    // A 202 has no body; its content type is the API's usual one.
    return { status: response.status, raw: { body: await response.text(), contentType: response.headers.get('content-type') ?? JSON_TYPE } };
  } finally {
    await server.close();
  }
});
