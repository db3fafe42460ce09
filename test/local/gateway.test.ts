// The local gateway: requests become the payload 2.0 events API Gateway would deliver
// (lib/local/lambda-events.ts), functions' structured results become responses, and API Gateway's own
// limits and errors apply.
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RouteDefinition } from '../../shared/http/route-table.ts';
import { MAX_PAYLOAD_BYTES, startGateway, type Gateway } from '../../lib/local/gateway.ts';

const FIXTURE_HANDLER = 'test/local/fixtures/gateway-handler.ts';
const FALLBACK_HANDLER = 'test/local/fixtures/gateway-fallback.ts';

function fixtureRoute(operationId: string, method: RouteDefinition['method'], path: string, handler = FIXTURE_HANDLER): RouteDefinition {
  return {
    operationId,
    method,
    path,
    handler,
    summary: operationId,
    description: operationId,
    tag: 'Operations',
    auth: 'public',
    roles: ['buyer', 'seller'],
    scope: null,
    rateLimited: false,
    request: {},
    response: { status: 200, description: operationId },
    handlerErrors: [],
    tableActions: [],
  };
}

const fixtureRoutes = [
  fixtureRoute('getItem', 'GET', '/fixture/items/{id}'),
  fixtureRoute('getSpecialItem', 'GET', '/fixture/items/special'),
  fixtureRoute('createItem', 'POST', '/fixture/items'),
  fixtureRoute('getFile', 'GET', '/fixture/files/{path+}'),
  fixtureRoute('crash', 'GET', '/fixture/crash'),
  fixtureRoute('slow', 'GET', '/fixture/slow'),
  fixtureRoute('binary', 'GET', '/fixture/binary'),
  fixtureRoute('unusable', 'GET', '/fixture/unusable'),
  fixtureRoute('plain', 'GET', '/fixture/plain'),
];

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json: any;
}

function send(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: Buffer | string; localAddress?: string } = {},
): Promise<RawResponse> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { method, hostname: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, headers: options.headers, localAddress: options.localAddress },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          let json: unknown;
          try {
            json = JSON.parse(body.toString('utf8'));
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, json });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startGateway({
    port: 0,
    routes: fixtureRoutes,
    fallback: fixtureRoute('fallback', 'GET', '/{proxy+}', FALLBACK_HANDLER),
    timeoutMs: 300,
    logError: () => undefined, // the crash and timeout below are expected
  });
});

afterAll(async () => {
  await gateway.stop();
});

describe('HTTP request → payload 2.0 event', () => {
  it('carries the path, query, path parameters, headers, cookies, source address and remaining time', async () => {
    const response = await send(gateway.url, 'GET', '/fixture/items/abc%20d?x=1&x=2&y=a%2Bb&empty=', {
      headers: { 'X-Custom': 'One', Cookie: 'a=1; b=2', 'User-Agent': 'gateway-test' },
      localAddress: '127.0.0.9',
    });
    expect(response.status).toBe(200);
    const { event, remainingMs } = response.json;
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /fixture/items/{id}',
      rawPath: '/fixture/items/abc%20d',
      rawQueryString: 'x=1&x=2&y=a%2Bb&empty=',
      queryStringParameters: { x: '1,2', y: 'a+b', empty: '' },
      pathParameters: { id: 'abc d' },
      cookies: ['a=1', 'b=2'],
      isBase64Encoded: false,
      requestContext: { http: { method: 'GET', path: '/fixture/items/abc%20d', sourceIp: '127.0.0.9', userAgent: 'gateway-test' }, stage: '$default', routeKey: 'GET /fixture/items/{id}' },
    });
    expect(event.headers).toMatchObject({ 'x-custom': 'One', 'user-agent': 'gateway-test', 'x-forwarded-for': '127.0.0.9', 'x-forwarded-proto': 'http' });
    expect(event.headers.cookie).toBeUndefined(); // moved to `cookies`, as API Gateway does
    expect(event.body).toBeUndefined();
    expect(response.headers['apigw-requestid']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers['apigw-requestid']).toBe(event.requestContext.requestId);
    expect(remainingMs).toBeGreaterThan(0);
    expect(remainingMs).toBeLessThanOrEqual(300);
  });

  it('joins a repeated header with commas and repeated Cookie headers with semicolons, as API Gateway does', async () => {
    const response = await new Promise<any>((resolve, reject) => {
      const url = new URL('/fixture/items/1', gateway.url);
      const outgoing = request({ hostname: url.hostname, port: url.port, path: url.pathname, headers: { 'X-Tag': ['a', 'b'], Cookie: ['a=1', 'b=2'] } }, (incoming) => {
        let text = '';
        incoming.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        incoming.on('end', () => resolve(JSON.parse(text)));
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
    expect(response.event.headers).toMatchObject({ 'x-tag': 'a,b' });
    expect(response.event.cookies).toEqual(['a=1', 'b=2']);
  });

  it('prefers an exact path over a parameter, and matches greedy parameters across segments', async () => {
    expect((await send(gateway.url, 'GET', '/fixture/items/special')).json.event.pathParameters).toBeUndefined();
    expect((await send(gateway.url, 'GET', '/fixture/files/a/b/c.csv')).json.event.pathParameters).toEqual({ path: 'a/b/c.csv' });
  });

  it('passes text bodies as UTF-8 text (malformed bytes as U+FFFD) and other bodies base64-encoded', async () => {
    const text = await send(gateway.url, 'POST', '/fixture/items', { headers: { 'Content-Type': 'application/json' }, body: '{"name":"ä"}' });
    expect(text.json.event).toMatchObject({ body: '{"name":"ä"}', isBase64Encoded: false });
    const malformed = await send(gateway.url, 'POST', '/fixture/items', { headers: { 'Content-Type': 'text/csv' }, body: Buffer.from([0x61, 0xff, 0x62]) });
    expect(malformed.json.event).toMatchObject({ body: 'a\ufffdb', isBase64Encoded: false });
    const bytes = Buffer.from([0, 159, 146, 150, 255]);
    const binary = await send(gateway.url, 'POST', '/fixture/items', { headers: { 'Content-Type': 'application/octet-stream' }, body: bytes });
    expect(binary.json.event.isBase64Encoded).toBe(true);
    expect(Buffer.from(binary.json.event.body, 'base64')).toEqual(bytes);
  });

  it('sends unknown paths and wrong methods to the $default route', async () => {
    for (const [method, path] of [
      ['GET', '/nothing/here'],
      ['DELETE', '/fixture/items/1'],
      ['PUT', '/fixture/items'],
      ['GET', '/fixture/items/1/'],
    ] as const) {
      const response = await send(gateway.url, method, path);
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ fallback: true, method, path, routeKey: '$default' });
    }
  });
});

describe('structured result → response', () => {
  it('writes status, headers, cookies and base64-encoded bodies as their bytes', async () => {
    const response = await send(gateway.url, 'GET', '/fixture/binary');
    expect(response.status).toBe(201);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['x-fixture']).toBe('yes');
    expect(response.headers['set-cookie']).toEqual(['session=abc; Path=/', 'theme=dark']);
    expect(response.headers['content-length']).toBe('5');
    expect(response.body).toEqual(Buffer.from([0, 1, 2, 254, 255]));
  });

  it('answers a value that is not a structured result as a 200 JSON body, as API Gateway does', async () => {
    const response = await send(gateway.url, 'GET', '/fixture/plain');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.json).toEqual({ plain: true });
  });
});

describe("API Gateway's own errors", () => {
  it('answers a handler that throws with 500 Internal Server Error', async () => {
    const response = await send(gateway.url, 'GET', '/fixture/crash');
    expect(response.status).toBe(500);
    expect(response.json).toEqual({ message: 'Internal Server Error' });
  });

  it('answers a result with a status code that is not one with 500 Internal Server Error', async () => {
    const response = await send(gateway.url, 'GET', '/fixture/unusable');
    expect(response.status).toBe(500);
    expect(response.json).toEqual({ message: 'Internal Server Error' });
  });

  it('answers a handler past the integration timeout with 503', async () => {
    const response = await send(gateway.url, 'GET', '/fixture/slow');
    expect(response.status).toBe(503);
    expect(response.json).toEqual({ message: 'Service Unavailable' });
  });

  it('refuses bodies over 10 MB with 413, whether declared or streamed', async () => {
    const tooLarge = Buffer.alloc(MAX_PAYLOAD_BYTES + 1, 'a');
    const declared = await send(gateway.url, 'POST', '/fixture/items', { headers: { 'Content-Type': 'text/plain' }, body: tooLarge });
    expect(declared.status).toBe(413);
    expect(declared.json).toEqual({ message: 'Request Entity Too Large' });
    const streamed = await send(gateway.url, 'POST', '/fixture/items', {
      headers: { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' },
      body: tooLarge,
    });
    expect(streamed.status).toBe(413);
    const atLimit = await send(gateway.url, 'POST', '/fixture/items', { headers: { 'Content-Type': 'text/plain' }, body: tooLarge.subarray(1) });
    expect(atLimit.status).toBe(200);
  });
});

describe('the real route table', () => {
  it('answers unknown paths with the fallback handler’s 404 JSON, and known paths with other methods with its 405', async () => {
    const baseUrl = inject('baseUrl');
    const unknown = await send(baseUrl, 'GET', '/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/json/);
    expect(unknown.json).toMatchObject({ code: 'not-found', status: 404 });
    const wrongMethod = await send(baseUrl, 'DELETE', '/v1/agents/me');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, PATCH');
    expect(wrongMethod.json).toMatchObject({ code: 'method-not-allowed', status: 405 });
  });

  it('serves a route with a path parameter', async () => {
    const response = await send(inject('baseUrl'), 'GET', '/v1/webhooks/whk_01JF3Q5Z8X2C7V9B4N6M1K0PQR');
    expect(response.status).toBe(401); // matched the route: its key check answered, not the fallback
    expect(response.json).toMatchObject({ code: 'auth/invalid-key' });
  });
});

describe('protocol errors, answered in the contract’s error shape', () => {
  /** Writes raw bytes to the runtime's port; resolves with everything read until the server closes. */
  function rawExchange(baseUrl: string, payload: string): Promise<{ status: number; headers: string; body: Record<string, unknown> }> {
    const { hostname, port } = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => socket.write(payload));
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      socket.on('error', reject);
      socket.on('close', () => {
        const [head = '', body = ''] = received.split('\r\n\r\n');
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
        try {
          resolve({ status, headers: head.toLowerCase(), body: JSON.parse(body) as Record<string, unknown> });
        } catch {
          reject(new Error(`not a JSON error body: ${JSON.stringify(received.slice(0, 500))}`));
        }
      });
    });
  }

  const host = (baseUrl: string) => new URL(baseUrl).host;

  it('answers headers over 16 KB with 431 request/headers-too-large', async () => {
    const baseUrl = inject('baseUrl');
    const response = await rawExchange(baseUrl, `GET /health HTTP/1.1\r\nHost: ${host(baseUrl)}\r\nX-Padding: ${'a'.repeat(17 * 1024)}\r\n\r\n`);
    expect(response.status).toBe(431);
    expect(response.headers).toContain('content-type: application/json');
    expect(response.body).toMatchObject({ code: 'request/headers-too-large', status: 431, requestId: expect.stringMatching(/^req_/), error: expect.stringContaining('16 KB') });
  });

  it.each([
    ['a Content-Length that is not a number', 'Content-Length: ten\r\n'],
    ['two different Content-Lengths', 'Content-Length: 2\r\nContent-Length: 3\r\n'],
    ['Content-Length together with Transfer-Encoding', 'Content-Length: 2\r\nTransfer-Encoding: chunked\r\n'],
  ])('answers %s with 400 request/malformed', async (_, framing) => {
    const baseUrl = inject('baseUrl');
    const response = await rawExchange(baseUrl, `POST /v1/agents/register HTTP/1.1\r\nHost: ${host(baseUrl)}\r\nContent-Type: application/json\r\n${framing}\r\n{}`);
    expect(response.status).toBe(400);
    expect(response.headers).toContain('connection: close');
    expect(response.body).toMatchObject({ code: 'request/malformed', status: 400, requestId: expect.stringMatching(/^req_/), error: expect.stringContaining('Content-Length') });
  });
});
