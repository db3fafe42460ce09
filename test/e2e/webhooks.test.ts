// Webhook subscriptions over real HTTP: CRUD, ownership, limits, pagination, validation.
import { describe, expect, it } from 'vitest';
import { registerAgent } from '../support/http-client.ts';
import { newClient } from '../support/runtime.ts';
import { expectError } from '../support/assertions.ts';

const client = newClient();

const subscription = (overrides: Record<string, unknown> = {}) => ({
  url: 'https://agent.example.com/hooks',
  events: ['order.created', 'negotiation.offer'],
  secret: 'whsec_0123456789abcdef',
  ...overrides,
});

describe('webhook subscriptions', () => {
  it('creates, reads, updates and deletes a subscription; the secret is never returned', async () => {
    const { apiKey } = await registerAgent(client);
    const created = await client.post('/v1/webhooks', subscription({ description: 'orders' }), { apiKey });
    expect(created.status).toBe(201);
    const hook = created.json.data;
    expect(hook.id).toMatch(/^whk_[0-9A-Z]{26}$/);
    expect(hook).toMatchObject({ url: 'https://agent.example.com/hooks', events: ['order.created', 'negotiation.offer'], active: true, description: 'orders' });
    expect(created.text).not.toContain('whsec_0123456789abcdef');

    const read = await client.get(`/v1/webhooks/${hook.id}`, { apiKey });
    expect(read.json.data).toEqual(hook);
    expect(read.text).not.toContain('secret');

    const updated = await client.patch(`/v1/webhooks/${hook.id}`, { events: ['*'], active: false, secret: 'a-new-secret-of-length' }, { apiKey });
    expect(updated.status).toBe(200);
    expect(updated.json.data).toMatchObject({ id: hook.id, events: ['*'], active: false, url: hook.url });
    expect(updated.text).not.toContain('a-new-secret-of-length');

    const deleted = await client.delete(`/v1/webhooks/${hook.id}`, { apiKey });
    expect(deleted.status).toBe(200);
    expect(deleted.json.data).toEqual({ id: hook.id, deleted: true });
    expectError(await client.get(`/v1/webhooks/${hook.id}`, { apiKey }), 404, 'not-found');
    expectError(await client.delete(`/v1/webhooks/${hook.id}`, { apiKey }), 404, 'not-found');
  });

  it('accepts all 14 event names and *', async () => {
    const { apiKey } = await registerAgent(client);
    const events = [
      'order.created', 'order.confirmed', 'order.shipped', 'order.delivered', 'order.completed', 'order.cancelled',
      'negotiation.started', 'negotiation.offer', 'negotiation.counter', 'negotiation.accepted', 'negotiation.rejected',
      'feed.processed', 'feed.completed', 'feed.failed',
    ];
    const response = await client.post('/v1/webhooks', subscription({ events: [...events, '*'] }), { apiKey });
    expect(response.status).toBe(201);
    expect(response.json.data.events).toEqual([...events, '*']);
  });

  it.each([
    [{ events: ['order.created', 'order.exploded'] }, 'events.1'],
    [{ events: [] }, 'events'],
    [{ secret: 'short' }, 'secret'],
    [{ secret: 'x'.repeat(257) }, 'secret'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'ftp://agent.example.com/hooks' }, 'url'],
    [{ active: false }, 'active'],
  ])('rejects %j at %s', async (overrides, path) => {
    const { apiKey } = await registerAgent(client);
    const response = await client.post('/v1/webhooks', subscription(overrides), { apiKey });
    expectError(response, 422, 'validation/invalid');
    expect(response.json.details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect((await client.get('/v1/webhooks', { apiKey })).json.data.items).toEqual([]);
  });

  it.each([
    ['https:///path', 'with a host'],
    ['https://agent.example.com:0/hooks', 'port 0'],
    ['https://agent.example.com/ho oks', 'spaces'],
    ['https://agent.example.com/x\r\nX-Injected: 1', 'line breaks'],
    ['https://agent.example.com/x\ty', 'tabs'],
    ['https://agent.example.com/x\u0000y', 'control characters'],
    ['https://Agent.Example.com/hooks', 'send https://agent.example.com/hooks'],
    ['http://agent.example.com:80/hooks', 'send http://agent.example.com/hooks'],
    ['https://bücher.example/hooks', 'send https://xn--bcher-kva.example/hooks'],
  ])('refuses the URL %j, naming the problem (%s), on create and update', async (url, problem) => {
    const { apiKey } = await registerAgent(client);
    const created = await client.post('/v1/webhooks', subscription({ url }), { apiKey });
    expectError(created, 422, 'validation/invalid');
    expect(created.json.details).toEqual([{ path: 'url', message: expect.stringContaining(problem) }]);
    expect((await client.get('/v1/webhooks', { apiKey })).json.data.items).toEqual([]);
    const hook = (await client.post('/v1/webhooks', subscription(), { apiKey })).json.data;
    const updated = await client.patch(`/v1/webhooks/${hook.id}`, { url }, { apiKey });
    expectError(updated, 422, 'validation/invalid');
    expect((await client.get(`/v1/webhooks/${hook.id}`, { apiKey })).json.data.url).toBe(hook.url);
  });

  it('stores a host-only URL with its empty path normalised to /', async () => {
    const { apiKey } = await registerAgent(client);
    const created = await client.post('/v1/webhooks', subscription({ url: 'https://agent.example.com' }), { apiKey });
    expect(created.status).toBe(201);
    expect(created.json.data.url).toBe('https://agent.example.com/');
  });

  it.each([
    ['a NUL', 'orders\u0000'],
    ['an ANSI escape', '\u001b[31mred'],
    ['a C1 control', 'x\u0085y'],
    ['a lone surrogate', 'x\ud800y'],
  ])('refuses a description with %s, and keeps newlines and tabs', async (_case, description) => {
    const { apiKey } = await registerAgent(client);
    const refused = await client.post('/v1/webhooks', subscription({ description }), { apiKey });
    expectError(refused, 422, 'validation/invalid');
    expect(refused.json.details).toEqual([expect.objectContaining({ path: 'description' })]);
    const multiline = await client.post('/v1/webhooks', subscription({ description: 'line one\nline two\tend' }), { apiKey });
    expect(multiline.status).toBe(201);
    expect(multiline.json.data.description).toBe('line one\nline two\tend');
  });

  it('requires the secret on create', async () => {
    const { apiKey } = await registerAgent(client);
    const { secret: _secret, ...withoutSecret } = subscription();
    const response = await client.post('/v1/webhooks', withoutSecret, { apiKey });
    expectError(response, 422, 'validation/invalid');
    expect(response.json.details).toEqual([{ path: 'secret', message: expect.stringContaining('Required') }]);
  });

  it('lets the local runtime target loopback and private addresses over http', async () => {
    const { apiKey } = await registerAgent(client);
    for (const url of ['http://localhost:9999/hook', 'http://127.0.0.1:8080/x', 'http://10.0.0.7/hook']) {
      expect((await client.post('/v1/webhooks', subscription({ url }), { apiKey })).status).toBe(201);
    }
  });

  it("hides another agent's subscription behind 404", async () => {
    const owner = await registerAgent(client);
    const other = await registerAgent(client, { role: 'seller' });
    const hook = (await client.post('/v1/webhooks', subscription(), { apiKey: owner.apiKey })).json.data;
    expectError(await client.get(`/v1/webhooks/${hook.id}`, { apiKey: other.apiKey }), 404, 'not-found');
    expectError(await client.patch(`/v1/webhooks/${hook.id}`, { active: false }, { apiKey: other.apiKey }), 404, 'not-found');
    expectError(await client.delete(`/v1/webhooks/${hook.id}`, { apiKey: other.apiKey }), 404, 'not-found');
    expect((await client.get('/v1/webhooks', { apiKey: other.apiKey })).json.data.items).toEqual([]);
    expect((await client.get(`/v1/webhooks/${hook.id}`, { apiKey: owner.apiKey })).json.data.active).toBe(true);
  });

  it('answers 404 for ids that cannot exist', async () => {
    const { apiKey } = await registerAgent(client);
    expectError(await client.get('/v1/webhooks/whk_nope', { apiKey }), 404, 'not-found');
    expectError(await client.get('/v1/webhooks/agt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', { apiKey }), 404, 'not-found');
  });

  it('allows at most 20 subscriptions per agent, and a deleted one frees its slot', async () => {
    const { apiKey } = await registerAgent(client, { role: 'seller' });
    const created = await Promise.all(
      Array.from({ length: 22 }, () => client.post('/v1/webhooks', subscription(), { apiKey })),
    );
    const statuses = created.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(20);
    const refused = created.filter((response) => response.status !== 201);
    expect(refused).toHaveLength(2);
    for (const response of refused) {
      expectError(response, 409, 'conflict');
      expect(response.json.error).toContain('at most 20');
    }
    const first = created.find((response) => response.status === 201)?.json.data.id as string;
    expect((await client.delete(`/v1/webhooks/${first}`, { apiKey })).status).toBe(200);
    expect((await client.post('/v1/webhooks', subscription(), { apiKey })).status).toBe(201);
    expectError(await client.post('/v1/webhooks', subscription(), { apiKey }), 409, 'conflict');
  });

  it('pages newest first with an opaque, tamper-evident cursor', async () => {
    const { apiKey } = await registerAgent(client);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await client.post('/v1/webhooks', subscription({ description: `hook ${i}` }), { apiKey })).json.data.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
      const response = await client.get(`/v1/webhooks${query}`, { apiKey });
      expect(response.status).toBe(200);
      expect(response.json.data.items.length).toBeLessThanOrEqual(2);
      seen.push(...response.json.data.items.map((item: { id: string }) => item.id));
      cursor = response.json.data.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toEqual([...ids].reverse());

    const firstPage = await client.get('/v1/webhooks?limit=2', { apiKey });
    const validCursor = firstPage.json.data.nextCursor as string;
    expect(validCursor).toBeTruthy();
    const sealed = Buffer.from(validCursor, 'base64url');
    const edited = Buffer.from(sealed);
    edited[sealed.length - 1] = (edited[sealed.length - 1] as number) ^ 0x01;
    const forged = Buffer.from(JSON.stringify({ pk: 'AGENT#x', sk: 'WEBHOOK#' })).toString('base64url');
    for (const bad of [forged, edited.toString('base64url'), 'garbage', validCursor.slice(0, -6)]) {
      const response = await client.get(`/v1/webhooks?cursor=${encodeURIComponent(bad)}`, { apiKey });
      expectError(response, 422, 'validation/invalid');
      expect(response.json.details).toEqual([expect.objectContaining({ path: 'cursor' })]);
    }
    const stranger = await registerAgent(client);
    const replayed = await client.get(`/v1/webhooks?cursor=${encodeURIComponent(validCursor)}`, { apiKey: stranger.apiKey });
    expectError(replayed, 422, 'validation/invalid');
  });

  it.each(['0', '101', 'abc', '2.5', '0x10', '1e2', '+5', '01', ' 5', '5 ', '-1', ''])('rejects limit=%j', async (limit) => {
    const { apiKey } = await registerAgent(client);
    const response = await client.get(`/v1/webhooks?limit=${encodeURIComponent(limit)}`, { apiKey });
    expectError(response, 422, 'validation/invalid');
    expect(response.json.details).toEqual([expect.objectContaining({ path: 'limit' })]);
  });

  it('rejects unknown query parameters', async () => {
    const { apiKey } = await registerAgent(client);
    const response = await client.get('/v1/webhooks?limti=5', { apiKey });
    expectError(response, 422, 'validation/invalid');
    expect(response.json.details).toEqual([{ path: 'limti', message: 'Unknown field; remove it' }]);
  });
});
