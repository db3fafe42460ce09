// Platform behaviour every endpoint shares, over real HTTP: unknown routes, rate limits,
// idempotency, headers, the OpenAPI document and the readiness probe.
import { describe, expect, it } from 'vitest';
import { TestClient, awaitFreshMinute, registerAgent, registration } from '../support/http-client.ts';
import { newClient } from '../support/runtime.ts';
import { expectError } from '../support/assertions.ts';

const client = newClient();

describe('unknown routes and methods', () => {
  it.each([
    ['GET', '/v1/nothing-here'],
    ['GET', '/v1'],
    ['GET', '/v2/agents/me'],
    ['DELETE', '/v1/orders/'],
    ['GET', '/v1/orders/ord_1/nothing'],
    ['OPTIONS', '/v1/nothing-here'],
  ])('%s %s (no such path) is 404 not-found', async (method, path) => {
    const response = await client.send(method, path);
    expectError(response, 404, 'not-found');
    expect(response.headers.allow).toBeUndefined();
    expect(response.headers['x-ratelimit-limit']).toBeDefined();
  });

  it.each([
    ['DELETE', '/v1/orders/ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR', 'GET'],
    ['GET', '/v1/create-order', 'POST'],
    ['POST', '/', 'GET'],
    ['PUT', '/v1/agents/me', 'GET, PATCH'],
    ['DELETE', '/v1/agents/me', 'GET, PATCH'],
    ['POST', '/v1/webhooks/whk_01JF3Q5Z8X2C7V9B4N6M1K0PQR', 'DELETE, GET, PATCH'],
    ['GET', '/v1/negotiate/neg_01JF3Q5Z8X2C7V9B4N6M1K0PQR/accept', 'POST'],
    ['PATCH', '/v1/orders', 'GET'],
    ['GET', '/v1/search', 'POST'],
  ])('%s %s (a known path) is 405 method-not-allowed with Allow: %s', async (method, path, allow) => {
    const response = await client.send(method, path);
    expectError(response, 405, 'method-not-allowed');
    expect(response.headers.allow).toBe(allow);
    expect(response.json.error).toContain(method);
    expect(response.headers['x-request-id']).toBe(response.json.requestId);
    expect(response.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('answers the same with a key, before looking at the key or the id', async () => {
    const { apiKey } = await registerAgent(client);
    expectError(await client.send('DELETE', '/v1/orders/ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR', { apiKey }), 405, 'method-not-allowed');
    expectError(await client.send('DELETE', '/v1/orders/ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR', { apiKey: 'mk_test_not-a-key' }), 405, 'method-not-allowed');
  });

  it('answers HEAD on a GET path with 405 and Allow, and OPTIONS on a known path with 204 and Allow', async () => {
    const head = await client.send('HEAD', '/v1/orders/ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR');
    expect(head.status).toBe(405);
    expect(head.headers.allow).toBe('GET');
    expect(head.text).toBe('');
    const options = await client.send('OPTIONS', '/v1/webhooks/whk_01JF3Q5Z8X2C7V9B4N6M1K0PQR');
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe('DELETE, GET, PATCH');
    expect(options.text).toBe('');
    expect(options.headers['x-request-id']).toMatch(/^req_/);
    expect(options.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('rate limits', () => {
  // Ten at a time, so that the minute's window holds all 61 requests on a loaded machine too.
  it('lets 60 requests a minute through on Free and answers the 61st with 429', { timeout: 120_000 }, async () => {
    const { apiKey } = await registerAgent(client);
    await awaitFreshMinute(40);
    const remaining: number[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const responses = await Promise.all(Array.from({ length: 10 }, () => client.get('/v1/agents/me', { apiKey })));
      for (const response of responses) {
        expect(response.status).toBe(200);
        expect(response.headers['x-ratelimit-limit']).toBe('60');
        remaining.push(Number(response.headers['x-ratelimit-remaining']));
      }
    }
    // Each request counted once: every count from 59 down to 0 answered exactly once.
    expect(remaining.sort((a, b) => b - a)).toEqual(Array.from({ length: 60 }, (_, index) => 59 - index));
    const limited = await client.get('/v1/agents/me', { apiKey });
    expectError(limited, 429, 'rate-limit');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    const reset = Number(limited.headers['x-ratelimit-reset']);
    expect(reset % 60).toBe(0);
    expect(reset - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(60);
  });

  it('lets exactly the allowed number of parallel requests through', async () => {
    const { apiKey } = await registerAgent(client);
    await awaitFreshMinute(25);
    const responses = await Promise.all(Array.from({ length: 90 }, () => client.get('/v1/agents/me', { apiKey })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
  });

  it('limits requests without a valid key per source address at Free rates, errors included', async () => {
    const anonymous = new TestClient(client.baseUrl);
    await awaitFreshMinute(25);
    const responses = await Promise.all(Array.from({ length: 61 }, () => anonymous.get('/v1/agents/me', { apiKey: 'mk_test_wrong' })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(60);
    expect(statuses.filter((status) => status === 429)).toHaveLength(1);
    // Another address has its own window.
    expect((await new TestClient(client.baseUrl).get('/v1/agents/me')).status).toBe(401);
  });

  it('reports the window closer to exhaustion on every response, errors included', async () => {
    const { apiKey } = await registerAgent(client);
    await awaitFreshMinute(10);
    const ok = await client.get('/v1/agents/me', { apiKey });
    const invalid = await client.patch('/v1/agents/me', { role: 'x' }, { apiKey });
    for (const response of [ok, invalid]) {
      expect(response.headers['x-ratelimit-limit']).toBe('60');
      expect(Number(response.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    }
    expect(Number(invalid.headers['x-ratelimit-remaining'])).toBe(Number(ok.headers['x-ratelimit-remaining']) - 1);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and request, without running it twice', async () => {
    const body = registration();
    const headers = { 'idempotency-key': `reg-${Date.now()}-${Math.random()}` };
    const first = await client.post('/v1/agents/register', body, { headers });
    const second = await client.post('/v1/agents/register', body, { headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json.data).toEqual(first.json.data);
    expect(second.json.meta.requestId).not.toBe(first.json.meta.requestId);
    expect((await client.get('/v1/agents/me', { apiKey: first.json.data.apiKey })).status).toBe(200);
  });

  it('answers 409 for the same key with a different request', async () => {
    const headers = { 'idempotency-key': `reg-${Date.now()}-${Math.random()}` };
    expect((await client.post('/v1/agents/register', registration(), { headers })).status).toBe(201);
    const reused = await client.post('/v1/agents/register', registration(), { headers });
    expectError(reused, 409, 'idempotency/conflict');
  });

  it('replays stored 4xx answers of a request that ran', async () => {
    const { apiKey } = await registerAgent(client);
    const headers = { 'idempotency-key': 'hooks-1' };
    for (let i = 0; i < 20; i++) await client.post('/v1/webhooks', { url: 'https://a.example/h', events: ['*'], secret: 'sixteen-chars-ok' }, { apiKey });
    const body = { url: 'https://a.example/h', events: ['*'], secret: 'sixteen-chars-ok' };
    const first = await client.post('/v1/webhooks', body, { apiKey, headers });
    expectError(first, 409, 'conflict');
    const list = (await client.get('/v1/webhooks?limit=1', { apiKey })).json.data.items;
    await client.delete(`/v1/webhooks/${list[0].id}`, { apiKey });
    const replay = await client.post('/v1/webhooks', body, { apiKey, headers });
    expectError(replay, 409, 'conflict');
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('stores nothing for a request that failed validation', async () => {
    const headers = { 'idempotency-key': `bad-${Date.now()}-${Math.random()}` };
    expectError(await client.post('/v1/agents/register', { name: 'x' }, { headers }), 422, 'validation/invalid');
    expect((await client.post('/v1/agents/register', registration(), { headers })).status).toBe(201);
  });

  it('scopes keys per caller', async () => {
    const a = await registerAgent(client);
    const b = await registerAgent(client);
    const headers = { 'idempotency-key': 'same-key-for-both' };
    const rotatedA = await client.post('/v1/agents/me/rotate-key', undefined, { apiKey: a.apiKey, headers });
    const rotatedB = await client.post('/v1/agents/me/rotate-key', undefined, { apiKey: b.apiKey, headers });
    expect(rotatedA.status).toBe(200);
    expect(rotatedB.status).toBe(200);
    expect(rotatedB.headers['idempotent-replayed']).toBeUndefined();
    expect(rotatedB.json.data.agentId).toBe(b.agentId);
  });

  it('refuses keys longer than 255 characters', async () => {
    const response = await client.post('/v1/agents/register', registration(), { headers: { 'idempotency-key': 'k'.repeat(256) } });
    expectError(response, 422, 'validation/invalid');
    expect(response.json.details).toEqual([expect.objectContaining({ path: 'Idempotency-Key' })]);
  });

  it('refuses keys that are not printable ASCII, as the document’s pattern says, and runs nothing for them', async () => {
    for (const key of ['ünïcode', 'tab\tinside']) {
      const body = registration();
      const response = await client.post('/v1/agents/register', body, { headers: { 'idempotency-key': key } });
      expectError(response, 422, 'validation/invalid');
      expect(response.json.details).toEqual([expect.objectContaining({ path: 'Idempotency-Key' })]);
    }
  });
});

describe('GET /health', () => {
  it('answers without a key and without rate-limit headers', async () => {
    const response = await client.get('/health');
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({ status: 'ok' });
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  });
});
