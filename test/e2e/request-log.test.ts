// The request log over HTTP against the local runtime: each agent sees its own requests of the last
// 7 days, newest first, as the API answered them (status, error code, duration, key, Idempotency-Key
// and replays), filtered by status class or code and by path prefix; one request by its id with the
// error body of an error (and a request just made is waited for rather than 404); never a success body,
// a key or a secret; another agent's request is 404; the log's own reads stay out of it; responses
// match the OpenAPI document.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { registerUnlimited } from '../support/catalog.ts';
import { registerAgent, type TestResponse } from '../support/http-client.ts';
import { OpenApiResponseValidator } from '../support/openapi-validator.ts';
import { newClient } from '../support/runtime.ts';

const client = newClient();
let validator: OpenApiResponseValidator;

beforeAll(async () => {
  validator = await OpenApiResponseValidator.create((await client.get('/v1/openapi.json')).json);
});

function expectDocumented(method: string, path: string, response: TestResponse) {
  expect(validator.problems(method, path, response)).toEqual([]);
}

/** The caller's log once it holds `count` requests matching the query (entries land a moment after their responses). */
async function logOf(apiKey: string, query: string, count: number): Promise<any[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const response = await client.get(`/v1/requests${query}`, { apiKey });
    expect(response.status, response.text).toBe(200);
    expectDocumented('GET', '/v1/requests', response);
    const items = response.json.data.items as any[];
    if (items.length >= count || Date.now() > deadline) return items;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the request log', () => {
  let agent: Awaited<ReturnType<typeof registerUnlimited>>;
  let failedId: string;
  let createdId: string;

  beforeAll(async () => {
    agent = await registerUnlimited(client, 'buyer');
    expect((await client.get('/v1/agents/me', { apiKey: agent.apiKey })).status).toBe(200);
    const failed = await client.send('POST', '/v1/webhooks', { apiKey: agent.apiKey, body: { url: 'not a url', events: ['*'], secret: 'a-secret-of-16-or-more', extra: 1 } });
    expect(failed.status).toBe(422);
    failedId = failed.headers['x-request-id'] as string;
    const created = await client.send('POST', '/v1/webhooks', {
      apiKey: agent.apiKey,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['*'], secret: 'whsec-like-secret-value-1234' },
      headers: { 'idempotency-key': 'subscribe-once' },
    });
    expect(created.status, created.text).toBe(201);
    createdId = created.headers['x-request-id'] as string;
    const replayed = await client.send('POST', '/v1/webhooks', {
      apiKey: agent.apiKey,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['*'], secret: 'whsec-like-secret-value-1234' },
      headers: { 'idempotency-key': 'subscribe-once' },
    });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
  });

  it('finds a failed request by its id at once, with the error body it answered', async () => {
    const response = await client.get(`/v1/requests/${failedId}`, { apiKey: agent.apiKey });
    expect(response.status, response.text).toBe(200);
    expectDocumented('GET', '/v1/requests/{requestId}', response);
    expect(response.json.data).toMatchObject({
      requestId: failedId,
      method: 'POST',
      path: '/v1/webhooks',
      status: 422,
      code: 'validation/invalid',
      idempotencyKey: null,
      idempotentReplayed: false,
      keyId: expect.any(String),
      error: { code: 'validation/invalid', status: 422, requestId: failedId, details: expect.arrayContaining([expect.objectContaining({ path: 'extra' })]) },
    });
    expect(response.json.data.durationMs).toBeGreaterThan(0);
  });

  it('lists the requests newest first, with their Idempotency-Key and the replay, and never a success body or a secret', async () => {
    const items = await logOf(agent.apiKey, '', 4);
    expect(items.map((item) => `${item.method} ${item.path} ${item.status}`)).toEqual(['POST /v1/webhooks 201', 'POST /v1/webhooks 201', 'POST /v1/webhooks 422', 'GET /v1/agents/me 200']);
    expect(items[0]).toMatchObject({ idempotencyKey: 'subscribe-once', idempotentReplayed: true, code: null });
    expect(items[1]).toMatchObject({ requestId: createdId, idempotencyKey: 'subscribe-once', idempotentReplayed: false });
    const created = await client.get(`/v1/requests/${createdId}`, { apiKey: agent.apiKey });
    expect(created.json.data.error).toBeNull();
    const everything = JSON.stringify(items) + created.text;
    expect(everything).not.toContain('whsec-like-secret-value-1234');
    expect(everything).not.toContain(agent.apiKey);
    expect(everything).not.toContain('127.0.0.1:9');
  });

  it('filters by status class, exact status and path prefix', async () => {
    await logOf(agent.apiKey, '', 4);
    expect((await logOf(agent.apiKey, '?status=4xx', 1)).map((item) => item.requestId)).toEqual([failedId]);
    expect((await logOf(agent.apiKey, '?status=422', 1)).map((item) => item.requestId)).toEqual([failedId]);
    expect(await logOf(agent.apiKey, '?status=5xx', 0)).toEqual([]);
    expect((await logOf(agent.apiKey, '?path=/v1/agents', 1)).map((item) => item.path)).toEqual(['/v1/agents/me']);
    expect((await logOf(agent.apiKey, '?status=2xx&path=/v1/webhooks', 2)).map((item) => item.status)).toEqual([201, 201]);
  });

  it('pages with a cursor that holds its filters', async () => {
    const first = await client.get('/v1/requests?limit=2', { apiKey: agent.apiKey });
    expect(first.json.data.items).toHaveLength(2);
    const second = await client.get(`/v1/requests?limit=2&cursor=${first.json.data.nextCursor as string}`, { apiKey: agent.apiKey });
    expect(second.status, second.text).toBe(200);
    expect(second.json.data.items.map((item: any) => item.path)).toEqual(['/v1/webhooks', '/v1/agents/me']);
    expectError(await client.get(`/v1/requests?limit=2&status=4xx&cursor=${first.json.data.nextCursor as string}`, { apiKey: agent.apiKey }), 422, 'validation/invalid');
  });

  it('keeps its own reads out, and shows another agent nothing of it', async () => {
    const items = await logOf(agent.apiKey, '', 4);
    expect(items.some((item) => item.path.startsWith('/v1/requests'))).toBe(false);
    const other = await registerAgent(client, { role: 'seller' });
    expectError(await client.get(`/v1/requests/${failedId}`, { apiKey: other.apiKey }), 404, 'not-found');
    expect((await client.get('/v1/requests', { apiKey: other.apiKey })).json.data.items).toEqual([]);
  });

  it('names the key of each request; a restricted key reads its own requests only, the main key all of them', async () => {
    const owner = await registerUnlimited(client, 'buyer');
    const created = await client.post('/v1/agents/me/keys', { name: 'Catalog reader', scopes: ['catalog:read'] }, { apiKey: owner.apiKey });
    expect(created.status, created.text).toBe(201);
    const restricted = { apiKey: created.json.data.apiKey as string, keyId: created.json.data.keyId as string };
    const refused = await client.get('/v1/orders', { apiKey: restricted.apiKey });
    expectError(refused, 403, 'auth/insufficient-scope');
    const all = await logOf(owner.apiKey, '', 2);
    expect(all.map((item) => `${item.method} ${item.path} ${item.status} ${item.keyId === restricted.keyId ? 'restricted' : 'main'}`)).toEqual(['GET /v1/orders 403 restricted', 'POST /v1/agents/me/keys 201 main']);
    const own = await logOf(restricted.apiKey, '', 1);
    expect(own.map((item) => item.requestId)).toEqual([refused.headers['x-request-id']]);
    const mainRequest = all[1].requestId as string;
    expectError(await client.get(`/v1/requests/${mainRequest}`, { apiKey: restricted.apiKey }), 404, 'not-found');
    expect((await client.get(`/v1/requests/${refused.headers['x-request-id'] as string}`, { apiKey: restricted.apiKey })).json.data.error).toMatchObject({ code: 'auth/insufficient-scope' });
  });

  it('refuses bad filters and ids with the paths to fix', async () => {
    const bad = await client.get('/v1/requests?status=6xx&path=orders', { apiKey: agent.apiKey });
    expectError(bad, 422, 'validation/invalid');
    expect(bad.json.details.map((detail: any) => detail.path).sort()).toEqual(['path', 'status']);
    expectError(await client.get('/v1/requests/req_nope', { apiKey: agent.apiKey }), 404, 'not-found');
    expectError(await client.get('/v1/requests'), 401, 'auth/invalid-key');
  });
});
