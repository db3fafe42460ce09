// The one builder of API Gateway payload 2.0 events (lib/local/lambda-events.ts): the event the tests
// and benches hand a route's function is the one API Gateway would deliver for the same HTTP request,
// and the function's structured result is read back as API Gateway reads it.
import { describe, expect, it } from 'vitest';
import { gatewayAnswer, routeEvent } from '../../lib/local/lambda-events.ts';
import { route as listOrders } from '../../functions/orders/list.route.ts';
import { route as testWebhookRoute } from '../../functions/webhooks/test.route.ts';

describe('routeEvent', () => {
  it('takes the method from the route, matches and decodes path parameters, and splits off the query', () => {
    const event = routeEvent(testWebhookRoute, '/v1/webhooks/whk_a%20b/test?x=1&x=2&y=a%2Bb&empty=');
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'POST /v1/webhooks/{id}/test',
      rawPath: '/v1/webhooks/whk_a%20b/test',
      pathParameters: { id: 'whk_a b' },
      rawQueryString: 'x=1&x=2&y=a%2Bb&empty=',
      queryStringParameters: { x: '1,2', y: 'a+b', empty: '' },
      isBase64Encoded: false,
      requestContext: { http: { method: 'POST', path: '/v1/webhooks/whk_a%20b/test', sourceIp: '198.51.100.7' }, stage: '$default' },
    });
    expect(event.body).toBeUndefined();
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lowercases header names, sends the key as a bearer token, a JSON body with its content type, and the forwarding headers', () => {
    const event = routeEvent(listOrders, '/v1/orders', { headers: { 'Idempotency-Key': 'k1', Accept: 'text/csv' }, apiKey: 'mk_test_x', body: { a: 1 }, sourceIp: '203.0.113.4' });
    expect(event.headers).toEqual({
      'idempotency-key': 'k1',
      accept: 'text/csv',
      authorization: 'Bearer mk_test_x',
      'content-type': 'application/json',
      'x-forwarded-for': '203.0.113.4',
      'x-forwarded-port': '443',
      'x-forwarded-proto': 'https',
    });
    expect(event.body).toBe('{"a":1}');
    expect(event.requestContext.http.sourceIp).toBe('203.0.113.4');
    expect(event.queryStringParameters).toBeUndefined();
  });

  it('moves cookies to `cookies`, as API Gateway does', () => {
    const event = routeEvent(listOrders, '/v1/orders', { headers: { Cookie: 'a=1; b=2' } });
    expect(event.cookies).toEqual(['a=1', 'b=2']);
    expect(event.headers.cookie).toBeUndefined();
  });

  it('sends text as it is, keeping a given content type, and bytes of other types base64-encoded', () => {
    const csv = routeEvent(listOrders, '/v1/orders', { headers: { 'Content-Type': 'text/csv' }, body: 'sku,name\n' });
    expect(csv.headers['content-type']).toBe('text/csv');
    expect(csv).toMatchObject({ body: 'sku,name\n', isBase64Encoded: false });
    const bytes = Buffer.from([0, 255]);
    const binary = routeEvent(listOrders, '/v1/orders', { headers: { 'Content-Type': 'application/octet-stream' }, body: bytes });
    expect(binary.isBase64Encoded).toBe(true);
    expect(Buffer.from(binary.body!, 'base64')).toEqual(bytes);
  });

  it('refuses a path the route does not serve', () => {
    expect(() => routeEvent(listOrders, '/v1/orders/ord_1')).toThrow('/v1/orders/ord_1 is not a path of GET /v1/orders');
  });
});

describe('gatewayAnswer', () => {
  it('reads a structured result: lowercase headers, cookies as set-cookie, a base64 body as its bytes', () => {
    const answer = gatewayAnswer({ statusCode: 201, headers: { 'Content-Encoding': 'gzip' }, cookies: ['a=1'], body: Buffer.from([31, 139]).toString('base64'), isBase64Encoded: true });
    expect(answer).toEqual({ status: 201, headers: { 'content-encoding': 'gzip', 'set-cookie': ['a=1'] }, body: Buffer.from([31, 139]), binary: true });
  });

  it('takes any other value as a 200 JSON body, and refuses a status that is not one', () => {
    expect(gatewayAnswer({ ok: true })).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"ok":true}') });
    expect(gatewayAnswer({ statusCode: 700 })).toBeUndefined();
  });
});
