// Restricted keys over HTTP against the local runtime (contract §5.1): the main key creates, lists,
// reads, changes and revokes them; the secret is shown once; every operation is checked against the
// route table's scope in the shared pipeline (403 auth/insufficient-scope naming the scope); a scope
// never widens the role; revocation and expiry act on the next request; at most 20 active keys;
// GET /v1/agents/me tells any key what it is (its kind, scopes, limits, expiry).
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { routeList } from '../../functions/registry.ts';
import { expectError } from '../support/assertions.ts';
import { registerUnlimited } from '../support/catalog.ts';
import { newClient } from '../support/runtime.ts';
import { listProduct } from '../support/trade.ts';

const client = newClient();

async function createKey(mainKey: string, body: Record<string, unknown>) {
  return client.post('/v1/agents/me/keys', body, { apiKey: mainKey });
}

async function restrictedKey(mainKey: string, scopes: string[], extra: Record<string, unknown> = {}): Promise<{ keyId: string; apiKey: string }> {
  const created = await createKey(mainKey, { name: `Program ${scopes.join(' ')}`, scopes, ...extra });
  expect(created.status, created.text).toBe(201);
  return { keyId: created.json.data.keyId as string, apiKey: created.json.data.apiKey as string };
}

describe('managing restricted keys with the main key', () => {
  it('creates a key whose secret is shown once, lists it after the main key, reads it, changes it', async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    const created = await createKey(buyer.apiKey, {
      name: 'Reorder bot',
      scopes: ['catalog:read', 'negotiations:write', 'orders:write', 'orders:write'],
      limits: { spendPerDay: { amount: 50000, currency: 'EUR' }, approvalAbove: { amount: 20000, currency: 'EUR' } },
      expiresAt: '2030-01-01T00:00:00Z',
    });
    expect(created.status, created.text).toBe(201);
    const key = created.json.data;
    expect(key).toMatchObject({
      kind: 'restricted',
      name: 'Reorder bot',
      scopes: ['catalog:read', 'negotiations:write', 'orders:write'],
      limits: { spendPerDay: { amount: 50000, currency: 'EUR' }, approvalAbove: { amount: 20000, currency: 'EUR' } },
      status: 'active',
      expiresAt: '2030-01-01T00:00:00.000Z',
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(key.keyId).toMatch(/^key_[0-9A-Z]{26}$/);
    expect(key.apiKey).toMatch(/^mk_test_[0-9A-Za-z]{40}$/);
    expect(key.apiKeyPrefix).toBe(key.apiKey.slice(0, 12));

    const list = await client.get('/v1/agents/me/keys', { apiKey: buyer.apiKey });
    expect(list.status, list.text).toBe(200);
    expect(list.json.data.items).toHaveLength(2);
    expect(list.json.data.items[0]).toEqual({ keyId: expect.stringMatching(/^key_/), kind: 'main' });
    const { apiKey: _secret, ...shown } = key;
    expect(list.json.data.items[1]).toEqual(shown);
    expect(list.text).not.toContain(key.apiKey);

    const read = await client.get(`/v1/agents/me/keys/${key.keyId}`, { apiKey: buyer.apiKey });
    expect(read.json.data).toEqual(shown);
    const main = await client.get(`/v1/agents/me/keys/${list.json.data.items[0].keyId}`, { apiKey: buyer.apiKey });
    expect(main.json.data).toEqual(list.json.data.items[0]);

    // The key works, and its use is recorded.
    expect((await client.get('/v1/agents/me', { apiKey: key.apiKey })).status).toBe(200);
    const used = await client.get(`/v1/agents/me/keys/${key.keyId}`, { apiKey: buyer.apiKey });
    expect(used.json.data.lastUsedAt).toEqual(expect.any(String));

    const changed = await client.patch(`/v1/agents/me/keys/${key.keyId}`, { name: 'Reorder bot v2', limits: null, expiresAt: null }, { apiKey: buyer.apiKey });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.data).toMatchObject({ name: 'Reorder bot v2', limits: null, expiresAt: null, scopes: key.scopes });
    expectError(await client.get('/v1/agents/me/keys/key_01M83TE1B0R4W9D2Y7C6K5H3JN', { apiKey: buyer.apiKey }), 404, 'not-found');
  });

  it('revokes a key: the next request with it is 401, revoking again answers the revoked key', async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    const key = await restrictedKey(buyer.apiKey, ['catalog:read']);
    expect((await client.get('/v1/agents/me', { apiKey: key.apiKey })).status).toBe(200);
    const revoked = await client.delete(`/v1/agents/me/keys/${key.keyId}`, { apiKey: buyer.apiKey });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.json.data).toMatchObject({ keyId: key.keyId, status: 'revoked', revokedAt: expect.any(String) });
    const after = await client.get('/v1/agents/me', { apiKey: key.apiKey });
    expectError(after, 401, 'auth/invalid-key');
    expect(after.json.error).toBe('Invalid API Key');
    const again = await client.delete(`/v1/agents/me/keys/${key.keyId}`, { apiKey: buyer.apiKey });
    expect(again.json.data.revokedAt).toBe(revoked.json.data.revokedAt);
    expectError(await client.patch(`/v1/agents/me/keys/${key.keyId}`, { name: 'x' }, { apiKey: buyer.apiKey }), 409, 'conflict');
    // The main key is rotated, never revoked here; it keeps working.
    const mainId = (await client.get('/v1/agents/me/keys', { apiKey: buyer.apiKey })).json.data.items[0].keyId;
    expectError(await client.delete(`/v1/agents/me/keys/${mainId}`, { apiKey: buyer.apiKey }), 409, 'conflict');
  });

  it('stops an expired key at its expiry, on the next request', async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    const expiresAt = new Date(Date.now() + 2_500).toISOString();
    const key = await restrictedKey(buyer.apiKey, ['catalog:read'], { expiresAt });
    expect((await client.get('/v1/agents/me', { apiKey: key.apiKey })).status).toBe(200);
    await sleep(Date.parse(expiresAt) - Date.now() + 50);
    expectError(await client.get('/v1/agents/me', { apiKey: key.apiKey }), 401, 'auth/invalid-key');
    const read = await client.get(`/v1/agents/me/keys/${key.keyId}`, { apiKey: buyer.apiKey });
    expect(read.json.data.status).toBe('expired');
  });

  it('holds at most 20 active keys; a revoked or expired one frees its slot', async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    const keys = await Promise.all(Array.from({ length: 20 }, () => restrictedKey(buyer.apiKey, ['catalog:read'])));
    const over = await createKey(buyer.apiKey, { name: 'One too many', scopes: ['catalog:read'] });
    expectError(over, 409, 'conflict');
    expect(over.json.details).toEqual([{ path: 'keys', message: '20 of 20 in use' }]);
    // Racing creations at the limit: none gets through.
    const racing = await Promise.all(Array.from({ length: 5 }, () => createKey(buyer.apiKey, { name: 'Racer', scopes: ['catalog:read'] })));
    expect(racing.map((response) => response.status)).toEqual([409, 409, 409, 409, 409]);
    await client.delete(`/v1/agents/me/keys/${keys[1]!.keyId}`, { apiKey: buyer.apiKey });
    expect((await createKey(buyer.apiKey, { name: 'In the freed slot', scopes: ['catalog:read'] })).status).toBe(201);
    expectError(await createKey(buyer.apiKey, { name: 'Full again', scopes: ['catalog:read'] }), 409, 'conflict');
    // A key that expires keeps its slot only until a creation needs it.
    const expiresAt = new Date(Date.now() + 3_000).toISOString();
    expect((await client.patch(`/v1/agents/me/keys/${keys[2]!.keyId}`, { expiresAt }, { apiKey: buyer.apiKey })).status).toBe(200);
    await sleep(Math.max(0, Date.parse(expiresAt) - Date.now() + 50));
    expect((await createKey(buyer.apiKey, { name: 'In the expired key’s slot', scopes: ['catalog:read'] })).status).toBe(201);
    expectError(await createKey(buyer.apiKey, { name: 'Full once more', scopes: ['catalog:read'] }), 409, 'conflict');
  });

  it('refuses what a key cannot be: unknown scopes, mixed currencies, past expiry, limits on a seller’s key', async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    const bad = await createKey(buyer.apiKey, { name: '', scopes: ['orders:delete'], limits: { spendPerDay: { amount: 100, currency: 'EUR' }, maxOrderAmount: { amount: 50, currency: 'USD' } }, extra: 1 });
    expectError(bad, 422, 'validation/invalid');
    expect(bad.json.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['extra', 'limits.spendPerDay.currency', 'name', 'scopes.0']);
    const currencies = await createKey(buyer.apiKey, { name: 'x', scopes: ['orders:write'], limits: { spendPerDay: { amount: 100, currency: 'EUR' }, maxOrderAmount: { amount: 50, currency: 'USD' } } });
    expectError(currencies, 422, 'validation/invalid');
    expect(currencies.json.details).toEqual([{ path: 'limits.spendPerDay.currency', message: 'Must be USD, the currency of maxOrderAmount: a key’s money limits share one currency' }]);
    const past = await createKey(buyer.apiKey, { name: 'x', scopes: ['orders:write'], expiresAt: '2020-01-01T00:00:00Z' });
    expectError(past, 422, 'validation/invalid');
    expect(past.json.details[0].path).toBe('expiresAt');
    expectError(await createKey(buyer.apiKey, { name: 'x', scopes: [] }), 422, 'validation/invalid');
    const seller = await registerUnlimited(client, 'seller');
    const sellerLimits = await createKey(seller.apiKey, { name: 'x', scopes: ['feeds:write'], limits: { spendPerDay: { amount: 100, currency: 'EUR' } } });
    expectError(sellerLimits, 422, 'validation/invalid');
    expect(sellerLimits.json.details[0].path).toBe('limits');
  });
});

describe('GET /v1/agents/me names the key that asks', () => {
  it('reports the main key with every scope (null), and a restricted key with its name, scopes, limits and expiry; a change shows on the next request', async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    const mainKeyId = (await client.get('/v1/agents/me/keys', { apiKey: buyer.apiKey })).json.data.items[0].keyId;
    const asMain = await client.get('/v1/agents/me', { apiKey: buyer.apiKey });
    expect(asMain.status, asMain.text).toBe(200);
    expect(asMain.json.data).toMatchObject({ agentId: buyer.agentId, role: 'buyer' });
    expect(asMain.json.data.key).toEqual({ keyId: mainKeyId, kind: 'main', name: null, scopes: null, limits: null, expiresAt: null });

    const limits = { maxOrderAmount: { amount: 90000, currency: 'EUR' }, allowedShipsFrom: ['DE'] };
    const program = await createKey(buyer.apiKey, { name: 'Reorder bot', scopes: ['orders:write', 'catalog:read'], limits, expiresAt: '2031-06-30T12:00:00Z' });
    expect(program.status, program.text).toBe(201);
    const asProgram = await client.get('/v1/agents/me', { apiKey: program.json.data.apiKey });
    expect(asProgram.status, asProgram.text).toBe(200);
    expect(asProgram.json.data.key).toEqual({
      keyId: program.json.data.keyId,
      kind: 'restricted',
      name: 'Reorder bot',
      scopes: ['orders:write', 'catalog:read'],
      limits,
      expiresAt: '2031-06-30T12:00:00.000Z',
    });
    // The same profile either way (the agent's, with its main key's prefix); never a secret.
    const { key: _main, ...profile } = asMain.json.data;
    const { key: _program, ...sameProfile } = asProgram.json.data;
    expect(sameProfile).toEqual(profile);
    expect(asProgram.text).not.toContain(program.json.data.apiKey);

    const changed = await client.patch(`/v1/agents/me/keys/${program.json.data.keyId}`, { scopes: ['negotiations:read'], limits: null, expiresAt: null }, { apiKey: buyer.apiKey });
    expect(changed.status, changed.text).toBe(200);
    const after = await client.get('/v1/agents/me', { apiKey: program.json.data.apiKey });
    expect(after.json.data.key).toMatchObject({ kind: 'restricted', scopes: ['negotiations:read'], limits: null, expiresAt: null });

    // A seller's key has no limits; the answer says so the same way.
    const seller = await registerUnlimited(client, 'seller');
    const feeder = await createKey(seller.apiKey, { name: 'Feed sync', scopes: ['feeds:write'] });
    expect((await client.get('/v1/agents/me', { apiKey: feeder.json.data.apiKey })).json.data.key).toEqual({
      keyId: feeder.json.data.keyId, kind: 'restricted', name: 'Feed sync', scopes: ['feeds:write'], limits: null, expiresAt: null,
    });
  });
});

describe('scopes, checked in the shared pipeline from the route table', () => {
  it('declares a scope on every route that takes a key, and none on public ones', () => {
    for (const route of routeList) {
      if (route.auth === 'apiKey') expect(route.scope, route.operationId).not.toBeNull();
      else expect(route.scope, route.operationId).toBeNull();
    }
  });

  it('lets a restricted key do only what its scopes allow, write implying read; main-key operations refuse it', async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    const listing = await listProduct(client);
    const reader = await restrictedKey(buyer.apiKey, ['catalog:read', 'negotiations:read']);
    expect((await client.post('/v1/search', { query: 'gloves' }, { apiKey: reader.apiKey })).status).toBe(200);
    expect((await client.get(`/v1/offers/${listing.offerId}`, { apiKey: reader.apiKey })).status).toBe(200);
    expect((await client.get('/v1/negotiations', { apiKey: reader.apiKey })).status).toBe(200);
    const start = await client.post('/v1/negotiate', { offerId: listing.offerId, quantity: 10 }, { apiKey: reader.apiKey });
    expectError(start, 403, 'auth/insufficient-scope');
    expect(start.json.details).toEqual([{ path: 'scope', message: 'needs negotiations:write' }]);
    expectError(await client.get('/v1/orders', { apiKey: reader.apiKey }), 403, 'auth/insufficient-scope');
    expectError(await client.get('/v1/events', { apiKey: reader.apiKey }), 403, 'auth/insufficient-scope');
    expectError(await client.get('/v1/webhooks', { apiKey: reader.apiKey }), 403, 'auth/insufficient-scope');

    const writer = await restrictedKey(buyer.apiKey, ['negotiations:write', 'orders:write', 'webhooks:write', 'events:read']);
    expect((await client.get('/v1/negotiations', { apiKey: writer.apiKey })).status).toBe(200);
    expect((await client.get('/v1/orders', { apiKey: writer.apiKey })).status).toBe(200);
    expect((await client.get('/v1/webhooks', { apiKey: writer.apiKey })).status).toBe(200);
    expect((await client.get('/v1/events', { apiKey: writer.apiKey })).status).toBe(200);
    expectError(await client.post('/v1/search', { query: 'gloves' }, { apiKey: writer.apiKey }), 403, 'auth/insufficient-scope');

    // Only the main key: keys, rotation, profile changes.
    for (const [method, path, body] of [
      ['GET', '/v1/agents/me/keys', undefined],
      ['POST', '/v1/agents/me/keys', { name: 'x', scopes: ['catalog:read'] }],
      ['DELETE', `/v1/agents/me/keys/${reader.keyId}`, undefined],
      ['PATCH', `/v1/agents/me/keys/${reader.keyId}`, { name: 'x' }],
      ['POST', '/v1/agents/me/rotate-key', undefined],
      ['PATCH', '/v1/agents/me', { name: 'Taken over' }],
    ] as const) {
      const response = await client.send(method, path, { apiKey: writer.apiKey, ...(body ? { body } : {}) });
      expectError(response, 403, 'auth/insufficient-scope');
      expect(response.json.details).toEqual([{ path: 'scope', message: 'needs main' }]);
    }
    // Its profile, any key may read; the keys it could not touch still work.
    expect((await client.get('/v1/agents/me', { apiKey: writer.apiKey })).json.data.agentId).toBe(buyer.agentId);
    expect((await client.get('/v1/agents/me', { apiKey: reader.apiKey })).status).toBe(200);
  });

  it('never widens the role: a buyer’s key with feeds:write still cannot upload; without the scope it is told the scope first; a seller’s key cannot touch feeds without the scope', async () => {
    const buyer = await registerUnlimited(client, 'buyer');
    const wide = await restrictedKey(buyer.apiKey, ['feeds:write', 'catalog:read']);
    expectError(await client.post('/v1/seller/feeds', { products: [] }, { apiKey: wide.apiKey }), 403, 'auth/forbidden');
    const program = await restrictedKey(buyer.apiKey, ['catalog:read', 'negotiations:write', 'orders:write']);
    const feeds = await client.post('/v1/seller/feeds', { products: [] }, { apiKey: program.apiKey });
    expectError(feeds, 403, 'auth/insufficient-scope');
    expect(feeds.json.details).toEqual([{ path: 'scope', message: 'needs feeds:write' }]);
    expectError(await client.get('/v1/seller/feeds', { apiKey: program.apiKey }), 403, 'auth/insufficient-scope');
    // The main key has every scope: the role answers.
    expectError(await client.get('/v1/seller/feeds', { apiKey: buyer.apiKey }), 403, 'auth/forbidden');
    const seller = await registerUnlimited(client, 'seller');
    const catalog = await restrictedKey(seller.apiKey, ['catalog:read', 'orders:write']);
    const upload = await client.post('/v1/seller/feeds', { products: [{ sku: 'A-1', title: 'A', price: { amount: 100, currency: 'EUR' }, availableQuantity: 1 }] }, { apiKey: catalog.apiKey });
    expectError(upload, 403, 'auth/insufficient-scope');
    expect(upload.json.details).toEqual([{ path: 'scope', message: 'needs feeds:write' }]);
    expectError(await client.get('/v1/seller/feeds', { apiKey: catalog.apiKey }), 403, 'auth/insufficient-scope');
    expect((await client.get('/v1/seller/products', { apiKey: catalog.apiKey })).status).toBe(200);
  });
});
