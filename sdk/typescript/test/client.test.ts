// The client against a real local HTTP server that scripts failures: headers, the envelope and
// lastResponse, Idempotency-Keys across retries, retry and backoff rules, timeouts, aborts and the
// error classes.
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConflictError,
  IdempotencyError,
  InsufficientScopeError,
  InternalServerError,
  InvalidRequestError,
  Marketplace,
  MarketplaceConnectionError,
  MarketplaceError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  SpendingLimitError,
} from '../src/index.ts';
import { apiError, header, ok, scriptedServer, type Reply, type ScriptedServer } from './support/scripted-server.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SESSION = 'neg_01JF3Q5Z8X2C7V9B4N6M1K0PQR';
let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server answering `replies` in order (the last one repeats), and a client for it. */
async function scripted(replies: Reply[], options: ConstructorParameters<typeof Marketplace>[0] = {}) {
  server = await scriptedServer((_request, index) => replies[Math.min(index, replies.length - 1)] as Reply);
  return { mk: new Marketplace({ apiKey: 'mk_test_key', baseUrl: server.url, ...options }), server };
}

describe('requests and responses', () => {
  it('sends the key, JSON headers and a user agent, and unwraps {data, meta} with lastResponse out of sight', async () => {
    const { mk, server } = await scripted([ok({ agentId: 'agt_1', name: 'Bot' }, 200, { 'x-ratelimit-remaining': '59' })]);
    const agent = await mk.agents.me();
    expect(agent).toEqual({ agentId: 'agt_1', name: 'Bot' });
    expect(JSON.stringify(agent)).toBe('{"agentId":"agt_1","name":"Bot"}');
    expect(agent.lastResponse).toMatchObject({ status: 200, replayed: false, attempts: 1, idempotencyKey: null });
    expect(agent.lastResponse.requestId).toMatch(/^req_test/);
    expect(agent.lastResponse.headers['x-ratelimit-remaining']).toBe('59');
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'GET', path: '/v1/agents/me' });
    expect(header(request!, 'authorization')).toBe('Bearer mk_test_key');
    expect(header(request!, 'accept')).toBe('application/json');
    expect(header(request!, 'user-agent')).toMatch(/^agent-marketplace-sdk-typescript\/\d+\.\d+\.\d+/);
    expect(header(request!, 'idempotency-key')).toBeUndefined();
  });

  it('sends JSON bodies, encodes ids in paths, repeats array query parameters and drops undefined ones', async () => {
    const { mk, server } = await scripted([ok({ sessionId: SESSION }), ok({ items: [], nextCursor: null })]);
    await mk.negotiations.counter('neg_a/b', { unitPrice: 950, message: 'ok' });
    await mk.events.list({ type: ['order.created', 'order.shipped'], limit: 5, cursor: undefined });
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/negotiate/neg_a%2Fb' });
    expect(header(server.requests[0]!, 'content-type')).toBe('application/json');
    expect(JSON.parse(server.requests[0]!.body.toString())).toEqual({ unitPrice: 950, message: 'ok' });
    expect(server.requests[1]!.url).toBe('/v1/events?type=order.created&type=order.shipped&limit=5');
  });

  it('takes the base URL with or without a trailing /v1, and refuses what is not one', async () => {
    const { server } = await scripted([ok({ agentId: 'agt_1' })]);
    await new Marketplace({ baseUrl: `${server.url}/v1/`, apiKey: 'k' }).agents.me();
    expect(server.requests[0]!.path).toBe('/v1/agents/me');
    expect(() => new Marketplace({ baseUrl: 'localhost:3000' })).toThrow(/http/);
    expect(() => new Marketplace({ baseUrl: 'not a url' })).toThrow(/absolute http\(s\) URL/);
    const saved = process.env.MARKETPLACE_BASE_URL;
    delete process.env.MARKETPLACE_BASE_URL;
    try {
      expect(() => new Marketplace({})).toThrow(/baseUrl/);
    } finally {
      if (saved !== undefined) process.env.MARKETPLACE_BASE_URL = saved;
    }
    expect(() => new Marketplace({ baseUrl: server.url, timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => new Marketplace({ baseUrl: server.url, maxRetries: 1.5 })).toThrow(/maxRetries/);
  });

  it('registers without a key, switches to the key a rotation returns, and withApiKey keeps the settings', async () => {
    const { server } = await scripted([ok({ agentId: 'agt_1', apiKey: 'mk_test_first' }, 201), ok({ agentId: 'agt_1', apiKey: 'mk_test_second' }), ok({ agentId: 'agt_1' })]);
    const anonymous = new Marketplace({ baseUrl: server.url, maxRetries: 0 });
    const registered = await anonymous.agents.register({ name: 'Bot', role: 'buyer', organization: { legalName: 'Acme', country: 'DE' }, contactEmail: 'a@b.example' });
    expect(header(server.requests[0]!, 'authorization')).toBeUndefined();
    const mk = anonymous.withApiKey(registered.apiKey);
    const rotated = await mk.agents.rotateKey();
    expect(rotated.apiKey).toBe('mk_test_second');
    await mk.agents.me();
    expect(server.requests.map((request) => header(request, 'authorization'))).toEqual([undefined, 'Bearer mk_test_first', 'Bearer mk_test_second']);
  });
});

describe('idempotency keys', () => {
  it('sends a new random key with every POST call and the same key on each of its retries', async () => {
    const { mk, server } = await scripted([apiError(503, 'internal', 'down'), 'reset', ok({ sessionId: SESSION }, 201), ok({ sessionId: SESSION }, 201)]);
    const first = await mk.negotiations.start({ offerId: 'ofr_1', quantity: 10 });
    await mk.negotiations.start({ offerId: 'ofr_1', quantity: 10 });
    const keys = server.requests.map((request) => header(request, 'idempotency-key'));
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(keys[0]);
    expect(keys[3]).toMatch(UUID);
    expect(keys[3]).not.toBe(keys[0]);
    expect(first.lastResponse).toMatchObject({ idempotencyKey: keys[0], attempts: 3, status: 201 });
  });

  it('uses the caller’s key, and reports a replayed answer', async () => {
    const { mk, server } = await scripted([ok({ orderId: 'ord_1' }, 201, { 'idempotent-replayed': 'true' })]);
    const order = await mk.orders.create({ sessionId: SESSION }, { idempotencyKey: 'order-for-neg-1' });
    expect(header(server.requests[0]!, 'idempotency-key')).toBe('order-for-neg-1');
    expect(order.lastResponse.replayed).toBe(true);
  });

  it('retries idempotency/conflict when its own earlier attempt may still be running, not on a first attempt', async () => {
    const busy = apiError(409, 'idempotency/conflict', 'A request with this Idempotency-Key is still being processed; retry once it has finished');
    const { mk, server } = await scripted(['reset', busy, ok({ orderId: 'ord_1' }, 201)]);
    expect((await mk.orders.create({ sessionId: SESSION })).orderId).toBe('ord_1');
    expect(server.requests).toHaveLength(3);

    await server.close();
    const again = await scripted([busy]);
    const error = await again.mk.orders.create({ sessionId: SESSION }, { idempotencyKey: 'reused' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IdempotencyError);
    expect(error).toMatchObject({ status: 409, code: 'idempotency/conflict', attempts: 1 });
    expect(again.server.requests).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries 5xx at most maxRetries times, then throws InternalServerError with the last answer', async () => {
    const { mk, server } = await scripted([apiError(503, 'internal', 'Unexpected error; quote the request id')]);
    const error = (await mk.orders.get('ord_1').catch((caught: unknown) => caught)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toBeInstanceOf(MarketplaceError);
    expect(error).toMatchObject({ status: 503, code: 'internal', message: 'Unexpected error; quote the request id', attempts: 3 });
    expect(error.requestId).toMatch(/^req_err/);
    expect(server.requests).toHaveLength(3);
  });

  it('honours maxRetries per client and per call', async () => {
    const { mk, server } = await scripted([apiError(500, 'internal', 'boom')], { maxRetries: 0 });
    await expect(mk.orders.get('ord_1')).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
    await expect(mk.orders.get('ord_1', { maxRetries: 1 })).rejects.toMatchObject({ attempts: 2 });
    expect(server.requests).toHaveLength(3);
  });

  it('waits at least Retry-After before retrying a 429', async () => {
    const { mk, server } = await scripted([apiError(429, 'rate-limit', 'Rate limit exceeded; retry after 1 seconds', { headers: { 'retry-after': '1' } }), ok({ orderId: 'ord_1' })]);
    const order = await mk.orders.get('ord_1');
    expect(order.lastResponse.attempts).toBe(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('throws RateLimitError at once when Retry-After is beyond the time budget', async () => {
    const { mk, server } = await scripted([apiError(429, 'rate-limit', 'Rate limit exceeded; retry after 3600 seconds', { headers: { 'retry-after': '3600' } })]);
    const error = (await mk.orders.get('ord_1').catch((caught: unknown) => caught)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate-limit', retryAfterSeconds: 3600, attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry other client errors, and maps each to its class with details', async () => {
    const invalid = apiError(422, 'validation/invalid', 'quantity: Must be at least 10 (and 1 more problem)', {
      details: [{ path: 'quantity', message: 'Must be at least 10' }, { path: 'extra', message: 'Unknown field' }],
    });
    const { mk, server } = await scripted([invalid, apiError(404, 'not-found', 'No such order'), apiError(409, 'conflict', 'The order is shipped', { details: [{ path: 'status', message: 'The order is shipped' }] })]);
    const error = (await mk.negotiations.start({ offerId: 'ofr_1', quantity: 5 }).catch((caught: unknown) => caught)) as InvalidRequestError;
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 422, code: 'validation/invalid', message: 'quantity: Must be at least 10 (and 1 more problem)' });
    expect(error.details.map((detail) => detail.path)).toEqual(['quantity', 'extra']);
    await expect(mk.orders.get('ord_1')).rejects.toBeInstanceOf(NotFoundError);
    const conflict = (await mk.orders.cancel('ord_1').catch((caught: unknown) => caught)) as ConflictError;
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict.details).toEqual([{ path: 'status', message: 'The order is shipped' }]);
    expect(server.requests).toHaveLength(3);
  });

  it('maps error bodies that are not the API’s (a gateway’s) by status, and retries them when they are 429 or 5xx', async () => {
    const { mk, server } = await scripted([
      { status: 429, json: { message: 'Too Many Requests' } },
      { status: 502, text: '<html>Bad Gateway</html>' },
      { status: 413, json: { message: 'Request Entity Too Large' } },
    ], { maxRetries: 1 });
    const error = (await mk.orders.get('ord_1').catch((caught: unknown) => caught)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, code: 'internal', attempts: 2 });
    expect(error.message).toContain('Bad Gateway');
    const tooLarge = await mk.feeds.upload({ csv: 'sku\n' }).catch((caught: unknown) => caught);
    expect(tooLarge).toBeInstanceOf(InvalidRequestError);
    expect(tooLarge).toMatchObject({ status: 413, code: 'validation/too-large', message: 'Request Entity Too Large' });
    expect(server.requests).toHaveLength(3);
  });

  it('throws MarketplaceConnectionError after the retries when the connection keeps failing', async () => {
    const { mk, server } = await scripted(['reset']);
    const error = (await mk.orders.get('ord_1').catch((caught: unknown) => caught)) as MarketplaceConnectionError;
    expect(error).toBeInstanceOf(MarketplaceConnectionError);
    expect(error).not.toBeInstanceOf(MarketplaceError);
    expect(error).toMatchObject({ timedOut: false, attempts: 3 });
    expect(error.message).toContain('GET /v1/orders/ord_1');
    expect(server.requests).toHaveLength(3);
  });

  it('abandons an attempt after timeoutMs and retries it with the same key', async () => {
    const { mk, server } = await scripted(['hang'], { timeoutMs: 300, maxRetries: 1 });
    const error = (await mk.orders.confirm('ord_1').catch((caught: unknown) => caught)) as MarketplaceConnectionError;
    expect(error).toBeInstanceOf(MarketplaceConnectionError);
    expect(error).toMatchObject({ timedOut: true, attempts: 2 });
    expect(server.requests).toHaveLength(2);
    expect(header(server.requests[1]!, 'idempotency-key')).toBe(header(server.requests[0]!, 'idempotency-key'));
  });

  it('stops at once, without retrying, when the caller aborts', async () => {
    const { mk, server } = await scripted(['hang']);
    const controller = new AbortController();
    const pending = mk.orders.get('ord_1', { signal: controller.signal });
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort(new Error('no longer needed'));
    await expect(pending).rejects.toThrow('no longer needed');
    expect(server.requests).toHaveLength(1);
  });
});

describe('the guard rails’ errors', () => {
  it('throws InsufficientScopeError naming the scope, and SpendingLimitError naming the limits, both PermissionErrors', async () => {
    const { mk } = await scripted([
      apiError(403, 'auth/insufficient-scope', 'This key lacks the orders:write scope', { details: [{ path: 'scope', message: 'needs orders:write' }] }),
      apiError(403, 'spending-limit', 'Over this key’s spending limits', { details: [{ path: 'limits.spendPerDay', message: '120.00 EUR of 500.00 EUR left today' }] }),
      apiError(403, 'auth/forbidden', 'Sellers may not'),
    ], { maxRetries: 0 });
    const scope = await mk.orders.create({ sessionId: SESSION }).catch((error: unknown) => error);
    expect(scope).toBeInstanceOf(InsufficientScopeError);
    expect(scope).toBeInstanceOf(PermissionError);
    expect((scope as InsufficientScopeError).scope).toBe('orders:write');
    const limit = await mk.orders.create({ sessionId: SESSION }).catch((error: unknown) => error);
    expect(limit).toBeInstanceOf(SpendingLimitError);
    expect(limit).toBeInstanceOf(PermissionError);
    expect((limit as SpendingLimitError).limits).toEqual(['spendPerDay']);
    expect((limit as SpendingLimitError).details[0]!.message).toBe('120.00 EUR of 500.00 EUR left today');
    const forbidden = await mk.orders.create({ sessionId: SESSION }).catch((error: unknown) => error);
    expect(forbidden).toBeInstanceOf(PermissionError);
    expect(forbidden).not.toBeInstanceOf(InsufficientScopeError);
  });
});
