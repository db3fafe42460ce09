// The shared steps around test operations, invoked in process, against
// DynamoDB Local: role guard, error shaping, idempotency edge cases.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerAgent } from '../../shared/domain/agents.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { defineRoute } from '../../shared/http/route-table.ts';
import { invoke } from '../support/invoke.ts';
import { captureOutput, loadWithEnv } from '../support/log-capture.ts';

const sellerOnly = defineRoute({
  operationId: 'testSellerOnly',
  method: 'POST',
  path: '/v1/test/seller-only',
  handler: 'test/integration/middleware-stack.test.ts',
  summary: 'test',
  description: 'A seller-only route for the role guard.',
  tag: 'Operations',
  auth: 'apiKey',
  roles: ['seller'],
  scope: 'any',
  rateLimited: true,
  request: { body: z.strictObject({ n: z.int() }) },
  response: { status: 201, description: 'ok', schema: z.object({ n: z.int() }) },
  examples: { body: { n: 1 }, response: { n: 1 } },
  handlerErrors: [],
  tableActions: [],
});

async function agent(role: 'buyer' | 'seller') {
  return registerAgent(
    { name: 'Stack test', role, organization: { legalName: 'Acme', country: 'DE' }, contactEmail: 'stack@acme.example' },
    new Date(),
  );
}

describe('role guard', () => {
  it('answers 403 auth/forbidden to a role the route does not allow, before running anything', async () => {
    let runs = 0;
    const handler = apiHandler(sellerOnly, ({ body }) => {
      runs += 1;
      return Promise.resolve({ data: { n: body.n } });
    });
    const buyer = await agent('buyer');
    const seller = await agent('seller');
    const refused = await invoke(handler, sellerOnly.path, { apiKey: buyer.apiKey, body: { n: 1 } });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: 'auth/forbidden', status: 403 });
    expect(refused.json.error).toContain('buyer');
    expect(refused.headers['x-ratelimit-limit']).toBe('60');
    expect(runs).toBe(0);
    const allowed = await invoke(handler, sellerOnly.path, { apiKey: seller.apiKey, body: { n: 2 } });
    expect(allowed.status).toBe(201);
    expect(allowed.json.data).toEqual({ n: 2 });
    expect(runs).toBe(1);
  });
});

describe('unexpected errors', () => {
  it('become 500 internal with the request id and nothing of the error itself', async () => {
    const handler = apiHandler(sellerOnly, () => Promise.reject(new Error('database password is hunter2')));
    const seller = await agent('seller');
    const response = await invoke(handler, sellerOnly.path, { apiKey: seller.apiKey, body: { n: 1 } });
    expect(response.status).toBe(500);
    expect(response.json).toMatchObject({ code: 'internal', status: 500, requestId: response.headers['x-request-id'] });
    expect(JSON.stringify(response.json)).not.toContain('hunter2');
  });
});

describe('idempotency', () => {
  it('does not store a 5xx: the retry runs again', async () => {
    let runs = 0;
    const handler = apiHandler(sellerOnly, ({ body }) => {
      runs += 1;
      if (runs === 1) return Promise.reject(new Error('transient failure'));
      return Promise.resolve({ data: { n: body.n } });
    });
    const seller = await agent('seller');
    const request = () => [sellerOnly.path, { apiKey: seller.apiKey, body: { n: 7 }, headers: { 'idempotency-key': 'retry-me' } }] as const;
    expect((await invoke(handler, ...request())).status).toBe(500);
    const retried = await invoke(handler, ...request());
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    const replayed = await invoke(handler, ...request());
    expect(replayed.status).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(runs).toBe(2);
  });

  it('answers 409 idempotency/conflict while the first request is still running', async () => {
    let finish: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const handler = apiHandler(sellerOnly, async ({ body }) => {
      await gate;
      return { data: { n: body.n } };
    });
    const seller = await agent('seller');
    const request = () => [sellerOnly.path, { apiKey: seller.apiKey, body: { n: 3 }, headers: { 'idempotency-key': 'slow' } }] as const;
    const first = invoke(handler, ...request());
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await invoke(handler, ...request());
    expect(second.status).toBe(409);
    expect(second.json).toMatchObject({ code: 'idempotency/conflict' });
    expect(second.json.error).toContain('still being processed');
    finish();
    expect((await first).status).toBe(201);
  });
});

describe('access log', () => {
  it('writes one JSON line per request with ids, route, status and duration, and never the key or a secret', async () => {
    // The function code loaded afresh at level INFO (the suite runs SILENT).
    const logged = await loadWithEnv({ LOG_LEVEL: 'INFO' }, () => import('../../shared/http/handler.ts'));
    const handler = logged.apiHandler(sellerOnly, ({ body }) => Promise.resolve({ data: { n: body.n } }));
    const seller = await agent('seller');
    const { stdout } = await captureOutput(async () => {
      await invoke(handler, sellerOnly.path, { apiKey: seller.apiKey, body: { n: 5 } });
      await invoke(handler, sellerOnly.path, { apiKey: seller.apiKey, body: { n: 'whsec_supersecretvalue' } });
    });
    const records = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({
      level: 'INFO',
      message: 'request',
      agentId: seller.agent.agentId,
      route: 'POST /v1/test/seller-only',
      status: 201,
      requestId: expect.stringMatching(/^req_/),
      // The Lambda context, injected by Powertools' middleware.
      function_name: 'testSellerOnly',
      function_request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(typeof records[0].durationMs).toBe('number');
    expect(records[1].status).toBe(422);
    const everything = stdout;
    expect(everything).not.toContain(seller.apiKey);
    expect(everything).not.toContain(seller.apiKey.slice(8));
    expect(everything).not.toContain('supersecretvalue');
  });
});

describe('rate-limit subject', () => {
  const publicRoute = defineRoute({ ...sellerOnly, operationId: 'testPublic', auth: 'public', roles: ['buyer', 'seller'], scope: null });

  it('is the agent when a public route is called with a valid key, and the address otherwise', async () => {
    const handler = apiHandler(publicRoute, ({ body }) => Promise.resolve({ data: { n: body.n } }));
    const seller = await agent('seller');
    const sourceIp = `203.0.113.${Math.floor(Math.random() * 250)}`;
    const withKey = await invoke(handler, publicRoute.path, { apiKey: seller.apiKey, body: { n: 1 }, sourceIp });
    const withBadKey = await invoke(handler, publicRoute.path, { apiKey: 'mk_test_nope', body: { n: 1 }, sourceIp });
    const withoutKey = await invoke(handler, publicRoute.path, { body: { n: 1 }, sourceIp });
    expect(withKey.status).toBe(201);
    expect(withKey.headers['x-ratelimit-remaining']).toBe('59'); // the agent's first request here
    expect(withBadKey.status).toBe(201);
    expect(withBadKey.headers['x-ratelimit-remaining']).toBe('59'); // the address's first
    expect(withoutKey.headers['x-ratelimit-remaining']).toBe('58'); // the address's second
  });
});
