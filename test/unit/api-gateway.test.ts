// A function's Lambda entry point (apiHandler, a Middy handler) on API Gateway HTTP API payload 2.0
// events as API Gateway sends them (its documentation's example, trimmed): what the route's
// implementation is handed, and the structured result API Gateway writes back. A public route
// without a rate limit, so that nothing here needs the table.
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lambdaContext } from '../../lib/local/lambda.ts';
import { apiHandler, type ApiRequest } from '../../shared/http/handler.ts';
import { defineRoute } from '../../shared/http/route-table.ts';

const echoRoute = defineRoute({
  operationId: 'testEcho',
  method: 'POST',
  path: '/v1/webhooks/{id}/test',
  handler: 'test/unit/api-gateway.test.ts',
  summary: 'test',
  description: 'Echoes what its implementation is handed.',
  tag: 'Operations',
  auth: 'public',
  roles: ['buyer', 'seller'],
  scope: null,
  rateLimited: false,
  request: { params: z.strictObject({ id: z.string() }), query: z.strictObject({ tag: z.string().optional(), q: z.string().optional() }), body: z.strictObject({ note: z.string() }).optional() },
  response: { status: 200, description: 'ok' },
  handlerErrors: [],
  tableActions: [],
});

function gatewayEvent(overrides: Partial<APIGatewayProxyEventV2> = {}): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /v1/webhooks/{id}/test',
    rawPath: '/v1/webhooks/whk_01JF3Q5Z8X2C7V9B4N6M1K0PQR/test',
    rawQueryString: 'tag=a&tag=b&q=caf%C3%A9+au+lait',
    cookies: ['session=abc', 'theme=dark'],
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      'x-forwarded-for': '203.0.113.9, 10.0.0.1',
      'x-custom': 'one,two',
    },
    queryStringParameters: { tag: 'a,b', q: 'café au lait' },
    pathParameters: { id: 'whk_01JF3Q5Z8X2C7V9B4N6M1K0PQR' },
    requestContext: {
      accountId: '123456789012',
      apiId: 'api-id',
      domainName: 'id.execute-api.eu-central-1.amazonaws.com',
      domainPrefix: 'id',
      http: { method: 'POST', path: '/v1/webhooks/whk_01JF3Q5Z8X2C7V9B4N6M1K0PQR/test', protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'agent/1.0' },
      requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
      routeKey: 'POST /v1/webhooks/{id}/test',
      stage: '$default',
      time: '12/Mar/2026:19:03:58 +0000',
      timeEpoch: 1_773_342_238_000,
    },
    body: '{"note":"grüße"}',
    isBase64Encoded: false,
    ...overrides,
  };
}

type Seen = ApiRequest<typeof echoRoute>;

/** The handler, and what its implementation was handed on the last call. */
function echo(answer: () => ReturnType<Parameters<typeof apiHandler<typeof echoRoute>>[1]> = () => Promise.resolve({ data: {} })) {
  const seen: { request?: Seen } = {};
  const handler = apiHandler(echoRoute, (request) => {
    seen.request = request;
    return answer();
  });
  return { handler, seen };
}

const context = (): Context => lambdaContext('testEcho', 10_000);

describe('what the implementation is handed', () => {
  it('decoded path parameters and query (a repeated key’s values joined by API Gateway), headers, source address and the JSON body', async () => {
    const { handler, seen } = echo();
    expect((await handler(gatewayEvent(), context())).statusCode).toBe(200);
    expect(seen.request).toMatchObject({
      params: { id: 'whk_01JF3Q5Z8X2C7V9B4N6M1K0PQR' },
      query: { tag: 'a,b', q: 'café au lait' },
      body: { note: 'grüße' },
      sourceIp: '203.0.113.9',
      requestId: expect.stringMatching(/^req_/),
    });
    expect(seen.request?.headers['x-custom']).toBe('one,two'); // a repeated header, joined by API Gateway
    expect(seen.request?.headers.accept).toBe('application/json');
  });

  it('the cookies API Gateway moved to `cookies` back in one Cookie header', async () => {
    const { handler, seen } = echo();
    await handler(gatewayEvent(), context());
    expect(seen.request?.headers.cookie).toBe('session=abc; theme=dark');
    await handler(gatewayEvent({ cookies: undefined }), context());
    expect(seen.request?.headers.cookie).toBeUndefined();
  });

  it('a base64-encoded JSON body decoded', async () => {
    const { handler, seen } = echo();
    await handler(gatewayEvent({ body: Buffer.from('{"note":"b64"}').toString('base64'), isBase64Encoded: true }), context());
    expect(seen.request?.body).toEqual({ note: 'b64' });
  });

  it('nothing for what a request without query, parameters or body leaves out', async () => {
    const { handler, seen } = echo();
    const response = await handler(
      gatewayEvent({ rawQueryString: '', queryStringParameters: undefined, body: undefined, cookies: undefined, headers: {} }),
      context(),
    );
    expect(response.statusCode).toBe(200);
    expect(seen.request).toMatchObject({ query: {}, body: undefined, headers: {} });
  });
});

describe('the structured result', () => {
  it('is the envelope as text, with the request id and content type', async () => {
    const { handler } = echo(() => Promise.resolve({ status: 201, data: { ok: true } }));
    const result = await handler(gatewayEvent(), context());
    expect(result.statusCode).toBe(201);
    expect(result.headers).toMatchObject({ 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': expect.stringMatching(/^req_/) });
    expect(JSON.parse(result.body!)).toMatchObject({ data: { ok: true }, meta: { requestId: result.headers!['X-Request-Id'] } });
    expect('isBase64Encoded' in result).toBe(false);
  });

  it('carries a binary body base64-encoded, as API Gateway expects', async () => {
    const bytes = Buffer.from([31, 139, 8, 0, 255]);
    const { handler } = echo(() => Promise.resolve({ raw: { body: bytes, contentType: 'application/gzip' }, headers: { 'Content-Encoding': 'gzip' } }));
    const result = await handler(gatewayEvent(), context());
    expect(result).toMatchObject({ statusCode: 200, body: bytes.toString('base64'), isBase64Encoded: true });
    expect(result.headers).toMatchObject({ 'Content-Type': 'application/gzip', 'Content-Encoding': 'gzip' });
  });

  it('is the contract’s error for a refusal, and is still answered when Lambda has almost no time left (no early time-out of Middy’s)', async () => {
    const { handler } = echo(() => new Promise((resolve) => setTimeout(() => resolve({ data: { late: true } }), 20)));
    const refused = await handler(gatewayEvent({ body: '{"note":1}' }), context());
    expect(refused.statusCode).toBe(422);
    expect(JSON.parse(refused.body!)).toMatchObject({ code: 'validation/invalid', details: [{ path: 'note' }] });
    const late = await handler(gatewayEvent(), { ...context(), getRemainingTimeInMillis: () => 1 });
    expect(late.statusCode).toBe(200);
    expect(JSON.parse(late.body!).data).toEqual({ late: true });
  });
});
