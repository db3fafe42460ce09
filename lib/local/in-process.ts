// The in-process adapter: calling an operation in this process, as the local gateway, the tests and
// the benches do. The request is the runner's plain request, built as API Gateway would deliver it
// (lowercase header names, a repeated header's or query key's values joined by commas, path parameters
// matched from the route's template and decoded, text bodies as UTF-8 text); no Lambda event or context
// in between (docs/decisions/one-request-pipeline.md). The Lambda side is shared/http/api-gateway.ts.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { OperationRequest, OperationResponse } from '../../shared/http/api-state.ts';
import type { Operation } from '../../shared/http/operation.ts';
import type { RouteDefinition } from '../../shared/http/route-table.ts';
import { RouteMatcher, type RouteMatch } from './route-matcher.ts';

/** Bodies API Gateway passes as text; any other content type arrives base64-encoded. */
const TEXT_CONTENT_TYPE = /^(?:text\/|application\/(?:[\w.+-]+\+)?(?:json|xml|javascript|x-www-form-urlencoded|graphql)\b)/i;

export function isTextContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && TEXT_CONTENT_TYPE.test(contentType.trimStart());
}

/** The decoded query; a repeated key's values joined with commas, as API Gateway joins them. */
export function queryParameters(rawQueryString: string): Record<string, string> | undefined {
  if (rawQueryString === '') return undefined;
  const parameters: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(rawQueryString)) {
    parameters[name] = name in parameters ? `${parameters[name]},${value}` : value;
  }
  return parameters;
}

/**
 * The plain request API Gateway would hand a function for an HTTP request the local gateway read:
 * lowercase names, repeated headers joined with commas and cookies with `; `, the forwarding headers
 * API Gateway adds, and a text body as API Gateway passes it (a UTF-8 string: malformed bytes arrive as
 * U+FFFD), any other body as its bytes.
 */
export function requestFromHttp(request: IncomingMessage, match: RouteMatch, body: Buffer | undefined): OperationRequest {
  const url = request.url ?? '/';
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const rawQuery = queryStart === -1 ? '' : url.slice(queryStart + 1);

  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  const raw = request.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    const name = (raw[index] as string).toLowerCase();
    const value = raw[index + 1] as string;
    if (name === 'cookie') cookies.push(...value.split(/;\s*/).filter((cookie) => cookie !== ''));
    else headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  const sourceIp = request.socket.remoteAddress ?? '127.0.0.1';
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${sourceIp}` : sourceIp;
  headers['x-forwarded-port'] = String(request.socket.localPort ?? '');
  headers['x-forwarded-proto'] = 'http';

  let delivered: Buffer | undefined;
  if (body && body.byteLength > 0) delivered = isTextContentType(headers['content-type']) ? Buffer.from(body.toString('utf8'), 'utf8') : body;
  return {
    method: request.method ?? 'GET',
    path,
    headers,
    params: match.pathParameters ?? {},
    query: queryParameters(rawQuery) ?? {},
    rawQuery,
    body: delivered,
    sourceIp,
  };
}

/** Writes an operation's answer, with API Gateway's own `apigw-requestid` header. */
export function writeOperationResponse(response: ServerResponse, answer: OperationResponse, gatewayRequestId: string): void {
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(answer.headers)) headers[name.toLowerCase()] = value;
  headers['content-length'] = body.byteLength;
  headers['apigw-requestid'] = gatewayRequestId;
  response.writeHead(answer.status, headers);
  response.end(body);
}

export interface InProcessRequest {
  /** Names in any case; they are lowercased. */
  headers?: Record<string, string>;
  /** A string or bytes as they are; anything else as JSON. Content-Type defaults to application/json. */
  body?: unknown;
  /** Sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  sourceIp?: string;
}

/** A documentation address (RFC 5737), unless the request names one. */
const DEFAULT_SOURCE_IP = '198.51.100.7';
/** What the operation is told of its remaining time: a function's default limit. */
const REMAINING_MS = 10_000;

/** An operation, or a function's `handler` export, which carries its operation. */
export type OperationTarget = Operation | { readonly operation: Operation };

export function operationOf(target: OperationTarget): Operation {
  return 'run' in target ? target : target.operation;
}

/** `target`: the path, with its query string if any (`/v1/orders?limit=5`); the method is the route's. */
export function operationRequest(route: RouteDefinition, target: string, options: InProcessRequest = {}): OperationRequest {
  const queryStart = target.indexOf('?');
  const path = queryStart === -1 ? target : target.slice(0, queryStart);
  const rawQuery = queryStart === -1 ? '' : target.slice(queryStart + 1);
  const match = new RouteMatcher([route], route).match(route.method, path);
  if (match.routeKey === '$default') throw new Error(`${path} is not a path of ${route.method} ${route.path}`);

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
  let body: Buffer | undefined;
  if (options.body !== undefined) {
    const { body: sent } = options;
    body = Buffer.isBuffer(sent) ? sent : Buffer.from(typeof sent === 'string' ? sent : JSON.stringify(sent), 'utf8');
    headers['content-type'] ??= 'application/json';
  }
  return {
    method: route.method,
    path,
    headers,
    params: match.pathParameters ?? {},
    query: queryParameters(rawQuery) ?? {},
    rawQuery,
    body,
    sourceIp: options.sourceIp ?? DEFAULT_SOURCE_IP,
  };
}

/** The operation's answer, header names lowercased as an HTTP client reads them. */
export async function invokeInProcess(target: OperationTarget, path: string, options: InProcessRequest = {}): Promise<OperationResponse> {
  const operation = operationOf(target);
  const response = await operation.run(operationRequest(operation.route, path, options), { remainingMs: () => REMAINING_MS });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) headers[name.toLowerCase()] = value;
  return { ...response, headers };
}
