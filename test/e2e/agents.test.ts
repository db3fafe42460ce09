// Agents over real HTTP against the local runtime: registration, profile, rotation, authentication.
import { describe, expect, it } from 'vitest';
import { registerAgent, registration } from '../support/http-client.ts';
import { newClient } from '../support/runtime.ts';
import { expectError } from '../support/assertions.ts';

const client = newClient();

describe('POST /v1/agents/register', () => {
  it('creates a buyer and returns its key once, in the envelope', async () => {
    const body = registration({ role: 'buyer' });
    const response = await client.post('/v1/agents/register', body);
    expect(response.status).toBe(201);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const { data, meta } = response.json;
    expect(meta.requestId).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(response.headers['x-request-id']).toBe(meta.requestId);
    expect(meta.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(data.agentId).toMatch(/^agt_[0-9A-Z]{26}$/);
    expect(data.apiKey).toMatch(/^mk_test_[0-9A-Za-z]{32,}$/);
    expect(data.apiKeyPrefix).toBe(data.apiKey.slice(0, 12));
    expect(data).toMatchObject({
      role: 'buyer',
      name: body.name,
      organization: body.organization,
      contactEmail: body.contactEmail,
      plan: 'free',
      environment: 'test',
    });
    expect(data.createdAt).toBe(data.updatedAt);
  });

  it('creates a seller', async () => {
    const { response } = await registerAgent(client, { role: 'seller' });
    expect(response.json.data.role).toBe('seller');
  });

  it('lists every missing field with its path', async () => {
    const response = await client.post('/v1/agents/register', { name: 'x' });
    expectError(response, 422, 'validation/invalid');
    const paths = response.json.details.map((detail: { path: string }) => detail.path).sort();
    expect(paths).toEqual(['contactEmail', 'organization', 'role']);
  });

  it.each([
    [{ organization: { legalName: 'Acme', country: 'XX' } }, 'organization.country'],
    [{ organization: { legalName: 'Acme', country: 'de' } }, 'organization.country'],
    [{ organization: { legalName: '', country: 'DE' } }, 'organization.legalName'],
    [{ organization: { legalName: 'Acme', country: 'DE', vat: 'x' } }, 'organization.vat'],
    [{ role: 'admin' }, 'role'],
    [{ contactEmail: 'not-an-email' }, 'contactEmail'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ plan: 'enterprise' }, 'plan'],
    [{ name: 'Bot\u0000' }, 'name'],
    [{ name: '\u001b[2JBot' }, 'name'],
    [{ name: 'Two\nlines' }, 'name'],
    [{ name: 'Tab\there' }, 'name'],
    [{ name: 'C1\u009bcontrol' }, 'name'],
    [{ name: 'Lone \udc00 surrogate' }, 'name'],
    [{ name: 'Bot\u202Egnp.exe' }, 'name'],
    [{ organization: { legalName: 'Acme \u2067GmbH', country: 'DE' } }, 'organization.legalName'],
    [{ organization: { legalName: 'Acme\u0007 GmbH', country: 'DE' } }, 'organization.legalName'],
  ])('rejects %j at %s', async (overrides, path) => {
    const response = await client.post('/v1/agents/register', registration(overrides));
    expectError(response, 422, 'validation/invalid');
    expect(response.json.details).toEqual([expect.objectContaining({ path })]);
    expect(response.json.error).toContain(path);
  });

  it('rejects malformed JSON, a wrong content type and an empty body', async () => {
    expectError(await client.post('/v1/agents/register', '{"name": ', { headers: { 'content-type': 'application/json' } }), 422, 'validation/invalid');
    const wrongType = await client.post('/v1/agents/register', JSON.stringify(registration()), { headers: { 'content-type': 'text/plain' } });
    expectError(wrongType, 422, 'validation/invalid');
    expect(wrongType.json.error).toContain('application/json');
    expectError(await client.post('/v1/agents/register'), 422, 'validation/invalid');
  });

  it('refuses bodies over 1 MB with 413', async () => {
    const response = await client.post('/v1/agents/register', registration({ name: 'x'.repeat(1024 * 1024) }));
    expectError(response, 413, 'validation/too-large');
  });
});

describe('GET and PATCH /v1/agents/me', () => {
  it('returns the profile without the key', async () => {
    const { agentId, apiKey } = await registerAgent(client);
    const response = await client.get('/v1/agents/me', { apiKey });
    expect(response.status).toBe(200);
    expect(response.json.data.agentId).toBe(agentId);
    expect(response.json.data).not.toHaveProperty('apiKey');
    expect(response.json.data).not.toHaveProperty('apiKeyHash');
  });

  it('changes name, organization and contact e-mail only', async () => {
    const { apiKey } = await registerAgent(client);
    const before = (await client.get('/v1/agents/me', { apiKey })).json.data;
    await new Promise((resolve) => setTimeout(resolve, 5)); // so that a changed updatedAt is a later millisecond
    const changed = await client.patch(
      '/v1/agents/me',
      { name: 'Renamed agent', organization: { legalName: 'Acme Ltd', country: 'GB' } },
      { apiKey },
    );
    expect(changed.status).toBe(200);
    expect(changed.json.data).toMatchObject({ name: 'Renamed agent', organization: { legalName: 'Acme Ltd', country: 'GB' } });
    expect(changed.json.data.contactEmail).toBe(before.contactEmail);
    expect(changed.json.data.updatedAt > before.updatedAt).toBe(true);
    expect(changed.json.data.createdAt).toBe(before.createdAt);
    expect((await client.get('/v1/agents/me', { apiKey })).json.data.name).toBe('Renamed agent');

    for (const field of ['role', 'plan', 'agentId', 'apiKeyPrefix']) {
      const refused = await client.patch('/v1/agents/me', { [field]: 'seller' }, { apiKey });
      expectError(refused, 422, 'validation/invalid');
      expect(refused.json.details).toEqual([{ path: field, message: 'Unknown field; remove it' }]);
    }
    expectError(await client.patch('/v1/agents/me', {}, { apiKey }), 422, 'validation/invalid');
    const unchanged = (await client.get('/v1/agents/me', { apiKey })).json.data;
    expect(unchanged.role).toBe(before.role);
    expect(unchanged.plan).toBe('free');
  });
});

describe('POST /v1/agents/me/rotate-key', () => {
  it('issues a new key and revokes the old one at once', async () => {
    const { agentId, apiKey: oldKey } = await registerAgent(client);
    const rotated = await client.post('/v1/agents/me/rotate-key', undefined, { apiKey: oldKey });
    expect(rotated.status).toBe(200);
    const newKey = rotated.json.data.apiKey as string;
    expect(newKey).toMatch(/^mk_test_/);
    expect(newKey).not.toBe(oldKey);
    expect(rotated.json.data.apiKeyPrefix).toBe(newKey.slice(0, 12));

    const withOld = await client.get('/v1/agents/me', { apiKey: oldKey });
    expectError(withOld, 401, 'auth/invalid-key');
    expect(withOld.json.error).toBe('Invalid API Key');
    const withNew = await client.get('/v1/agents/me', { apiKey: newKey });
    expect(withNew.json.data).toMatchObject({ agentId, apiKeyPrefix: newKey.slice(0, 12) });
  });

  it('lets exactly one of 30 racing rotations with one key win; the others get 401 and no dead key is handed out', async () => {
    const { agentId, apiKey } = await registerAgent(client);
    await client.get('/v1/agents/me', { apiKey }); // the key is now in the runtime's key cache, as on a warm container
    const responses = await Promise.all(Array.from({ length: 30 }, () => client.post('/v1/agents/me/rotate-key', undefined, { apiKey })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 500)).toEqual([]);
    const winners = responses.filter((response) => response.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of responses.filter((response) => response.status !== 200)) {
      expectError(loser, 401, 'auth/invalid-key');
      expect(loser.json.error).toBe('Invalid API Key');
    }
    const newKey = winners[0]!.json.data.apiKey as string;
    const me = await client.get('/v1/agents/me', { apiKey: newKey });
    expect(me.status).toBe(200);
    expect(me.json.data).toMatchObject({ agentId, apiKeyPrefix: newKey.slice(0, 12) });
    expectError(await client.get('/v1/agents/me', { apiKey }), 401, 'auth/invalid-key');
  });

  it('takes no body fields', async () => {
    const { apiKey } = await registerAgent(client);
    const response = await client.post('/v1/agents/me/rotate-key', { reason: 'x' }, { apiKey });
    expectError(response, 422, 'validation/invalid');
    expect((await client.get('/v1/agents/me', { apiKey })).status).toBe(200);
  });
});

describe('authentication', () => {
  // Its own source address: the requests above already count against this file's per-IP window.
  const client = newClient();

  it('says Missing API Key without an Authorization header', async () => {
    const response = await client.get('/v1/agents/me');
    expectError(response, 401, 'auth/invalid-key');
    expect(response.json.error).toBe('Missing API Key');
  });

  it.each([
    ['a malformed key', 'Bearer not-a-key'],
    ['a non-Bearer scheme', 'Basic dXNlcjpwYXNz'],
    ['an unknown key', `Bearer mk_test_${'A'.repeat(40)}`],
    ['a production key in the sandbox', `Bearer mk_live_${'A'.repeat(40)}`],
    ['a key that is too short', 'Bearer mk_test_abc'],
  ])('says Invalid API Key for %s', async (_case, authorization) => {
    const response = await client.get('/v1/agents/me', { headers: { authorization } });
    expectError(response, 401, 'auth/invalid-key');
    expect(response.json.error).toBe('Invalid API Key');
  });

  it('rejects a production-format key registered elsewhere even when well-formed', async () => {
    const { apiKey } = await registerAgent(client);
    const live = apiKey.replace('mk_test_', 'mk_live_');
    expectError(await client.get('/v1/agents/me', { apiKey: live }), 401, 'auth/invalid-key');
  });
});
