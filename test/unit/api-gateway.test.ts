// The Lambda adapter (shared/http/api-gateway.ts): API Gateway HTTP API payload 2.0 events become the
// runner's plain request, and its plain response the structured result API Gateway writes back. The
// events are written out as API Gateway sends them (its documentation's example, trimmed).
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { Invocation, OperationRequest, OperationResponse } from '../../shared/http/api-state.ts';
import { lambdaHandler, requestFromEvent, resultFromResponse } from '../../shared/http/api-gateway.ts';
import type { Operation } from '../../shared/http/operation.ts';
import { route as healthRoute } from '../../functions/health/get.route.ts';

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

describe('requestFromEvent', () => {
  it('carries method, path, headers, decoded parameters and the raw query string', () => {
    const request = requestFromEvent(gatewayEvent());
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/webhooks/whk_01JF3Q5Z8X2C7V9B4N6M1K0PQR/test',
      params: { id: 'whk_01JF3Q5Z8X2C7V9B4N6M1K0PQR' },
      query: { tag: 'a,b', q: 'café au lait' }, // a repeated key's values, joined by API Gateway
      rawQuery: 'tag=a&tag=b&q=caf%C3%A9+au+lait',
      sourceIp: '203.0.113.9',
    });
    expect(request.headers['x-custom']).toBe('one,two'); // a repeated header, joined by API Gateway
    expect(request.headers.accept).toBe('application/json');
  });

  it('puts the cookies API Gateway moved to `cookies` back into one Cookie header', () => {
    expect(requestFromEvent(gatewayEvent()).headers.cookie).toBe('session=abc; theme=dark');
    expect(requestFromEvent(gatewayEvent({ cookies: undefined })).headers.cookie).toBeUndefined();
  });

  it('reads a text body as UTF-8 and a base64-encoded body as its bytes', () => {
    expect(requestFromEvent(gatewayEvent()).body?.toString('utf8')).toBe('{"note":"grüße"}');
    const bytes = Buffer.from([0, 159, 146, 150, 255]);
    const binary = requestFromEvent(gatewayEvent({ body: bytes.toString('base64'), isBase64Encoded: true }));
    expect(binary.body).toEqual(bytes);
  });

  it('fills what a GET without query, parameters or body leaves out', () => {
    const request = requestFromEvent(
      gatewayEvent({ rawQueryString: '', queryStringParameters: undefined, pathParameters: undefined, body: undefined, cookies: undefined, headers: {} }),
    );
    expect(request).toMatchObject({ query: {}, params: {}, rawQuery: '', body: undefined, headers: {} });
  });
});

describe('resultFromResponse', () => {
  it('returns a text body as it is', () => {
    const response: OperationResponse = { status: 201, headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': 'req_1' }, body: '{"data":{}}' };
    const result = resultFromResponse(response);
    expect(result).toEqual({ statusCode: 201, headers: response.headers, body: '{"data":{}}' });
    expect('isBase64Encoded' in result).toBe(false);
  });

  it('returns a binary body base64-encoded, as API Gateway expects', () => {
    const bytes = Buffer.from([31, 139, 8, 0, 255]);
    expect(resultFromResponse({ status: 200, headers: { 'Content-Encoding': 'gzip' }, body: bytes })).toEqual({
      statusCode: 200,
      headers: { 'Content-Encoding': 'gzip' },
      body: bytes.toString('base64'),
      isBase64Encoded: true,
    });
  });
});

describe('lambdaHandler', () => {
  it('runs the operation on the event and answers a structured result, telling it the time Lambda has left', async () => {
    const seen: { request?: OperationRequest; remaining?: number } = {};
    const operation: Operation = {
      route: healthRoute,
      run: (request: OperationRequest, invocation?: Invocation) => {
        seen.request = request;
        seen.remaining = invocation?.remainingMs?.();
        return Promise.resolve({ status: 202, headers: { 'X-Request-Id': 'req_2' }, body: Buffer.from('ok') });
      },
    };
    const context = { getRemainingTimeInMillis: () => 4_321 } as Context;
    const result = await lambdaHandler(operation)(gatewayEvent(), context);
    expect(result).toEqual({ statusCode: 202, headers: { 'X-Request-Id': 'req_2' }, body: Buffer.from('ok').toString('base64'), isBase64Encoded: true });
    expect(seen.request?.path).toBe('/v1/webhooks/whk_01JF3Q5Z8X2C7V9B4N6M1K0PQR/test');
    expect(seen.remaining).toBe(4_321);
  });
});
