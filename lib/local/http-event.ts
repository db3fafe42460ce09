// The API Gateway HTTP API payload format 2.0, both ways: a node:http request becomes the event a
// Lambda handler receives, and the handler's result becomes the HTTP response.
// Reference: https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { LOCAL_ACCOUNT_ID } from './aws.ts';
import type { RouteMatch } from './route-matcher.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (value: number) => (value < 10 ? `0${value}` : String(value));

/** `22/Nov/2026:10:15:30 +0000`, API Gateway's requestContext.time format. */
function gatewayTime(date: Date): string {
  return `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

/** Bodies API Gateway passes as text; any other content type arrives base64-encoded. */
const TEXT_CONTENT_TYPE = /^(?:text\/|application\/(?:[\w.+-]+\+)?(?:json|xml|javascript|x-www-form-urlencoded|graphql)\b)/i;

export function isTextContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && TEXT_CONTENT_TYPE.test(contentType.trimStart());
}

/** A query string's parameters as API Gateway passes them: decoded, a repeated key's values joined with commas. */
export function queryParameters(rawQueryString: string): Record<string, string> | undefined {
  if (rawQueryString === '') return undefined;
  const parameters: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(rawQueryString)) {
    parameters[name] = name in parameters ? `${parameters[name]},${value}` : value;
  }
  return parameters;
}

export function toGatewayEvent(request: IncomingMessage, match: RouteMatch, body: Buffer | undefined): APIGatewayProxyEventV2 {
  const url = request.url ?? '/';
  const queryStart = url.indexOf('?');
  const rawPath = queryStart === -1 ? url : url.slice(0, queryStart);
  const rawQueryString = queryStart === -1 ? '' : url.slice(queryStart + 1);

  // Lowercase names, repeated headers joined with commas; cookies travel separately.
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  const raw = request.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    const name = (raw[index] as string).toLowerCase();
    const value = raw[index + 1] as string;
    if (name === 'cookie') {
      cookies = (cookies ?? []).concat(value.split(/;\s*/).filter((cookie) => cookie !== ''));
      continue;
    }
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }

  // Headers API Gateway adds on its way to the integration.
  const sourceIp = request.socket.remoteAddress ?? '127.0.0.1';
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${sourceIp}` : sourceIp;
  headers['x-forwarded-port'] = String(request.socket.localPort ?? '');
  headers['x-forwarded-proto'] = 'http';

  const now = new Date();
  const host = headers.host ?? 'localhost';
  const domainName = host.replace(/:\d+$/, '');
  const method = request.method ?? 'GET';
  let eventBody: string | undefined;
  let isBase64Encoded = false;
  if (body && body.byteLength > 0) {
    isBase64Encoded = !isTextContentType(headers['content-type']);
    eventBody = body.toString(isBase64Encoded ? 'base64' : 'utf8');
  }

  return {
    version: '2.0',
    routeKey: match.routeKey,
    rawPath,
    rawQueryString,
    cookies,
    headers,
    queryStringParameters: queryParameters(rawQueryString),
    pathParameters: match.pathParameters,
    requestContext: {
      accountId: LOCAL_ACCOUNT_ID,
      apiId: 'local',
      domainName,
      domainPrefix: domainName.split('.')[0] ?? domainName,
      http: {
        method,
        path: rawPath,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: match.routeKey,
      stage: '$default',
      time: gatewayTime(now),
      timeEpoch: now.getTime(),
    },
    body: eventBody,
    isBase64Encoded,
  };
}

/** API Gateway's own error responses (not the handler's). */
export function sendGatewayError(response: ServerResponse, status: number, message: string, requestId: string, close = false): void {
  const body = JSON.stringify({ message });
  const headers: OutgoingHttpHeaders = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'apigw-requestid': requestId,
  };
  if (close) headers.connection = 'close';
  response.writeHead(status, headers);
  response.end(body);
}

/**
 * Writes a handler's result. A structured result (with statusCode) is used as given; anything else
 * is, like API Gateway does, a 200 JSON body of the returned value.
 */
export function writeGatewayResult(response: ServerResponse, result: unknown, requestId: string): void {
  const structured =
    typeof result === 'object' && result !== null && 'statusCode' in result
      ? (result as APIGatewayProxyStructuredResultV2)
      : { statusCode: 200, headers: { 'content-type': 'application/json' }, body: typeof result === 'string' ? result : JSON.stringify(result ?? null) };
  if (typeof structured.statusCode !== 'number' || structured.statusCode < 100 || structured.statusCode > 599) {
    sendGatewayError(response, 500, 'Internal Server Error', requestId);
    return;
  }
  const body = structured.body === undefined ? Buffer.alloc(0) : Buffer.from(structured.body, structured.isBase64Encoded ? 'base64' : 'utf8');
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(structured.headers ?? {})) headers[name.toLowerCase()] = String(value);
  if (structured.cookies?.length) headers['set-cookie'] = structured.cookies;
  headers['content-length'] = body.byteLength;
  headers['apigw-requestid'] = requestId;
  response.writeHead(structured.statusCode, headers);
  response.end(body);
}
