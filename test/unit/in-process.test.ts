// The in-process adapter (lib/local/in-process.ts): the plain request the tests and benches hand an
// operation is the one API Gateway would deliver for the same HTTP request.
import { describe, expect, it } from 'vitest';
import { operationOf, operationRequest } from '../../lib/local/in-process.ts';
import { handler as testWebhook } from '../../functions/webhooks/test.ts';
import { route as listOrders } from '../../functions/orders/list.route.ts';
import { route as testWebhookRoute } from '../../functions/webhooks/test.route.ts';

describe('operationRequest', () => {
  it('takes the method from the route, matches and decodes path parameters, and splits off the query', () => {
    const request = operationRequest(testWebhookRoute, '/v1/webhooks/whk_a%20b/test?x=1&x=2&y=a%2Bb&empty=');
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/webhooks/whk_a%20b/test',
      params: { id: 'whk_a b' },
      rawQuery: 'x=1&x=2&y=a%2Bb&empty=',
      query: { x: '1,2', y: 'a+b', empty: '' },
      body: undefined,
      sourceIp: '198.51.100.7',
    });
  });

  it('lowercases header names, sends the key as a bearer token and a JSON body with its content type', () => {
    const request = operationRequest(listOrders, '/v1/orders', { headers: { 'Idempotency-Key': 'k1', Accept: 'text/csv' }, apiKey: 'mk_test_x', body: { a: 1 }, sourceIp: '203.0.113.4' });
    expect(request.headers).toEqual({ 'idempotency-key': 'k1', accept: 'text/csv', authorization: 'Bearer mk_test_x', 'content-type': 'application/json' });
    expect(request.body?.toString('utf8')).toBe('{"a":1}');
    expect(request.sourceIp).toBe('203.0.113.4');
    expect(request.query).toEqual({});
  });

  it('sends strings and bytes as they are, keeping a given content type', () => {
    const csv = operationRequest(listOrders, '/v1/orders', { headers: { 'Content-Type': 'text/csv' }, body: 'sku,name\n' });
    expect(csv.headers['content-type']).toBe('text/csv');
    expect(csv.body?.toString('utf8')).toBe('sku,name\n');
    const bytes = Buffer.from([0, 255]);
    expect(operationRequest(listOrders, '/v1/orders', { body: bytes }).body).toBe(bytes);
  });

  it('refuses a path the route does not serve', () => {
    expect(() => operationRequest(listOrders, '/v1/orders/ord_1')).toThrow('/v1/orders/ord_1 is not a path of GET /v1/orders');
  });
});

describe('operationOf', () => {
  it('finds the operation a function’s handler carries, for its own route', () => {
    expect(operationOf(testWebhook).route).toBe(testWebhookRoute);
    expect(operationOf(operationOf(testWebhook))).toBe(testWebhook.operation);
  });
});
