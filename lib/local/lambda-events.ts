// API Gateway HTTP API events (payload format 2.0), built in one place for every caller of a route's
// function: the local gateway (from the HTTP request it read), and the tests and benches (from a path
// and options). Each function's `handler` export — the Middy handler Lambda runs — is then called with
// the event and a Lambda context (lambda.ts), and its structured result read back as API Gateway reads
// it. So the adapter that runs on AWS runs in every end-to-end test, and nothing else translates
// requests (docs/decisions/middy-request-pipeline.md).
// Reference: https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { RouteDefinition } from '../../shared/http/route-table.ts';
import { LOCAL_ACCOUNT_ID } from './aws.ts';
import { lambdaContext } from './lambda.ts';
import { RouteMatcher, type RouteMatch } from './route-matcher.ts';

/** A route function's Lambda entry point, as apiHandler exports it. */
export type RouteFunction = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

/** What the gateway knows of an HTTP request, or a test says of one. */
export interface HttpRequestFacts {
  method: string;
  /** The path as sent (still percent-encoded), with its query string if any. */
  url: string;
  /** Header names and values as received, in order, repeats included. */
  rawHeaders: readonly (readonly [string, string])[];
  body: Buffer | undefined;
  sourceIp: string;
  /** The port and scheme the client reached, for the forwarding headers API Gateway adds. */
  forwardedPort: string;
  forwardedProto: 'http' | 'https';
  httpVersion?: string;
}

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

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (value: number) => String(value).padStart(2, '0');

/** `22/Nov/2026:10:15:30 +0000`, API Gateway's requestContext.time format. */
function gatewayTime(date: Date): string {
  return `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

/**
 * The event API Gateway delivers for the request: lowercase header names, a repeated header's values
 * joined with commas, cookies moved to `cookies`, the forwarding headers it adds, the decoded query
 * (a repeated key's values joined with commas) beside the raw query string, the path parameters of
 * the matched route (decoded), and the body as UTF-8 text for text content types (malformed bytes
 * become U+FFFD, as there), base64 for any other.
 */
export function httpApiEvent(request: HttpRequestFacts, match: RouteMatch): APIGatewayProxyEventV2 {
  const queryStart = request.url.indexOf('?');
  const rawPath = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
  const rawQueryString = queryStart === -1 ? '' : request.url.slice(queryStart + 1);

  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [rawName, value] of request.rawHeaders) {
    const name = rawName.toLowerCase();
    if (name === 'cookie') cookies.push(...value.split(/;\s*/).filter((cookie) => cookie !== ''));
    else headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${request.sourceIp}` : request.sourceIp;
  headers['x-forwarded-port'] = request.forwardedPort;
  headers['x-forwarded-proto'] = request.forwardedProto;

  const now = new Date();
  const domainName = (headers.host ?? 'localhost').replace(/:\d+$/, '');
  let body: string | undefined;
  let isBase64Encoded = false;
  if (request.body && request.body.byteLength > 0) {
    isBase64Encoded = !isTextContentType(headers['content-type']);
    body = request.body.toString(isBase64Encoded ? 'base64' : 'utf8');
  }
  const queryStringParameters = queryParameters(rawQueryString);
  return {
    version: '2.0',
    routeKey: match.routeKey,
    rawPath,
    rawQueryString,
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    ...(match.pathParameters ? { pathParameters: match.pathParameters } : {}),
    requestContext: {
      accountId: LOCAL_ACCOUNT_ID,
      apiId: 'local',
      domainName,
      domainPrefix: domainName.split('.')[0] ?? domainName,
      http: {
        method: request.method,
        path: rawPath,
        protocol: `HTTP/${request.httpVersion ?? '1.1'}`,
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: match.routeKey,
      stage: '$default',
      time: gatewayTime(now),
      timeEpoch: now.getTime(),
    },
    ...(body === undefined ? {} : { body }),
    isBase64Encoded,
  };
}

/** The facts of a request the local gateway read. */
export function requestFacts(request: IncomingMessage, body: Buffer | undefined): HttpRequestFacts {
  const rawHeaders: [string, string][] = [];
  for (let index = 0; index < request.rawHeaders.length; index += 2) rawHeaders.push([request.rawHeaders[index] as string, request.rawHeaders[index + 1] as string]);
  return {
    method: request.method ?? 'GET',
    url: request.url ?? '/',
    rawHeaders,
    body,
    sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
    forwardedPort: String(request.socket.localPort ?? ''),
    forwardedProto: 'http',
    httpVersion: request.httpVersion,
  };
}

export interface RouteRequest {
  /** Names in any case. */
  headers?: Record<string, string>;
  /** A string or bytes as they are; anything else as JSON. Content-Type defaults to application/json. */
  body?: unknown;
  /** Sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  sourceIp?: string;
}

/** A documentation address (RFC 5737), unless the request names one. */
const DEFAULT_SOURCE_IP = '198.51.100.7';

/**
 * The event for a request to `route` at `target` (the path, with its query string if any; the method is
 * the route's), as a deployed API Gateway (HTTPS, port 443) would deliver it.
 */
export function routeEvent(route: RouteDefinition, target: string, options: RouteRequest = {}): APIGatewayProxyEventV2 {
  const queryStart = target.indexOf('?');
  const path = queryStart === -1 ? target : target.slice(0, queryStart);
  const match = new RouteMatcher([route], route).match(route.method, path);
  if (match.routeKey === '$default') throw new Error(`${path} is not a path of ${route.method} ${route.path}`);
  const rawHeaders: [string, string][] = Object.entries(options.headers ?? {});
  if (options.apiKey !== undefined) rawHeaders.push(['authorization', `Bearer ${options.apiKey}`]);
  let body: Buffer | undefined;
  if (options.body !== undefined) {
    const { body: sent } = options;
    body = Buffer.isBuffer(sent) ? sent : Buffer.from(typeof sent === 'string' ? sent : JSON.stringify(sent), 'utf8');
    if (!rawHeaders.some(([name]) => name.toLowerCase() === 'content-type')) rawHeaders.push(['content-type', 'application/json']);
  }
  return httpApiEvent(
    { method: route.method, url: target, rawHeaders, body, sourceIp: options.sourceIp ?? DEFAULT_SOURCE_IP, forwardedPort: '443', forwardedProto: 'https' },
    match,
  );
}

/** A function's answer as API Gateway reads it; undefined for one it cannot use (it answers 500). */
export interface GatewayAnswer {
  status: number;
  /** Lowercase names; the function's cookies as `set-cookie`. */
  headers: OutgoingHttpHeaders & Record<string, string | string[] | number>;
  body: Buffer;
  /** The function sent the body base64-encoded (a binary body). */
  binary: boolean;
}

/**
 * What API Gateway makes of a function's result: a structured result (with statusCode) as given, its
 * body base64-decoded when isBase64Encoded; anything else, a 200 JSON body of the returned value.
 */
export function gatewayAnswer(result: unknown): GatewayAnswer | undefined {
  const structured: APIGatewayProxyStructuredResultV2 =
    typeof result === 'object' && result !== null && 'statusCode' in result
      ? (result as APIGatewayProxyStructuredResultV2)
      : { statusCode: 200, headers: { 'content-type': 'application/json' }, body: typeof result === 'string' ? result : JSON.stringify(result ?? null) };
  if (typeof structured.statusCode !== 'number' || structured.statusCode < 100 || structured.statusCode > 599) return undefined;
  const body = structured.body === undefined ? Buffer.alloc(0) : Buffer.from(structured.body, structured.isBase64Encoded ? 'base64' : 'utf8');
  const headers: GatewayAnswer['headers'] = {};
  for (const [name, value] of Object.entries(structured.headers ?? {})) headers[name.toLowerCase()] = String(value);
  if (structured.cookies?.length) headers['set-cookie'] = structured.cookies;
  return { status: structured.statusCode, headers, body, binary: structured.isBase64Encoded === true };
}

/** Writes a function's answer as the local gateway's response, with API Gateway's own `apigw-requestid` header. */
export function writeGatewayAnswer(response: ServerResponse, answer: GatewayAnswer, gatewayRequestId: string): void {
  response.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.byteLength, 'apigw-requestid': gatewayRequestId });
  response.end(answer.body);
}

/** What the function is told of its time: a function's default limit. */
const TIMEOUT_MS = 10_000;

export interface RouteResponse {
  status: number;
  /** Lowercase names. */
  headers: Record<string, string>;
  /** Text, or bytes for a binary body (one the function sent base64-encoded). */
  body: string | Buffer;
}

/**
 * Calls a route's function as Lambda would, with the event for `target` and a fresh context, and
 * reads its answer as API Gateway would.
 */
export async function invokeRoute(handler: RouteFunction & { readonly route: RouteDefinition }, target: string, options: RouteRequest = {}): Promise<RouteResponse> {
  const event = routeEvent(handler.route, target, options);
  const answer = gatewayAnswer(await handler(event, lambdaContext(handler.route.operationId, TIMEOUT_MS)));
  if (!answer) throw new Error(`${handler.route.operationId} answered a result API Gateway cannot use`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  return { status: answer.status, headers, body: answer.binary ? answer.body : answer.body.toString('utf8') };
}
